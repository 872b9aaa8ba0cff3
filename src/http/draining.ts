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
  // Callback style: every request passes here, and an async hook would cost each a promise.
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(ApiError.of(503, { detail: 'svc is shutting down; retry in a moment.', code: 'shutting_down' }, { 'retry-after': '1' }));
  });
}
