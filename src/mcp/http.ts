// MCP over streamable HTTP, as a fastify plugin: svc serve mounts it beside the REST API and
// svc mcp runs it alone. Stateless: every POST is lent a pooled McpServer, with an SDK client
// carrying the caller's key, so any replica can answer any request and nothing is kept between
// requests but the short memory of keys REST accepted (auth.ts). A plain request (one JSON-RPC
// request, headers as the transport wants them) goes straight to a server kept connected to a
// DirectTransport; anything else to the SDK's web-standard transport, which answers it its own way.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestInfo } from '@modelcontextprotocol/sdk/types.js';
import { apiKeyOfHeader } from '../domain/api-key-header.ts';
import { KeyCache, MISSING_TOKEN, type KeyCheck } from './auth.ts';
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
  /** Keys REST accepted recently (a new cache of 30 s unless given). */
  keys?: KeyCache;
}

const CORS_HEADERS = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'access-control-expose-headers': 'Mcp-Session-Id, WWW-Authenticate, Retry-After',
  'access-control-max-age': '86400',
};

const ACCEPTED: KeyCheck = { ok: true };

// Headers the SDK's transport has no use for; the key above all stays out of the tools' reach.
const NOT_FORWARDED = new Set(['authorization', 'cookie', 'host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive']);

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

  // The transport reads the body itself, to answer bad JSON and media types the JSON-RPC way.
  // application/json is named as well as '*': fastify remembers which parser a Content-Type
  // takes only for a named one, and works out the catch-all afresh for every request.
  app.removeAllContentTypeParsers();
  const asText = (_req: FastifyRequest, body: string | Buffer, done: (err: null, body: string | Buffer) => void) => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, asText);
  app.addContentTypeParser('*', { parseAs: 'string' }, asText);

  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return fail(reply, status, 'Bad Request', err.message);
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
    // A key REST accepted moments ago (the common case) is taken without a trip through check's promise.
    const check = keys.has(token) ? ACCEPTED : await keys.check(token, () => restClient(baseUrl, token, send));
    if (!check.ok) {
      if (check.status === 401) return fail(reply, 401, check.error, check.message, { 'www-authenticate': 'Bearer realm="mcp", error="invalid_token"' });
      if (check.status === 429) return fail(reply, 429, check.error, check.message, { 'retry-after': String(check.retryAfterSeconds) });
      req.log.warn({ err: check.cause }, 'MCP: svc REST API unavailable for key verification');
      return fail(reply, 502, check.error, check.message);
    }

    const { McpServerPool, plainRequest, WebStandardStreamableHTTPServerTransport } = (engine ??= await loadEngine());
    // REST refusing a key mid-call (revoked since it was checked): check it afresh next time.
    const servers = (pool ??= new McpServerPool((baseUrl) => keyedClient(baseUrl, send, (token) => keys.forget(token))));
    const body = typeof req.body === 'string' ? req.body : '';
    const request = plainRequest({ headers: req.headers, body });
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
    app.post(url, handle);
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
