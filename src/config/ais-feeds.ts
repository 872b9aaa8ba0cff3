// Which AIS feeds svc reads: those SVC_AIS_FEEDS lists, else — in demo mode — the sandbox's own
// feed on loopback, so `npm start` shows ships moving without any setting.
import type { Config } from './index.ts';

export type AisFeedAddress = Config['SVC_AIS_FEEDS'][number];

/**
 * The effective list of AIS feeds. `sandboxAisPort` is the port the sandbox AIS feed actually
 * listens on (SVC_SANDBOX_AIS_PORT may be 0); leave it out when no sandbox runs.
 */
export function aisFeeds(config: Pick<Config, 'SVC_SANDBOX' | 'SVC_AIS_FEEDS'>, sandboxAisPort?: number): AisFeedAddress[] {
  if (config.SVC_AIS_FEEDS.length > 0) return config.SVC_AIS_FEEDS;
  return config.SVC_SANDBOX && sandboxAisPort !== undefined ? [{ host: '127.0.0.1', port: sandboxAisPort }] : [];
}

/** host:port as people write it (an IPv6 address in brackets). */
export const feedLabel = ({ host, port }: AisFeedAddress): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;
