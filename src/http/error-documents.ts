// Every error svc answers is a JSON:API document that names its request, so a client quoting the
// body quotes the id found in svc's log lines (fastify's reqId) and in the X-Request-Id header.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorObject, type ErrorObject } from '../jsonapi/errors.ts';
import { JSONAPI } from './route.ts';

/** A request's id: the caller's own (for tracing across services) when it looks like one, else a new one. */
export function requestIdOf(headers: Record<string, string | string[] | undefined>): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

/** Each error object's meta carries the request id (the reference's error model has a free meta). */
export function withRequestId(errors: ErrorObject[], requestId: string): ErrorObject[] {
  return errors.map((e) => ({ ...e, meta: { ...e.meta, request_id: requestId } }));
}

/**
 * preSerialization hook: error documents, wherever they were built (error handler, not-found
 * handler, frameworkErrors), get the request id at the one place they all pass. Callback style:
 * every response passes here, and an async hook would cost each a promise.
 */
export function stampRequestId(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  done(null, reply.statusCode < 400 || !isErrorDocument(payload) ? payload : { ...payload, errors: withRequestId(payload.errors, req.id) });
}

function isErrorDocument(payload: unknown): payload is { errors: ErrorObject[] } {
  return typeof payload === 'object' && payload !== null && Array.isArray((payload as { errors?: unknown }).errors);
}

// Errors node's HTTP parser raises before there is a request: what to answer and why, in plain words.
const CLIENT_ERRORS: Record<string, { status: number; detail: string; code: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'The request (headers and body) did not arrive in time.', code: 'request_timeout' },
  HPE_HEADER_OVERFLOW: { status: 431, detail: `The request headers are larger than the server accepts (${maxHeaderSize} bytes in all).`, code: 'headers_too_large' },
};
const MALFORMED = { status: 400, detail: 'The request is not well-formed HTTP/1.1.', code: 'malformed_request' };

/**
 * fastify's clientErrorHandler: a JSON:API answer to what never became a request (a timeout,
 * oversized headers, malformed HTTP), written to the socket, which is then closed. There is no
 * request id yet, so one is made here and used in the body, the header and the log line alike.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, detail, code } = CLIENT_ERRORS[err.code ?? ''] ?? MALFORMED;
  const requestId = randomUUID();
  this.log.info({ reqId: requestId, err: { code: err.code, message: err.message }, statusCode: status }, 'request refused before routing');
  // A response already under way cannot be followed by another one on the same connection.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ errors: withRequestId([errorObject(status, { detail, code })], requestId) });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSONAPI}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
