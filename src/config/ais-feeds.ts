// Which AIS feeds svc reads: those SVC_AIS_FEEDS lists, else — in demo mode — the sandbox's own
// feed on loopback, so `npm start` shows ships moving without any setting.
import type { Config } from './index.ts';

/**
 * The effective list of `host:port` AIS feeds. `sandboxAisPort` is the port the sandbox AIS feed
 * actually listens on (SVC_SANDBOX_AIS_PORT may be 0); leave it out when no sandbox runs.
 * SVC_AIS_FEEDS is read whether it arrives parsed (a list) or as the raw comma-separated text.
 */
export function aisFeeds(config: Pick<Config, 'SVC_SANDBOX'> & { SVC_AIS_FEEDS?: unknown }, sandboxAisPort?: number): string[] {
  const configured = config.SVC_AIS_FEEDS;
  const items = Array.isArray(configured) ? configured.map(String) : typeof configured === 'string' ? configured.split(',') : [];
  const feeds = items.map((item) => item.trim()).filter((item) => item !== '');
  if (feeds.length > 0) return feeds;
  return config.SVC_SANDBOX && sandboxAisPort !== undefined ? [`127.0.0.1:${sandboxAisPort}`] : [];
}
