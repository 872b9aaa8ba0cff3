// The fetch the SDK sends every request through: a timeout per attempt, and retries of reads
// (GET, HEAD) on 429, 5xx and network failures, waiting as long as Retry-After asks when it is
// within the cap. Writes are sent once: a POST that timed out may have been carried out.
import { ConnectionError } from './errors.ts';

export interface TransportOptions {
  /** Each attempt's limit, in milliseconds, from sending the request to the last byte of the body. */
  timeoutMs: number;
  /** Further attempts of a GET or HEAD after the first fails in a way worth retrying. */
  maxRetries: number;
  /**
   * The longest wait before a retry, in milliseconds. A 429 or 503 whose Retry-After asks for
   * longer is not retried: the error reaches the caller at once, with the wait it asked for.
   */
  maxRetryDelayMs: number;
  /** The fetch to send with (the global one unless given). */
  fetch: typeof fetch;
  /** How to wait between attempts (tests pass one that records the waits). */
  sleep: (ms: number) => Promise<void>;
}

const IDEMPOTENT = new Set(['GET', 'HEAD']);
/** Statuses without a body, which `new Response` refuses one for. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A Response whose whole body was in memory when it was made (an in-process fetch, such as svc
 * serve's own MCP server handing requests to its app): the transport returns it as it is rather
 * than reading and copying the body under the attempt's timeout, as it does for a network answer.
 */
export class BufferedResponse extends Response {
  constructor(body: BodyInit | null, init: ResponseInit) {
    super(body !== null && NULL_BODY.has(init.status ?? 200) ? null : body, init);
  }
}

/** A request as an in-process send takes it: no web Request, the body already JSON text. */
export interface PlainRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** An answer made in memory, its body already parsed as JSON (undefined when empty or not JSON). */
export interface ParsedAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export type InProcessSend = (request: PlainRequest) => Promise<ParsedAnswer>;

const IN_PROCESS = Symbol.for('svc.sdk.inProcessSend');
type WithInProcess = typeof fetch & { [IN_PROCESS]?: InProcessSend };

/**
 * Internal fast path, for svc serve's MCP server calling its own app (src/main/inject-fetch.ts):
 * `fetch` still works as any fetch (the raw client uses it), and SvcClient's methods use `send`
 * instead, so no web Request, Response, body text or timer is made for an answer that is in
 * memory already. A client given any other fetch goes over the network exactly as before.
 */
export function withInProcessSend(fetch: typeof globalThis.fetch, send: InProcessSend): typeof globalThis.fetch {
  return Object.assign((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init), { [IN_PROCESS]: send });
}

/** The in-process send a fetch carries (withInProcessSend), if it does. */
export function inProcessSendOf(fetch: typeof globalThis.fetch): InProcessSend | undefined {
  return (fetch as WithInProcess)[IN_PROCESS];
}

/** A header of a ParsedAnswer, as Headers.get would give it. */
export function headerOf(headers: ParsedAnswer['headers'], name: string): string | null {
  const value = headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds (or an HTTP date) of a Retry-After header, as milliseconds from `now`. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff from half a second, with ±25% jitter so clients do not retry in step. */
const backoffMs = (attempt: number) => 500 * 2 ** attempt * (0.75 + Math.random() * 0.5);

const worthRetrying = (status: number) => status === 429 || status >= 500;

export function retryingFetch(options: TransportOptions): (request: Request) => Promise<Response> {
  return (request) =>
    retrying(options, request.method, request.url, request.signal, () => attemptOnce(options, request), (response) => response.headers.get('retry-after'));
}

/**
 * The same retries for an in-process send (InProcessSend). No timer bounds an attempt: nothing
 * waits on a network, and the app answering in memory bounds its own work; the caller's signal
 * still reaches it.
 */
export function retryingSend(options: TransportOptions, send: InProcessSend): InProcessSend {
  return (request) => retrying(options, request.method, request.url, request.signal, () => send(request), (answer) => headerOf(answer.headers, 'retry-after'));
}

async function retrying<T extends { status: number }>(
  options: TransportOptions,
  method: string,
  url: string,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
  retryAfter: (answer: T) => string | null,
): Promise<T> {
  const retries = IDEMPOTENT.has(method) ? options.maxRetries : 0;
  for (let n = 0; ; n++) {
    let answer: T;
    try {
      answer = await attempt();
    } catch (err) {
      if (signal?.aborted) throw err; // the caller gave up: not ours to retry
      const wait = backoffMs(n);
      if (n < retries && wait <= options.maxRetryDelayMs) {
        await options.sleep(wait);
        continue;
      }
      const timedOut = (err as Error).name === 'TimeoutError';
      const why = timedOut ? `no answer within ${options.timeoutMs} ms` : ((err as Error & { cause?: Error }).cause?.message ?? (err as Error).message);
      throw new ConnectionError(`${method} ${url}: ${why}`, 0, [], undefined, { cause: err });
    }
    if (n >= retries || !worthRetrying(answer.status)) return answer;
    const asked = retryAfterMs(retryAfter(answer));
    const wait = asked ?? backoffMs(n);
    if (wait > options.maxRetryDelayMs) return answer;
    await options.sleep(wait);
  }
}

/**
 * One attempt, body included, under the attempt's timeout and the caller's own signal. Two ways
 * of writing this lose the timeout to the garbage collector, and the attempt then never ends
 * (test/sdk/transport.test.ts forces a collection to show it): an `AbortSignal.timeout` combined
 * through `AbortSignal.any` (Node 20), and a signal given to `new Request` rather than to fetch
 * itself (Node 20 to 24). So the timer holds the attempt's controller, and fetch is given its signal.
 */
async function attemptOnce(options: TransportOptions, request: Request): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${options.timeoutMs} ms`, 'TimeoutError')), options.timeoutMs);
  const forward = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) forward();
  else request.signal.addEventListener('abort', forward, { once: true });
  try {
    // A body is read by sending it, so each attempt sends a copy; a request without one is sent as it is.
    const response = await options.fetch(request.body === null ? request : request.clone(), { signal: controller.signal });
    // An answer already in memory (BufferedResponse) has no body left to wait for.
    if (response instanceof BufferedResponse) return response;
    const body = NULL_BODY.has(response.status) ? null : await response.arrayBuffer();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', forward);
  }
}
