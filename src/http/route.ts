// One way to declare a /v2 route: its method, path, schemas and handler. The same declaration
// registers the fastify route, validates the request and feeds the OpenAPI document.
import multipart, { type FastifyMultipartOptions } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Document, Resource } from '../jsonapi/document.ts';
import { assertSameId } from '../jsonapi/body.ts';
import { ApiError } from '../jsonapi/errors.ts';
import { memoize } from '../domain/memoize.ts';
import { param, type Query } from '../jsonapi/query.ts';
import { includePaths, loadIncludedResources } from '../read-model/resources.ts';
import type { RateLimiter } from '../services/rate-limiters.ts';
import { defaultDocumentSettings, type DocumentSettings } from '../services/documents.ts';
import type { Db } from '../store/db.ts';
import { defaultWebhookSettings, type WebhookSettings } from '../webhooks/settings.ts';
import { authenticate, type AuthenticatedKey } from './auth.ts';
import { IN_PROCESS_READ, presetErrorOf, type ReadRun } from './in-process-reads.ts';
import type { Bucket } from './rate-limit.ts';

export const JSONAPI = 'application/vnd.api+json';

export interface Services {
  db: Db;
  clock: Clock;
  /**
   * The tracking worker's clock, for writes to tracking state (stop, resume, refresh) that the
   * worker compares with its own "now". In demo mode it runs ahead of `clock` (the sandbox's
   * accelerated time); unset, it is `clock`.
   */
  trackingClock?: Clock;
  /**
   * Whether svc can track a shipping line (by its own SCAC) here: a carrier connector is
   * configured for it. Unset (plain test apps), every known line counts as trackable.
   */
  isTrackable?: (scac: string) => boolean;
  /** Public origin for absolute links; when unset it comes from the request. */
  publicUrl?: string;
  /** What the webhook routes accept and publish; unset, the secure defaults. */
  webhooks?: WebhookSettings;
  /** Where requests are counted against the rate limits; unset, in PostgreSQL. */
  rateLimiter?: RateLimiter;
  /** Upload cap and link signing of the document routes; unset, the defaults. */
  documents?: DocumentSettings;
}

export const trackingClockOf = (services: Services): Clock => services.trackingClock ?? services.clock;
export const webhookSettingsOf = (services: Services): WebhookSettings => services.webhooks ?? defaultWebhookSettings;
export const documentSettingsOf = (services: Services): DocumentSettings => services.documents ?? defaultDocumentSettings;

export interface Ctx<B> {
  req: FastifyRequest;
  reply: FastifyReply;
  services: Services;
  accountId: string;
  /** The account's switched-off features: what requireFeature (src/services/features.ts) reads. */
  disabledFeatures: readonly string[];
  params: Record<string, string>;
  query: Query;
  body: B;
  /** Absolute URL of this request, for top-level links. */
  url: URL;
  /**
   * The records the `include` parameter asks for, related to `primary` (of type `rootType`).
   * Every show and list route calls it, so an unknown include is a 400 everywhere.
   */
  include(rootType: string, primary: Resource[]): Promise<Resource[] | undefined>;
}

export interface Reply {
  status?: number;
  body: Document | Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface QueryParamSpec {
  name: string;
  description: string;
  schema?: Record<string, unknown>;
  /** Several values in one parameter, comma-separated ("a,b"): OpenAPI's form style, not exploded. */
  commaSeparated?: boolean;
  /** The route refuses a request without it (a 400 naming it). */
  required?: boolean;
}

export interface RouteSpec<B = undefined> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** fastify path, e.g. /v2/parties/:id */
  url: string;
  summary: string;
  tag: string;
  /** Validates and types the parsed body; the same schema describes it in OpenAPI. */
  body?: z.ZodType<B>;
  /** Turns body validation into JSON:API errors (pointer prefixes differ by body shape). */
  parseBody?: (schema: z.ZodType<B>, raw: unknown) => B;
  query?: QueryParamSpec[];
  /** Schema of a successful response body, for OpenAPI. */
  response?: { status: number; description: string; schema?: z.ZodType };
  /** Error statuses beyond the ones every route documents (400, 401, 404, 422, 429), with what they mean here. */
  errors?: Record<number, string>;
  bucket?: Bucket;
  /** Plain JSON instead of JSON:API (infer_number, refresh and the like). */
  plainJson?: boolean;
  /**
   * A body that is no JSON (a raw e-mail): its media type (for OpenAPI and the parser) and largest
   * size. The handler reads the bytes; only this route parses that media type.
   */
  rawBody?: { mediaType: string; description: string; maxBytes(services: Services): number };
  /**
   * The route also takes multipart/form-data (a file upload): the form's fields, for OpenAPI, and
   * the parser's limits. The handler reads the parts (req.parts()); no other route parses
   * multipart, so a form sent to a JSON route is a 415 as any other media type it does not take.
   */
  multipart?: MultipartSpec;
  handler(ctx: Ctx<B>): Promise<Reply>;
}

export type AnyRouteSpec = RouteSpec<any>;

export interface MultipartSpec {
  description: string;
  /** The form's fields; a file part is described as a binary string. */
  fields: Record<string, { description: string; file?: boolean }>;
  required: string[];
  limits(services: Services): NonNullable<FastifyMultipartOptions['limits']>;
}

/**
 * Registers the routes: each that takes a form or a raw body in a fastify scope of its own, where
 * alone its parser is, so any other route answers 415 to that media type.
 */
export async function registerRoutes(app: FastifyInstance, services: Services, routes: AnyRouteSpec[]): Promise<void> {
  for (const spec of routes) {
    const { multipart: form, rawBody: raw } = spec;
    if (!form && !raw) registerRoute(app, services, spec);
    else {
      await app.register(async (scope) => {
        if (form) await scope.register(multipart, { limits: form.limits(services) });
        if (raw) scope.addContentTypeParser(raw.mediaType, { parseAs: 'buffer', bodyLimit: raw.maxBytes(services) }, (_req, body, done) => done(null, body));
        registerRoute(scope, services, spec);
      });
    }
  }
}

/** The URL of a request for `path` (with its query, as sent) on `origin`, for links. */
function requestUrl(path: string, origin: string): URL {
  const url = new URL(path, origin);
  // Links are built on this URL: page[size] sent raw would come back with raw brackets, which
  // curl (without -g) and strict URL parsers refuse. Both forms are read alike.
  url.search = url.search.replace(/\[/g, '%5B').replace(/\]/g, '%5D');
  return url;
}

// A client sends the same Host on every request: each one is checked once (bounded, as Hosts
// come from clients); null remembers one that is not a host name.
const originOfText = memoize((text: string): string | null => {
  const origin = URL.canParse(text) ? new URL(text) : undefined;
  // A Host that is not just host[:port] ("a/b", "a?b", "user@a") would bend every link built on it.
  return !origin || origin.pathname !== '/' || origin.search || origin.hash || origin.username || origin.password ? null : origin.origin;
}, 1_000);

/** The origin the client addressed, from its Host header (HTTP/1.0 may leave it out). */
function requestOrigin(req: FastifyRequest): string {
  const host = req.headers.host ? req.host : undefined;
  const origin = host ? originOfText(`${req.protocol}://${host}`) : null;
  if (!origin) {
    throw ApiError.of(400, {
      detail: host ? 'The Host header is not a valid host name (host or host:port).' : 'The request has no Host header; send Host: <host>[:port].',
      code: 'invalid_host',
      source: { header: 'Host' },
    });
  }
  return origin;
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL in a path or query parameter is refused here,
 * as a client error, before it reaches any query.
 */
function rejectNulCharacters(rawUrl: string, params: Record<string, string>, query: Query): void {
  // Parameters are decoded from the URL, where a NUL can only come percent-encoded (the HTTP
  // parser refuses a raw one): most requests have none to look for.
  if (!rawUrl.includes('%00') && !rawUrl.includes('\u0000')) return;
  for (const [name, value] of Object.entries(params)) {
    if (value.includes('\u0000')) throw ApiError.of(400, { detail: `The path parameter ${name} contains a NUL character.`, code: 'invalid', source: { parameter: name } });
  }
  for (const [name, value] of Object.entries(query)) {
    if ([name, ...[value ?? []].flat()].some((v) => v.includes('\u0000'))) {
      throw ApiError.of(400, { detail: `The query parameter ${name} contains a NUL character.`, code: 'invalid', source: { parameter: name } });
    }
  }
}

export function registerRoute(app: FastifyInstance, services: Services, spec: AnyRouteSpec): void {
  app.route({
    method: spec.method,
    url: spec.url,
    // A read's steps for svc serve's MCP server calling it in memory (in-process-reads.ts).
    config: spec.method === 'GET' ? { [IN_PROCESS_READ]: inProcessRun(services, spec) } : {},
    // Authentication and rate limiting run before the body is read, so a client without a
    // valid key or over its limit never costs a parse.
    onRequest: async (req) => {
      // A read that failed in process, sent here to be answered as the app answers a failure.
      const preset = presetErrorOf(req.raw);
      if (preset) throw preset.err;
      req.apiKey = await authenticate(services.db, services.clock, req, spec.bucket ?? 'default', services.rateLimiter);
    },
    handler: async (req, reply) => {
      const incoming = { req, reply, url: req.url, apiKey: req.apiKey!, params: req.params as Record<string, string>, query: req.query as Query, body: req.body, origin: () => requestOrigin(req) };
      const result = await runHandler(services, spec, incoming);
      reply.code(result.status ?? 200);
      reply.type(contentTypeOf(spec));
      if (result.headers) reply.headers(result.headers);
      return result.body;
    },
  });
}

const contentTypeOf = (spec: AnyRouteSpec) => (spec.plainJson ? 'application/json; charset=utf-8' : JSONAPI);

/** What a route's handler runs with, from fastify's request or from an in-process read. */
interface Incoming {
  req: FastifyRequest;
  reply: FastifyReply;
  /** Path and query as sent. */
  url: string;
  apiKey: AuthenticatedKey;
  params: Record<string, string>;
  query: Query;
  /** The body as parsed by its media type (none for a read). */
  body: unknown;
  /** The origin the client addressed (a 400 when its Host is no host name). */
  origin: () => string;
}

// Not async: its callers await it in async functions, where what it throws becomes their rejection.
function runHandler(services: Services, spec: AnyRouteSpec, incoming: Incoming): Promise<Reply> {
  const { url: rawUrl, apiKey, params, query } = incoming;
  rejectNulCharacters(rawUrl, params, query);
  const body = spec.body ? (spec.parseBody ?? ((s, r) => s.parse(r)))(spec.body, incoming.body) : undefined;
  // JSON:API: a PATCH whose data.id names another record than the URL is a conflict.
  if (spec.method === 'PATCH' && params.id && typeof body?.data?.id === 'string') assertSameId(body, params.id);
  // The Host is checked on every request (a 400 when it is not a host name); the URL, which
  // only links need, is made when first asked for.
  const origin = services.publicUrl ?? incoming.origin();
  return spec.handler(new HandlerCtx(incoming, services, apiKey, body, origin));
}

const NO_INCLUDE: Promise<undefined> = Promise.resolve(undefined);

/**
 * A handler's Ctx. A class rather than an object literal: the lazy `url` getter lives on its
 * prototype, where a literal would define an accessor afresh on every request.
 */
class HandlerCtx<B> implements Ctx<B> {
  readonly req: FastifyRequest;
  readonly reply: FastifyReply;
  readonly services: Services;
  readonly accountId: string;
  readonly disabledFeatures: readonly string[];
  readonly params: Record<string, string>;
  readonly query: Query;
  readonly body: B;
  readonly include: Ctx<B>['include'];
  readonly #rawUrl: string;
  readonly #origin: string;
  #url: URL | undefined;

  constructor(incoming: Incoming, services: Services, apiKey: AuthenticatedKey, body: B, origin: string) {
    this.req = incoming.req;
    this.reply = incoming.reply;
    this.services = services;
    this.accountId = apiKey.account_id;
    this.disabledFeatures = apiKey.disabled_features;
    this.params = incoming.params;
    this.query = incoming.query;
    this.body = body;
    this.#rawUrl = incoming.url;
    this.#origin = origin;
    this.include = includeOf(this as HandlerCtx<unknown>);
  }

  get url(): URL {
    return (this.#url ??= requestUrl(this.#rawUrl, this.#origin));
  }
}

/** HandlerCtx's include, bound to it: handlers take it out of their Ctx (`{ include }`). */
function includeOf(ctx: HandlerCtx<unknown>): Ctx<unknown>['include'] {
  return (rootType, primary) => {
    // A refused include is a rejection, as from an async function, not a throw at the caller.
    let paths: string[];
    try {
      paths = includePaths(rootType, param(ctx.query, 'include'));
    } catch (err) {
      return Promise.reject(err);
    }
    if (paths.length === 0) return NO_INCLUDE;
    return loadIncludedResources({ db: ctx.services.db, accountId: ctx.accountId, now: trackingClockOf(ctx.services).now() }, primary, paths);
  };
}

const NOT_IN_PROCESS = (what: string) => () => {
  throw new Error(`a /v2 read route used ctx.${what}, which a read made in process has not (src/http/in-process-reads.ts): read what it needs from the Ctx's other members`);
};
const IN_PROCESS_REQ = new Proxy({}, { get: NOT_IN_PROCESS('req') }) as FastifyRequest;
const IN_PROCESS_REPLY = new Proxy({}, { get: NOT_IN_PROCESS('reply') }) as FastifyReply;

/**
 * A GET route's steps for a read made in process: what onRequest and the handler do with a
 * fastify request, with the request's few fields (no body; Host and plain HTTP, as fastify sees
 * them without proxy headers, which in-process-reads.ts leaves to fastify).
 */
function inProcessRun(services: Services, spec: AnyRouteSpec): ReadRun {
  return async ({ path, headers }, params, query) => {
    const apiKey = await authenticate(services.db, services.clock, { headers } as FastifyRequest, spec.bucket ?? 'default', services.rateLimiter);
    const origin = () => requestOrigin({ headers, host: headers.host, protocol: 'http' } as FastifyRequest);
    const result = await runHandler(services, spec, { req: IN_PROCESS_REQ, reply: IN_PROCESS_REPLY, url: path, apiKey, params, query, body: undefined, origin });
    // The charset fastify adds to a type without one when it serialises an object.
    const type = contentTypeOf(spec);
    return { ...result, headers: { 'content-type': type.includes('charset') ? type : `${type}; charset=utf-8`, ...result.headers } };
  };
}
