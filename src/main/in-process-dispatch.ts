// A request without a body handed to svc's fastify app in memory, for the MCP server's REST calls
// (inject-fetch.ts). app.inject (light-my-request) simulates a whole HTTP exchange: a readable
// request stream, a real ServerResponse writing its head into a string on a null socket, three
// regular expressions to read that head back, the body gathered in Buffers. That was a sixth of
// what an MCP tool call costs beyond the REST call behind it. Here the request is the few fields
// fastify reads and the response keeps the status, headers and text it is given; the request
// still runs through the app's router, hooks (authentication, rate limits, metrics), handler,
// serialisation and error handling as any other. A request with a body still goes by app.inject,
// whose stream fastify's body parsers read.
//
// A request may also ask for its JSON body as data (`asData`): the object the route answered
// with, once every hook but serialisation has run on it, rather than JSON text the caller would
// parse straight back. That is given only when the object is plain JSON data (json-data.ts), so
// the caller reads what parsing the text would have given; anything else comes as text.
import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { presetError } from '../http/in-process-reads.ts';
import { isJsonData } from './json-data.ts';

export interface DispatchRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** The JSON body wanted as data (see above); the app must have been prepared by answerAsData. */
  asData?: boolean;
  /** An error the route is to raise at once (src/http/in-process-reads.ts: a read that failed in process). */
  presetError?: { err: unknown };
}

export interface Dispatched {
  status: number;
  /** Lower-case names; values as text, as app.inject gives them. */
  headers: Record<string, string | string[]>;
  /** Empty when the body came as `data`. */
  payload: string;
  /** With asData: the JSON body as the route answered it, when it was plain JSON data. Only to be read. */
  data?: unknown;
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
    readonly asData: boolean,
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
  /** The body as data, set by answerAsData's hook in place of its text. */
  data?: unknown;
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

  private carriesBody(): boolean {
    return !this.bodiless && this.statusCode !== 204 && this.statusCode !== 304;
  }

  write(chunk: string | Uint8Array | null, encoding?: BufferEncoding | (() => void), done?: () => void): boolean {
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (chunk && this.carriesBody()) {
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
    const answer: Dispatched = { status: this.statusCode, headers: textHeaders(this.fields), payload: this.body };
    if (this.data !== undefined && this.carriesBody()) answer.data = this.data;
    this.settle(undefined, answer);
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

const preparedForData = new WeakSet<FastifyInstance>();

/**
 * Lets dispatch's requests take their JSON body as data (DispatchRequest.asData): a hook, run
 * after the app's own, that keeps a plain JSON body aside and has the reply serialise nothing.
 * Must be called before the app is ready, and before any plugin whose routes should answer so
 * is registered (a plugin takes the hooks its parent has when it is registered).
 */
export function answerAsData(app: FastifyInstance): void {
  if (preparedForData.has(app)) return;
  preparedForData.add(app);
  app.addHook('preSerialization', (req, reply, payload, done) => {
    const raw: unknown = req.raw;
    const data = raw instanceof MemoryRequest && raw.asData ? asJsonData(payload) : undefined;
    if (data !== undefined) {
      (reply.raw as unknown as MemoryResponse).data = data;
      reply.serializer(() => '');
    }
    done(null, payload);
  });
}

/**
 * `body` as parsing its JSON text would give it, or undefined when that is not `body` itself:
 * plain JSON data, but for undefined members of the document itself, which JSON leaves out and
 * which are left out here too (read routes answer `included: undefined` when nothing was asked
 * to be included). An undefined member further in is not worth a copy: the body then comes as text.
 */
export function asJsonData(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.getPrototypeOf(body) !== Object.prototype) return isJsonData(body) ? body : undefined;
  const members = body as Record<string, unknown>;
  let defined = true;
  for (const name in members) {
    const value = members[name];
    if (value === undefined) defined = false;
    else if (name === 'toJSON' || !isJsonData(value, 1)) return undefined;
  }
  if (defined) return body;
  const copy: Record<string, unknown> = {};
  for (const name in members) if (members[name] !== undefined) copy[name] = members[name];
  return copy;
}

/** `request` answered by `app`, which must be listening (its router is built then). */
export function dispatch(app: FastifyInstance, { method, url, headers, signal, asData = false, presetError: preset }: DispatchRequest): Promise<Dispatched> {
  return new Promise((resolve, reject) => {
    let settled = false;
    // An HTTP server hands fastify lower-case header names.
    const names: Record<string, string> = {};
    for (const name of Object.keys(headers)) names[name.toLowerCase()] = headers[name];
    const req = new MemoryRequest(method, url, names, asData);
    if (preset) presetError(req, preset.err);
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
