// One HTTP exchange with a carrier (or terminal) endpoint. The timeout covers the whole
// exchange, body included, so a server that trickles bytes cannot hold a worker; exchanges share
// their timers (AttemptDeadlines) and end by an EventEmitter's 'abort', which undici's request()
// takes as its signal: an AbortSignal.timeout of their own (a timer, an EventTarget and undici's
// listeners on it) cost a lookup that found nothing new a fifth to a quarter of its client CPU.
// Redirects are refused: following one would send the API key wherever the carrier (or an
// attacker on its path) points us. Sent with undici's request(), which costs a fraction of fetch's
// CPU per exchange (no WHATWG Request, Response and streams around each one); a fetch given in the
// settings (a test's, a proxy's) is used instead.
import { EventEmitter } from 'node:events';
import { request } from 'undici';
import { AttemptDeadlines, type Expiring } from '../../attempt-deadlines.ts';
import { DcsaHttpError, DcsaUnreachableError, UnrecognizedResponseError } from './errors.ts';

export interface HttpSettings {
  fetch?: typeof fetch;
  timeoutMs: number;
}

export interface HttpAnswer {
  status: number;
  headers: Pick<Headers, 'get'>;
  body: string;
}

type Init = { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };

/** An exchange under way, as undici's request() takes a signal: it emits 'abort' when its deadline expires it. */
class Exchange extends EventEmitter implements Expiring {
  aborted = false;
  reason: Error | undefined;

  expire(reason: Error): void {
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** The shared deadlines of the exchanges with each timeout (carriers' timeouts are few). */
const deadlinesByTimeout = new Map<number, AttemptDeadlines>();

export async function exchange(settings: HttpSettings, url: URL, init: Init): Promise<HttpAnswer> {
  let deadlines = deadlinesByTimeout.get(settings.timeoutMs);
  if (!deadlines) deadlinesByTimeout.set(settings.timeoutMs, (deadlines = new AttemptDeadlines(settings.timeoutMs)));
  const under = new Exchange();
  const slice = deadlines.start(under);
  let answer: HttpAnswer;
  try {
    answer = settings.fetch ? await viaFetch(settings.fetch, url, init, under) : await viaRequest(url, init, under);
  } catch (error) {
    if (under.aborted) throw new DcsaUnreachableError(`${init.method} ${url.origin}${url.pathname}: no answer within ${settings.timeoutMs} ms`);
    throw new DcsaUnreachableError(`${init.method} ${url.origin}${url.pathname}: ${describe(error)}`, { cause: error });
  } finally {
    deadlines.end(under, slice);
  }
  if (answer.status >= 300 && answer.status < 400) throw new DcsaUnreachableError(`${init.method} ${url.origin}${url.pathname}: redirect refused (HTTP ${answer.status})`);
  return answer;
}

async function viaFetch(fetch: typeof globalThis.fetch, url: URL, init: Init, under: Exchange): Promise<HttpAnswer> {
  // fetch wants an AbortSignal: this path serves a test's or a proxy's fetch, not svc's own lookups.
  const controller = new AbortController();
  under.once('abort', () => controller.abort(under.reason));
  const response = await fetch(url, { ...init, signal: controller.signal, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

async function viaRequest(url: URL, init: Init, under: Exchange): Promise<HttpAnswer> {
  // undici's request follows no redirect: a 3xx comes back as it is.
  const response = await request(url, { method: init.method, headers: init.headers, body: init.body, signal: under });
  const raw = response.headers;
  const headers = {
    get(name: string): string | null {
      const value = raw[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
  return { status: response.statusCode, headers, body: await response.body.text() };
}

/** The JSON body of a 2xx answer; anything else becomes the matching typed error. */
export function jsonBody(answer: HttpAnswer): unknown {
  if (answer.status < 200 || answer.status > 299) throw new DcsaHttpError(answer.status, excerpt(answer.body));
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new UnrecognizedResponseError(`HTTP ${answer.status} body is not JSON: ${JSON.stringify(excerpt(answer.body))}`);
  }
}

function excerpt(body: string): string {
  return body.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** undici's fetch reports "fetch failed" and hides the useful part (ECONNREFUSED) in the cause. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const detail = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : cause?.message;
  return detail ? `${error.message} (${detail})` : error.message;
}
