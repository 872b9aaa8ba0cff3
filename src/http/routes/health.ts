// Liveness and readiness for load balancers and orchestrators; no authentication.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../route.ts';

export function healthRoutes(app: FastifyInstance, services: Services): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (req, reply) => {
    try {
      await services.db.query('SELECT 1');
      return { status: 'ready', database: 'ok' };
    } catch (err) {
      req.log.warn({ err }, 'readiness check failed');
      return reply.code(503).send({ status: 'not_ready', database: 'unreachable' });
    }
  });
}
