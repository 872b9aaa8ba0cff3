// Mounts the web app on svc's HTTP server (svc serve, and tests that start it the same way).
import type { FastifyInstance } from 'fastify';
import type { WebOptions } from '../web/context.ts';
import { webApp } from '../web/plugin.tsx';

export { sendNotFoundPage as pageNotFound } from '../web/plugin.tsx';

export async function mountWeb(app: FastifyInstance, options: WebOptions): Promise<void> {
  await app.register(webApp, options);
}
