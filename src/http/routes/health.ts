// Liveness and readiness for load balancers and orchestrators; no authentication.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pingDatabase } from '../../store/ping.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../database-unavailable.ts';
import type { PlainOperation } from '../openapi-schemas.ts';
import type { Services } from '../route.ts';

const alive = z.object({ status: z.literal('ok') });
const down = z.object({ status: z.literal('unavailable'), database: z.literal('unreachable') });
const ready = z.object({ status: z.literal('ready'), database: z.literal('ok') });
const notReady = z.object({ status: z.literal('not_ready'), database: z.literal('unreachable') });

/** How the OpenAPI document describes the routes below. */
export const healthOperations: PlainOperation[] = [
  {
    path: '/healthz',
    summary: 'Liveness: the process is up and reaches its database',
    tag: 'Operability',
    responses: { 200: { description: 'Up', schema: alive }, 503: { description: 'The database cannot be reached (svc restarts an embedded one)', schema: down } },
  },
  {
    path: '/readyz',
    summary: 'Readiness: the database is reachable',
    tag: 'Operability',
    responses: { 200: { description: 'Ready to serve', schema: ready }, 503: { description: 'The database cannot be reached', schema: notReady } },
  },
];

export function healthRoutes(app: FastifyInstance, services: Services): void {
  // Probes arriving together share one ping: the answer is never older than one round trip, and a
  // burst of probes (or a load balancer polling hard) costs the database one query, not one each.
  let ping: Promise<boolean> | undefined;
  const reachable = () =>
    (ping ??= pingDatabase(services.db).then(
      () => true,
      () => false,
    ).finally(() => (ping = undefined)));

  // Without its database svc cannot do anything useful, so liveness says so too.
  app.get('/healthz', async (_req, reply) => {
    if (await reachable()) return { status: 'ok' } satisfies z.infer<typeof alive>;
    return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'unavailable', database: 'unreachable' } satisfies z.infer<typeof down>);
  });
  app.get('/readyz', async (req, reply) => {
    try {
      await pingDatabase(services.db);
      return { status: 'ready', database: 'ok' } satisfies z.infer<typeof ready>;
    } catch (err) {
      req.log.warn({ err }, 'readiness check failed');
      return reply.code(503).send({ status: 'not_ready', database: 'unreachable' } satisfies z.infer<typeof notReady>);
    }
  });
}
