// Mounts the web app on svc's HTTP server (svc serve, and tests that start it the same way). Its
// pages reach the REST API in memory, as the signed-in user's account (src/http/in-process-auth.ts).
import type { FastifyInstance } from 'fastify';
import { SvcClient } from '../../sdk/src/client.ts';
import { inProcessToken } from '../http/in-process-auth.ts';
import { LiveEventsHub } from '../services/live-events.ts';
import { registerAssets } from '../web/assets.ts';
import type { WebOptions } from '../web/context.ts';
import { webApp } from '../web/plugin.tsx';
import { endLiveStreamsOnClose } from '../web/sse.ts';
import { injectFetch } from './inject-fetch.ts';

export { sendNotFoundPage as pageNotFound } from '../web/plugin.tsx';

/**
 * The live events hub is made here unless given (one per process: one LISTEN connection for every
 * open page), and closed with the app; open streams are ended first, or app.close() would wait on them.
 */
export async function mountWeb(app: FastifyInstance, options: Omit<WebOptions, 'clientFor'>): Promise<{ live: LiveEventsHub }> {
  const fetch = injectFetch(app);
  // The host only names the in-memory app: requests never leave the process.
  const baseUrl = `${options.appUrl ?? 'http://localhost'}/v2`;
  const clientFor = (accountId: string) => new SvcClient({ baseUrl, token: inProcessToken(accountId), fetch, maxRetries: 0 });
  const live = options.live ?? new LiveEventsHub(options.db, { log: (msg, fields) => app.log.warn(fields ?? {}, msg) });
  if (!options.live) app.addHook('onClose', () => live.close());
  endLiveStreamsOnClose(app);
  await registerAssets(app);
  await app.register(webApp, { ...options, clientFor, live });
  return { live };
}
