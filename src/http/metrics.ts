// HTTP side of the metrics: every response is counted under its route pattern, and GET /metrics
// answers the Prometheus text exposition, on the API port behind a bearer token or on a listener
// of its own (SVC_METRICS_PORT).
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Config } from '../config/index.ts';
import { errorObject } from '../jsonapi/errors.ts';
import { UNMATCHED_ROUTE, type Metrics } from '../metrics/metrics.ts';
import { JSONAPI } from './route.ts';
import { endConnectionsAfterLastAnswer } from './draining.ts';

export const METRICS_PATH = '/metrics';

/** Where GET /metrics is served on an app, and the token it asks for (none: open to whoever reaches it). */
export interface MetricsEndpoint {
  token?: string;
}

/**
 * Counts every response of `app` by method, route pattern (never the raw URL, so the number of
 * series stays bounded) and status; with `endpoint`, serves GET /metrics on it too.
 */
export function instrumentHttp(app: FastifyInstance, metrics: Metrics, endpoint?: MetricsEndpoint): void {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observeHttpRequest(req.method, routePatternOf(req) ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  if (endpoint) metricsRoute(app, metrics, endpoint.token);
}

// fastify's key to a request's route context, an own symbol of every request (what its public
// is404 reads): request.routeOptions builds an object of a dozen fields on every read, for the
// one URL pattern the context holds. Found on the first request; routeOptions if it ever is not.
let routeContextKey: symbol | null | undefined;

/** The pattern of the route that answered (/v2/shipments/:id), undefined when none matched. */
function routePatternOf(req: FastifyRequest): string | undefined {
  if (routeContextKey === undefined) routeContextKey = Object.getOwnPropertySymbols(req).find((s) => s.description === 'fastify.context') ?? null;
  const context = routeContextKey === null ? undefined : (req as unknown as Record<symbol, { config?: { url?: string } } | undefined>)[routeContextKey];
  return context ? context.config?.url : req.routeOptions.url;
}

function metricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const expected = token === undefined ? undefined : digest(token);
  app.get(METRICS_PATH, async (req: FastifyRequest, reply: FastifyReply) => {
    if (expected && !bearerMatches(req.headers.authorization, expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="svc metrics"')
        .type(JSONAPI)
        .send({ errors: [errorObject(401, { detail: 'GET /metrics needs Authorization: Bearer <SVC_METRICS_TOKEN>.', code: 'unauthorized' })] });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

// Digests have equal lengths, so timingSafeEqual can compare them whatever length was sent.
const digest = (text: string) => createHash('sha256').update(text).digest();

function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return !!match && timingSafeEqual(digest(match[1]), expected);
}

/**
 * Metrics are never public by default: with SVC_METRICS_PORT they have a listener of their own
 * (loopback unless SVC_METRICS_HOST says otherwise), else they are on the API port only behind
 * SVC_METRICS_TOKEN; with neither, nothing serves them. A set token is asked for wherever they are.
 */
export function metricsOnApiPort(config: Pick<Config, 'SVC_METRICS_PORT' | 'SVC_METRICS_TOKEN'>): MetricsEndpoint | undefined {
  return config.SVC_METRICS_PORT === undefined && config.SVC_METRICS_TOKEN ? { token: config.SVC_METRICS_TOKEN } : undefined;
}

/** The listener that serves only GET /metrics, apart from the API, when SVC_METRICS_PORT is set. */
export async function startMetricsServer(metrics: Metrics, config: Pick<Config, 'SVC_METRICS_PORT' | 'SVC_METRICS_HOST' | 'SVC_METRICS_TOKEN'>): Promise<FastifyInstance | undefined> {
  if (config.SVC_METRICS_PORT === undefined) return undefined;
  const server = Fastify({ logger: false });
  endConnectionsAfterLastAnswer(server);
  metricsRoute(server, metrics, config.SVC_METRICS_TOKEN);
  server.setNotFoundHandler(async (req, reply) =>
    reply.code(404).type(JSONAPI).send({ errors: [errorObject(404, { detail: `This listener serves only GET ${METRICS_PATH}.`, code: 'route_not_found' })] }),
  );
  await server.listen({ port: config.SVC_METRICS_PORT, host: config.SVC_METRICS_HOST }).catch(async (err: unknown) => {
    await server.close();
    throw err;
  });
  return server;
}
