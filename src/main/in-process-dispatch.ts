// A request without a body handed to svc's fastify app in memory, for the MCP server's REST calls
// (inject-fetch.ts). app.inject (light-my-request) simulates a whole HTTP exchange: a readable
// request stream, a real ServerResponse writing its head into a string on a null socket, three
// regular expressions to read that head back, the body gathered in Buffers. That was a sixth of
// what an MCP tool call costs beyond the REST call behind it. Here the request is the few fields
// fastify reads and the response keeps the status, headers and text it is given; the request
// still runs through the app's router, hooks (authentication, rate limits, metrics), handler,
// serialisation and error handling as any other. A request with a body still goes by app.inject,
// whose stream fastify's body parsers read.
import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';

export interface DispatchRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  signal?: AbortSignal;
}

export interface Dispatched {
  status: number;
  /** Lower-case names; values as text, as app.inject gives them. */
  headers: Record<string, string | string[]>;
  payload: string;
}

/** The connection fastify asks a request for: loopback, plain HTTP, open. */
class MemorySocket extends EventEmitter {
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 0;
  readonly encrypted = false;
  destroyed = false;
}

/** What fastify reads of an http.IncomingMessage that has no body. */
class MemoryRequest extends EventEmitter {
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly httpVersion = '1.1';
  readonly complete = true;
  aborted = false;
  readonly socket = new MemorySocket();
  constructor(
    readonly method: string,
    public url: string,
    readonly headers: Record<string, string>,
  ) {
    super();
  }

  get connection(): MemorySocket {
    return this.socket;
  }

  resume(): this {
    return this;
  }

  destroy(): this {
    this.socket.destroyed = true;
    return this;
  }
}

/** What fastify writes to an http.ServerResponse, kept: status, headers and the body as text. */
class MemoryResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  destroyed = false;
  private readonly fields: Record<string, string | number | string[]> = {};
  private body = '';
  /** HEAD answers, 204 and 304 carry no body, as an HTTP server would send none. */
  private readonly bodiless: boolean;

  constructor(
    readonly req: MemoryRequest,
    private readonly settle: (err: Error | undefined, answer?: Dispatched) => void,
  ) {
    super();
    this.bodiless = req.method === 'HEAD';
  }

  get socket(): MemorySocket {
    return this.req.socket;
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.fields[name.toLowerCase()] = Array.isArray(value) ? [...value] : (value as string | number);
    return this;
  }

  getHeader(name: string) {
    return this.fields[name.toLowerCase()];
  }

  getHeaders() {
    return { ...this.fields };
  }

  getHeaderNames(): string[] {
    return Object.keys(this.fields);
  }

  hasHeader(name: string): boolean {
    return name.toLowerCase() in this.fields;
  }

  removeHeader(name: string): void {
    delete this.fields[name.toLowerCase()];
  }

  writeHead(status: number, reason?: string | Record<string, string | number | string[]>, headers?: Record<string, string | number | string[]>): this {
    const given = typeof reason === 'string' ? headers : reason;
    if (typeof reason === 'string') this.statusMessage = reason;
    this.statusCode = status;
    if (given) for (const name of Object.keys(given)) this.setHeader(name, given[name]);
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array | null, encoding?: BufferEncoding | (() => void), done?: () => void): boolean {
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (chunk && !this.bodiless && this.statusCode !== 204 && this.statusCode !== 304) {
      this.body += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
    }
    (typeof encoding === 'function' ? encoding : done)?.();
    return true;
  }

  end(chunk?: string | Uint8Array | null | (() => void), encoding?: BufferEncoding | (() => void), done?: () => void): this {
    if (this.writableEnded) return this;
    if (typeof chunk === 'function') [done, chunk] = [chunk, undefined];
    else if (typeof encoding === 'function') [done, encoding] = [encoding, undefined];
    this.write(chunk ?? null, encoding);
    this.writableEnded = true;
    this.writableFinished = true;
    this.emit('finish');
    done?.();
    this.settle(undefined, { status: this.statusCode, headers: textHeaders(this.fields), payload: this.body });
    this.destroy();
    return this;
  }

  destroy(err?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (err) this.emit('error', err);
    if (!this.writableEnded) this.settle(err ?? Object.assign(new Error('response destroyed before completion'), { code: 'LIGHT_ECONNRESET' }));
    this.emit('close');
    return this;
  }
}

/** Header values as text (an HTTP client reads them so), lists kept as lists. */
function textHeaders(fields: Record<string, string | number | string[]>): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    headers[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return headers;
}

/** `request` answered by `app`, which must be listening (its router is built then). */
export function dispatch(app: FastifyInstance, { method, url, headers, signal }: DispatchRequest): Promise<Dispatched> {
  return new Promise((resolve, reject) => {
    let settled = false;
    // An HTTP server hands fastify lower-case header names.
    const names: Record<string, string> = {};
    for (const name of Object.keys(headers)) names[name.toLowerCase()] = headers[name];
    const req = new MemoryRequest(method, url, names);
    const abort = () => {
      req.aborted = true;
      req.destroy();
      req.emit('close');
      settle(signal?.reason ?? new Error('aborted'));
    };
    const settle = (err: Error | undefined, answer?: Dispatched) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      if (err) reject(err);
      else resolve(answer!);
    };
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    const res = new MemoryResponse(req, settle);
    res.on('error', () => {}); // reported through settle; an 'error' event without a listener would throw
    app.routing(req as never, res as never);
  });
}
