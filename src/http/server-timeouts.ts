// How long a client may take to send a request. Without bounds, a client trickling its body a
// byte at a time holds a connection (and a parser) open for as long as it likes.
import type { ServerOptions } from 'node:http';
import { DEFAULT_HTTP_TIMEOUTS } from '../config/index.ts';

export interface HttpTimeouts {
  /** From connecting (or the previous response) to the end of the request headers. */
  headersMs: number;
  /** From connecting to the end of the whole request, body included. */
  requestMs: number;
}

/** fastify server options enforcing `timeouts`; a late client gets 408 (see clientErrorHandler). */
export function timeoutOptions(timeouts: HttpTimeouts = DEFAULT_HTTP_TIMEOUTS): { requestTimeout: number; http: ServerOptions } {
  const requestMs = Math.max(timeouts.requestMs, timeouts.headersMs);
  return {
    // fastify copies requestTimeout onto the server after creating it, overriding http.requestTimeout.
    requestTimeout: requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: requestMs,
      // node checks these timeouts on this interval (30 s by default), so a timeout could run late
      // by up to that much: check often enough that a bound means what it says.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersMs / 4))),
    },
  };
}
