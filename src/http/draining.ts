// While the server shuts down, requests still arriving on open keep-alive connections are turned
// away with a JSON:API 503 (fastify's own answer, return503OnClosing, is not JSON:API), and the
// connection is closed so the client's next try opens a new one, to a server that is up.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../jsonapi/errors.ts';

export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_req, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw ApiError.of(503, { detail: 'svc is shutting down; retry in a moment.', code: 'shutting_down' }, { 'retry-after': '1' });
  });
}
