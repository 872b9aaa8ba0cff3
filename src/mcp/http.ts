// MCP over streamable HTTP, as a fastify plugin: svc serve mounts it beside the REST API and
// svc mcp runs it alone. Stateless: every POST is lent a pooled McpServer, with an SDK client
// carrying the caller's key, so any replica can answer any request and nothing is kept between
// requests but the short memory of keys REST accepted (auth.ts). Every JSON-RPC message counts
// against the key's rate limit, a batch as many as it holds (Admission). A plain request (one JSON-RPC
// request, headers as the transport wants them) goes straight to a server kept connected to a
// DirectTransport; anything else to the SDK's web-standard transport, which answers it its own way.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestInfo } from '@modelcontextprotocol/sdk/types.js';
import { apiKeyOfHeader } from '../domain/api-key-header.ts';
import { SlidingWindowLog } from '../domain/sliding-window-log.ts';
import { KeyCache, keyDigest, MISSING_TOKEN, type KeyCheck } from './auth.ts';
import { parsedJson } from './json-body.ts';
import { OriginPolicy, type OriginPolicyOptions } from './origin-policy.ts';
import { keyedClient, restClient } from './rest-client.ts';
import type { McpServerPool } from './server.ts';

export interface McpHttpOptions extends OriginPolicyOptions {
  /** Where MCP answers POSTs: /mcp and /api/mcp (and / for the standalone server). */
  paths: string[];
  /** svc's REST API (origin or …/v2), read per request: svc serve knows its port only once listening. */
  apiBaseUrl: () => string;
  /** SVC_API_TOKEN: the key of requests that carry no Authorization header. */
  fallbackToken?: string;
  /** How the SDK reaches REST (default: the global fetch; svc serve passes one into its own app). */
  fetch?: typeof fetch;
  /** Keys REST accepted recently (a new cache of KEY_TTL_MS unless given). */
  keys?: KeyCache;
  /**
   * Counts a POST's messages against the key's rate limit, checking the key as it does (svc serve:
   * the REST API's own limiter and default bucket, so REST and MCP share the budget). Without
   * it, the key is checked through REST (remembered for KEY_TTL_MS) and its messages are counted
   * in this process's memory, `limit` per window.
   */
  admit?: Admission;
  /** The window of messages counted here without `admit` (REST's default bucket: src/http/rate-limit.ts). */
  limit?: { max: number; windowMs: number };
}

/** Counts `messages` MCP requests of the key `token`: whether they may go on, else the answer. */
export type Admission = (token: string, messages: number) => Promise<KeyCheck>;

/** A POST's JSON-RPC messages, at most (the SDK's transport refuses more as well, but after they were counted). */
export const MAX_BATCH_MESSAGES = 100;
/** A POST's body, at most: far above any tool's arguments, far below what a batch of them could reach. */
export const MAX_BODY_BYTES = 1024 * 1024;

const CORS_HEADERS = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'access-control-expose-headers': 'Mcp-Session-Id, WWW-Authenticate, Retry-After',
  'access-control-max-age': '86400',
};

const ACCEPTED: KeyCheck = { ok: true };
/** The JSON-RPC error code of a request over the key's rate limit (a server error code, as JSON-RPC leaves them to servers). */
const RATE_LIMITED = -32029;

/**
 * Admission where MCP reaches REST over HTTP: the key checked through REST (remembered briefly),
 * then its messages counted in this process's memory.
 */
function countedHere(keys: KeyCache, limit: { max: number; windowMs: number }, client: (token: string) => ReturnType<typeof restClient>): Admission {
  const log = new SlidingWindowLog();
  return async (token, messages) => {
    // A key REST accepted moments ago (the common case) is taken without a trip through check's promise.
    const check = keys.has(token) ? ACCEPTED : await keys.check(token, () => client(token));
    if (!check.ok) return check;
    const waitMs = log.hit(keyDigest(token), Date.now(), limit.max, limit.windowMs, messages);
    return waitMs === 0 ? ACCEPTED : overLimit(limit.max, waitMs);
  };
}

/** The refusal of messages `waitMs` too early for a key allowed `max` a minute. */
export function overLimit(max: number, waitMs: number, detail = `The API key is over its rate limit of ${max} requests per minute (MCP requests count as REST requests do).`): KeyCheck {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return { ok: false, status: 429, error: 'Too Many Requests', message: `${detail} Retry after ${retryAfterSeconds} s.`, retryAfterSeconds };
}

// Headers the SDK's transport has no use for; the key above all stays out of the tools' reach.
const NOT_FORWARDED = new Set(['authorization', 'cookie', 'host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive']);

/** A JSON-RPC error answer with `status` (the id of a single request, else null). */
function jsonRpcFail(reply: FastifyReply, status: number, code: number, message: string, id: unknown, headers: Record<string, string> = {}) {
  const known = typeof id === 'string' || typeof id === 'number' ? id : null;
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send({ jsonrpc: '2.0', error: { code, message }, id: known });
}

/** A JSON answer of the HTTP layer (not JSON-RPC): `{ error, message }`. */
function fail(reply: FastifyReply, status: number, error: string, message: string, headers: Record<string, string> = {}) {
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send({ error, message });
}

/**
 * The MCP SDK and svc's tools, loaded with the first MCP request (then kept): about 0.15 s of CPU
 * that svc serve's start need not pay.
 */
const loadEngine = async () => {
  const [{ McpServerPool }, { plainRequest }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
    import('./server.ts'),
    import('./direct-transport.ts'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]);
  return { McpServerPool, plainRequest, WebStandardStreamableHTTPServerTransport };
};
let engine: Awaited<ReturnType<typeof loadEngine>> | undefined;

export const mcpHttp: FastifyPluginAsync<McpHttpOptions> = async (app, options) => {
  const policy = new OriginPolicy(options);
  const keys = options.keys ?? new KeyCache();
  const send = options.fetch ?? globalThis.fetch;
  let pool: McpServerPool | undefined;
  const admit = options.admit ?? countedHere(keys, options.limit ?? { max: 100, windowMs: 60_000 }, (token) => restClient(options.apiBaseUrl(), token, send));

  // The transport reads the body itself, to answer bad JSON and media types the JSON-RPC way.
  // application/json is named as well as '*': fastify remembers which parser a Content-Type
  // takes only for a named one, and works out the catch-all afresh for every request.
  app.removeAllContentTypeParsers();
  const asText = (_req: FastifyRequest, body: string | Buffer, done: (err: null, body: string | Buffer) => void) => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, asText);
  app.addContentTypeParser('*', { parseAs: 'string' }, asText);

  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return fail(reply, status, status === 413 ? 'Payload Too Large' : 'Bad Request', err.message);
    req.log.error({ err }, 'MCP request failed');
    return fail(reply, 500, 'Internal Server Error', `Something went wrong on our side (request ${req.id}).`);
  });

  // A callback hook, not an async one: the request goes on at once, not a promise's turn later.
  // One that answers here does not call done, so the request goes no further.
  app.addHook('onRequest', (req, reply, done) => {
    if (!policy.hostAllowed(req.headers.host)) return void fail(reply, 403, 'Forbidden', `Invalid Host header: ${req.headers.host ?? ''}`);
    const origin = req.headers.origin;
    if (!policy.originAllowed(origin)) return void fail(reply, 403, 'Forbidden', `Invalid Origin header: ${origin}`);
    reply.headers(origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : { 'access-control-allow-origin': '*' });
    done();
  });

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const header = req.headers.authorization;
    // The environment's key stands in only for a missing header, never for a malformed one.
    const token = header === undefined ? options.fallbackToken : apiKeyOfHeader(header);
    if (!token) return fail(reply, 401, 'Unauthorized', MISSING_TOKEN, { 'www-authenticate': 'Bearer realm="mcp"' });

    const baseUrl = options.apiBaseUrl();
    const body = typeof req.body === 'string' ? req.body : '';
    const json = parsedJson(body);
    const single = Array.isArray(json.value) ? undefined : (json.value as { id?: unknown } | undefined)?.id;
    // A batch counts as many requests as it holds; anything else (an unreadable body too) as one.
    const messages = Array.isArray(json.value) ? Math.max(1, json.value.length) : 1;
    if (messages > MAX_BATCH_MESSAGES) return jsonRpcFail(reply, 400, -32600, `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages`, null);
    const check = await admit(token, messages);
    if (!check.ok) {
      if (check.status === 401) return fail(reply, 401, check.error, check.message, { 'www-authenticate': 'Bearer realm="mcp", error="invalid_token"' });
      if (check.status === 429) return jsonRpcFail(reply, 429, RATE_LIMITED, check.message, single, { 'retry-after': String(check.retryAfterSeconds) });
      req.log.warn({ err: check.cause }, 'MCP: svc REST API unavailable for key verification');
      return fail(reply, 502, check.error, check.message);
    }

    const { McpServerPool, plainRequest, WebStandardStreamableHTTPServerTransport } = (engine ??= await loadEngine());
    // REST refusing a key mid-call (revoked since it was checked): check it afresh next time.
    const servers = (pool ??= new McpServerPool((baseUrl) => keyedClient(baseUrl, send, (token) => keys.forget(token))));
    const request = plainRequest({ headers: req.headers, body, json });
    if (request) {
      const answer = await servers.answer(baseUrl, token, request, () => ({ requestInfo: requestInfo(req) }));
      // The charset fastify would add to a JSON type without one, given here so it need not.
      return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(answer));
    }

    const response = await servers.serve(baseUrl, token, async (server) => {
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      const answer = await transport.handleRequest(webRequest(req, body));
      return { status: answer.status, headers: answer.headers, text: answer.body ? await answer.text() : undefined };
    });
    response.headers.forEach((value, name) => void reply.header(name, value));
    return reply.code(response.status).send(response.text);
  };

  for (const url of options.paths) {
    app.post(url, { bodyLimit: MAX_BODY_BYTES }, handle);
    app.options(url, async (_req, reply) => reply.code(204).headers(CORS_HEADERS).send());
    app.route({
      method: ['GET', 'DELETE', 'PUT', 'PATCH'],
      url,
      // Stateless: no server-initiated stream to GET and no session to DELETE.
      handler: async (_req, reply) => fail(reply, 405, 'Method not allowed', 'Only POST requests are accepted', { allow: 'POST, OPTIONS' }),
    });
  }
};

/** What tools may read of the request, worked out only if one reads it (none of svc's does). */
function requestInfo(req: FastifyRequest): RequestInfo {
  let headers: Record<string, string> | undefined;
  let url: URL | undefined;
  return {
    get headers() {
      return (headers ??= forwardedHeaders(req));
    },
    get url() {
      return (url ??= new URL(requestUrl(req)));
    },
  };
}

/** The request's headers that tools may see. */
function forwardedHeaders(req: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && !NOT_FORWARDED.has(name)) headers[name] = value;
  }
  return headers;
}

/** The fastify request as the web Request the SDK's transport takes (the body unparsed). */
function webRequest(req: FastifyRequest, body: string): Request {
  return new Request(requestUrl(req), { method: 'POST', headers: forwardedHeaders(req), body });
}

/** The URL the caller asked for (tools may read it); a Host that is no URL authority is left out. */
function requestUrl(req: FastifyRequest): string {
  try {
    return new URL(req.url, `http://${req.headers.host ?? 'localhost'}`).href;
  } catch {
    return new URL(req.url, 'http://localhost').href;
  }
}
