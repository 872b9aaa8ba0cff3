// The MCP server's roles: mounted in svc serve beside the REST API (/mcp, /api/mcp), alone as
// `svc mcp` on its own port for any svc (SVC_API_BASE_URL), or `svc mcp --stdio` for a desktop
// assistant that starts it.
import Fastify, { type FastifyInstance } from 'fastify';
import { apiBaseUrl, type Config } from '../config/index.ts';
import { timeoutOptions } from '../http/server-timeouts.ts';
import { keyRequestsOf } from '../http/auth.ts';
import { LIMITS, WINDOW_MS } from '../http/rate-limit.ts';
import { ApiError } from '../jsonapi/errors.ts';
import { INVALID_TOKEN, type KeyCache } from '../mcp/auth.ts';
import { mcpHttp, overLimit, type Admission } from '../mcp/http.ts';
import { injectFetch } from './inject-fetch.ts';
import { createLogger, say } from './logger.ts';
import { listenFailure, StartError } from './start-errors.ts';
import { endConnectionsAfterLastAnswer } from '../http/draining.ts';

export type McpSettings = Pick<Config, 'SVC_API_BASE_URL' | 'SVC_API_TOKEN' | 'SVC_MCP_ALLOWED_HOSTS' | 'SVC_MCP_ALLOWED_ORIGINS'>;

/** What the MCP plugin reads from the configuration, wherever it is mounted. */
const pluginSettings = (config: McpSettings, boundHost: string) => ({
  boundHost,
  allowedHosts: config.SVC_MCP_ALLOWED_HOSTS,
  allowedOrigins: config.SVC_MCP_ALLOWED_ORIGINS,
  fallbackToken: config.SVC_API_TOKEN,
  limit: { max: LIMITS.default.limit, windowMs: WINDOW_MS },
});

/**
 * MCP messages counted by `app`'s own limiter in the default bucket, the key read with each count
 * (so a revoked key is refused at once): REST and MCP share one budget. The REST calls a tool
 * then makes count as well, as any client's do.
 */
function countedByApp(app: FastifyInstance): Admission | undefined {
  const count = keyRequestsOf(app);
  if (!count) return undefined;
  return async (token, messages) => {
    try {
      await count(token, messages);
      return { ok: true };
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return { ok: false, status: 401, error: 'Unauthorized', message: INVALID_TOKEN };
      if (err instanceof ApiError && err.status === 429) return overLimit(LIMITS.default.limit, Number(err.headers['retry-after']) * 1000, err.errors[0]?.detail);
      // The database away, as REST would answer 503: the key could not be checked.
      return { ok: false, status: 502, error: 'Bad Gateway', message: 'svc could not check the API key (its database did not answer); try again shortly.', cause: err };
    }
  };
}

/**
 * MCP at /mcp and /api/mcp of svc's own app, before it listens. Without SVC_API_BASE_URL the
 * SDK's requests go into the app in memory (injectFetch), addressed as `localBase()` (its
 * listening /v2 address, which links in answers name).
 */
export function mountMcp(app: FastifyInstance, config: McpSettings, boundHost: string, localBase: () => string, keys?: KeyCache) {
  return app.register(mcpHttp, {
    ...pluginSettings(config, boundHost),
    paths: ['/mcp', '/api/mcp'],
    apiBaseUrl: () => config.SVC_API_BASE_URL ?? localBase(),
    ...(config.SVC_API_BASE_URL ? {} : { fetch: injectFetch(app, { readsAsData: true }), admit: countedByApp(app) }),
    ...(keys ? { keys } : {}),
  });
}

/** `svc mcp [--stdio]`. */
export async function runMcp(config: Config, stdio: boolean): Promise<void> {
  const restBase = apiBaseUrl(config);
  // A failure nobody awaited is said and survived: one caller's bad request must not end the server.
  process.on('unhandledRejection', (err) => say(`unexpected failure (continuing): ${err instanceof Error ? err.message : String(err)}`));
  if (stdio) {
    if (!config.SVC_API_TOKEN) throw new StartError('svc mcp --stdio needs SVC_API_TOKEN, the API key its tools use (create one with: npx svc keys create)');
    // Here only: the stdio server loads the MCP SDK and tools, which svc serve loads at the first MCP request.
    const { serveStdio } = await import('../mcp/stdio.ts');
    const server = await serveStdio({ apiBaseUrl: restBase, token: config.SVC_API_TOKEN, say }).catch((err: unknown) => {
      throw new StartError((err as Error).message);
    });
    const stop = () => void server.close().finally(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return;
  }

  const app = Fastify({
    loggerInstance: createLogger(config.SVC_LOG_LEVEL),
    bodyLimit: 1024 * 1024,
    ...timeoutOptions({ headersMs: config.SVC_HTTP_HEADERS_TIMEOUT_MS, requestMs: config.SVC_HTTP_REQUEST_TIMEOUT_MS }),
  });
  endConnectionsAfterLastAnswer(app);
  await app.register(mcpHttp, { ...pluginSettings(config, config.SVC_MCP_HOST), paths: ['/', '/mcp', '/api/mcp'], apiBaseUrl: () => restBase });
  app.setNotFoundHandler(async (req, reply) => reply.code(404).send({ error: 'Not Found', message: `No route ${req.method} ${req.url.split('?')[0]}; MCP answers POST /mcp.` }));
  await app.listen({ port: config.SVC_MCP_PORT, host: config.SVC_MCP_HOST }).catch((err: unknown) => {
    throw listenFailure(err, config.SVC_MCP_HOST, config.SVC_MCP_PORT, { port: 'SVC_MCP_PORT', host: 'SVC_MCP_HOST' });
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.SVC_MCP_PORT;
  const host = config.SVC_MCP_HOST.includes(':') ? `[${config.SVC_MCP_HOST}]` : config.SVC_MCP_HOST;
  say(`MCP server on http://${host}:${port}/mcp (also /api/mcp and /), REST API ${restBase}${config.SVC_API_TOKEN ? '; requests without Authorization use SVC_API_TOKEN' : ''}`);
  const stop = () => void app.close().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
