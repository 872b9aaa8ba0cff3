// A fetch that hands requests to svc's own fastify app in memory (app.inject): the MCP server
// mounted in svc serve reaches the REST API without a TCP round trip, yet through the same hooks,
// authentication, rate limits and serialisation as any client.
import type { FastifyInstance } from 'fastify';

/** Statuses without a body, which `new Response` refuses one for. */
const NULL_BODY = new Set([101, 204, 205, 304]);

export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = { ...Object.fromEntries(request.headers), host: url.host };
    const res = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      payload: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
      signal: request.signal,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(v));
    }
    return new Response(NULL_BODY.has(res.statusCode) ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: responseHeaders });
  };
}
