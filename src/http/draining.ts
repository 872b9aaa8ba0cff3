// While the server shuts down, requests still arriving on open keep-alive connections are turned
// away with a JSON:API 503 (fastify's own answer, return503OnClosing, is not JSON:API), and the
// connection is closed so the client's next try opens a new one, to a server that is up.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import { ApiError } from '../jsonapi/errors.ts';

/** How often a closing server ends the kept-alive connections whose last answer has gone out meanwhile. */
const REAP_EVERY_MS = 50;

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
  endConnectionsAfterLastAnswer(app);
}

/**
 * app.close() waits for every connection to end, and node's server.close() ends only those idle at
 * that moment. A connection whose request was under way then stays open after its answer, kept
 * alive for the client's next request, until the client leaves or keepAliveTimeout (72 s) passes:
 * a shutdown during traffic would wait that long (svc serve gives up after 10 s, exiting 1). So
 * until the server has closed, connections are ended as they fall idle.
 */
export function endConnectionsAfterLastAnswer<Logger extends FastifyBaseLogger>(app: FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, Logger>): void {
  let reaper: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    reaper = setInterval(() => app.server.closeIdleConnections(), REAP_EVERY_MS);
    reaper.unref();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    clearInterval(reaper);
    done();
  });
}
