// Mounts the web app on svc's HTTP server (svc serve, and tests that start it the same way). Its
// pages reach the REST API in memory, as the signed-in user's account (src/http/in-process-auth.ts).
import type { FastifyInstance } from 'fastify';
import { SvcClient } from '../../sdk/src/client.ts';
import { inProcessToken } from '../http/in-process-auth.ts';
import { registerAssets } from '../web/assets.ts';
import type { WebOptions } from '../web/context.ts';
import { webApp } from '../web/plugin.tsx';
import { injectFetch } from './inject-fetch.ts';

export { sendNotFoundPage as pageNotFound } from '../web/plugin.tsx';

export async function mountWeb(app: FastifyInstance, options: Omit<WebOptions, 'clientFor'>): Promise<void> {
  const fetch = injectFetch(app);
  // The host only names the in-memory app: requests never leave the process.
  const baseUrl = `${options.appUrl ?? 'http://localhost'}/v2`;
  const clientFor = (accountId: string) => new SvcClient({ baseUrl, token: inProcessToken(accountId), fetch, maxRetries: 0 });
  await registerAssets(app);
  await app.register(webApp, { ...options, clientFor });
}
