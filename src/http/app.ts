// The fastify application, built without listening so tests and every role share it.
import { parse as parseQuery } from 'node:querystring';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { unstorableBody } from '../jsonapi/body.ts';
import { ApiError, errorObject } from '../jsonapi/errors.ts';
import { createMetrics, type Metrics } from '../metrics/metrics.ts';
import { databaseUnavailableError } from './database-unavailable.ts';
import { refuseWhileClosing } from './draining.ts';
import { countKeyRequestsIn } from './auth.ts';
import { apiErrorOf } from './domain-errors.ts';
import { clientErrorHandler, requestIdOf, stampRequestId, withRequestId } from './error-documents.ts';
import { collectReadRoutes } from './in-process-reads.ts';
import { loggedRequest } from './logged-request.ts';
import { instrumentHttp, type MetricsEndpoint } from './metrics.ts';
import { buildOpenApi } from './openapi.ts';
import { JSONAPI, registerRoutes, type AnyRouteSpec, type Services } from './route.ts';
import { accountRoutes } from './routes/account.ts';
import { carrierCallbackRoutes } from './routes/carrier-callbacks.ts';
import { containerMapRoutes } from './routes/container-map.ts';
import { containerRoutes } from './routes/containers.ts';
import { customFieldRoutes } from './routes/custom-fields.ts';
import { documentFileRoutes } from './routes/document-files.ts';
import { documentRoutes } from './routes/documents.ts';
import { emailSubmissionRoutes } from './routes/email-submissions.ts';
import { healthRoutes } from './routes/health.ts';
import { inferNumberRoutes } from './routes/infer-number.ts';
import { partyRoutes } from './routes/parties.ts';
import { referenceRoutes } from './routes/reference.ts';
import { searchRoutes } from './routes/search.ts';
import { shipmentRoutes } from './routes/shipments.ts';
import { trackingRequestRoutes } from './routes/tracking-requests.ts';
import { transportEventRoutes } from './routes/transport-events.ts';
import { webhookExampleRoutes } from './routes/webhook-examples.ts';
import { webhookNotificationRoutes } from './routes/webhook-notifications.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { timeoutOptions, type HttpTimeouts } from './server-timeouts.ts';

export interface AppOptions extends Services {
  logger?: FastifyServerOptions['logger'];
  /** A logger shared with the rest of the process (svc serve's workers), instead of `logger`. */
  loggerInstance?: FastifyBaseLogger;
  trustProxy?: boolean;
  /** Extra routes, for roles added later (and tests). */
  routes?: AnyRouteSpec[];
  /** Bounds on how long a client may take to send a request; defaults when unset. */
  timeouts?: HttpTimeouts;
  /** Where HTTP requests are counted (a registry of the app's own unless given). */
  metrics?: Metrics;
  /** Serve GET /metrics on this app (off unless given). */
  metricsEndpoint?: MetricsEndpoint;
  /** Answers an unknown path outside /v2 that a browser asked for (the web app's page); JSON:API otherwise. */
  pageNotFound?: (req: FastifyRequest, reply: FastifyReply) => unknown;
}

const BODY_LIMIT = 1024 * 1024;

const ROUTER_OPTIONS = {
  ignoreTrailingSlash: true,
  // Longer than any path node accepts (16 KiB of headers), so an over-long id reaches its route
  // and is an unknown id there like any other, rather than a router error.
  maxParamLength: 16_384,
  // node:querystring decodes percent-encoded keys, so page%5Bsize%5D arrives as page[size].
  querystringParser: (str: string) => parseQuery(str) as Record<string, string | string[]>,
};

/** Every /v2 route; the OpenAPI document is generated from this list. */
export function v2Routes(): AnyRouteSpec[] {
  return [...trackingRequestRoutes, ...inferNumberRoutes, ...shipmentRoutes, ...containerRoutes, ...containerMapRoutes, ...transportEventRoutes, ...searchRoutes, ...referenceRoutes, ...partyRoutes, ...webhookRoutes, ...webhookExampleRoutes, ...webhookNotificationRoutes, ...accountRoutes, ...customFieldRoutes, ...documentRoutes, ...emailSubmissionRoutes];
}

/** The app's logger (none unless given), its request lines leaving secrets in paths out (logged-request.ts). */
function loggerOptions({ logger, loggerInstance }: AppOptions): Pick<FastifyServerOptions, 'logger' | 'loggerInstance'> {
  const serializers = { req: loggedRequest };
  if (loggerInstance) return { loggerInstance: loggerInstance.child({}, { serializers }) };
  if (!logger) return { logger: false };
  return { logger: logger === true ? { serializers } : { ...logger, serializers: { ...logger.serializers, ...serializers } } };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const services: Services = { db: options.db, clock: options.clock, trackingClock: options.trackingClock, isTrackable: options.isTrackable, publicUrl: options.publicUrl, webhooks: options.webhooks, rateLimiter: options.rateLimiter, documents: options.documents };
  const app = Fastify({
    ...loggerOptions(options),
    trustProxy: options.trustProxy ?? false,
    bodyLimit: BODY_LIMIT,
    ...timeoutOptions(options.timeouts),
    clientErrorHandler,
    // refuseWhileClosing answers instead, in JSON:API.
    return503OnClosing: false,
    genReqId: (req) => requestIdOf(req.headers),
    routerOptions: ROUTER_OPTIONS,
    // Errors raised by the router itself (a malformed percent-encoding in the path) get the same body.
    frameworkErrors: (_err, req, reply) => {
      // Raised before any hook runs, so the request id goes on here.
      void (reply as FastifyReply).code(400).type(JSONAPI).header('x-request-id', req.id).send({ errors: withRequestId([errorObject(400, { detail: 'The request path is not a valid URL (malformed percent-encoding).', code: 'bad_url' })], req.id) });
    },
  });

  // Before any route: svc serve's MCP server reads /v2 in memory by the same routes (in-process-reads.ts).
  collectReadRoutes(app, ROUTER_OPTIONS);
  // svc serve's MCP server counts each of its requests against the key's limit as REST does.
  countKeyRequestsIn(app, options.db, options.clock, options.rateLimiter);
  // Callback style: an async hook costs every request a promise for nothing to wait on.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  app.addHook('preSerialization', stampRequestId);
  refuseWhileClosing(app);
  instrumentHttp(app, options.metrics ?? createMetrics({ db: options.db }), options.metricsEndpoint);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', JSONAPI], { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return done(ApiError.of(400, { title: 'Malformed JSON', detail: `The request body is not valid JSON: ${(err as Error).message}`, code: 'malformed_json' }), undefined);
    }
    // Refused here, with the place named, rather than failing deep in a query or a serialiser.
    const unstorable = unstorableBody(parsed);
    if (unstorable) return done(unstorable, undefined);
    done(null, parsed);
  });

  app.setErrorHandler((thrown: FastifyError | ApiError, req, reply) => {
    reply.type(JSONAPI);
    // Domain refusals and database outages become JSON:API errors here, the one place for both.
    const err = apiErrorOf(thrown) ?? databaseUnavailableError(thrown) ?? thrown;
    if (err instanceof ApiError) {
      reply.headers(err.headers);
      return reply.code(err.status).send({ errors: err.errors });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ errors: [errorObject(status, clientError(err))] });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ errors: [errorObject(500, { detail: `Something went wrong on our side (request ${req.id}).` })] });
  });

  const routes = [...v2Routes(), ...(options.routes ?? [])];
  await registerRoutes(app, services, routes);
  // Made at the first request for it: turning every route's zod schemas into JSON Schema is about
  // 0.1 s that svc serve's start need not pay.
  let openApi: Record<string, unknown> | undefined;
  app.get('/v2/openapi.json', async (_req, reply) => reply.type('application/json; charset=utf-8').send((openApi ??= buildOpenApi(routes))));
  healthRoutes(app, services);
  carrierCallbackRoutes(app, services);
  documentFileRoutes(app, services);

  const matchers = routes.map((r) => ({ method: r.method, re: pathPattern(r.url) }));
  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0].replace(/\/+$/, '') || '/';
    if (options.pageNotFound && !/^\/(v2|mcp|api)(\/|$)/.test(path) && req.headers.accept?.includes('text/html')) return options.pageNotFound(req, reply);
    reply.type(JSONAPI);
    const allowed: string[] = [...new Set(matchers.filter((m) => m.re.test(path)).map((m) => m.method))];
    if (allowed.length > 0) {
      if (allowed.includes('GET')) allowed.push('HEAD');
      reply.header('allow', allowed.join(', '));
      return reply.code(405).send({
        errors: [errorObject(405, { detail: `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}.`, code: 'method_not_allowed' })],
      });
    }
    return reply.code(404).send({ errors: [errorObject(404, { detail: `No route ${req.method} ${path}.`, code: 'route_not_found' })] });
  });

  return app;
}

function pathPattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** What a client error the framework raised says: its own words and code where svc has them, and the header at fault. */
function clientError(err: FastifyError): { detail: string; code?: string; source?: { header: string } } {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { detail: 'Send request bodies as application/vnd.api+json or application/json.', code: 'unsupported_media_type', source: { header: 'Content-Type' } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { detail: `The request body is larger than ${BODY_LIMIT} bytes.`, code: 'body_too_large', source: { header: 'Content-Length' } };
    default:
      return { detail: err.message, code: err.code?.toLowerCase() };
  }
}
