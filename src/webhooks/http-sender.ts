// POSTs a webhook delivery. The host is checked where it matters, when the connection is made:
// the agent's DNS lookup refuses every special-purpose address (loopback, private, metadata, NAT64…; unless
// insecure targets are allowed), so a name that resolves somewhere private today is caught even
// if it passed when the webhook was saved, and an address literal is checked before any connect.
// Redirects are never followed: a 3xx is a failed attempt.
//
// Per delivery it costs little beyond the request itself: connections to each receiver's origin
// are kept alive (undici's Agent keeps a pool per origin), so the lookup runs only when a
// connection is opened, and a name's vetted addresses are kept for LOOKUP_TTL_MS, so a receiver
// whose connections come and go is not resolved again for each one; each URL is parsed and judged
// once; attempts share their timeout timers (src/attempt-deadlines.ts). Requests are not pipelined:
// a POST is not idempotent, and a slow answer would hold up the deliveries queued behind it on
// its connection.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent } from 'undici';
import { isPublicAddress, specialRange, systemLookup, type HostLookup, type ResolvedAddress } from '../domain/webhooks/url-policy.ts';
import { AttemptDeadlines, type Expiring } from '../attempt-deadlines.ts';

export interface SendResult {
  statusCode: number | null;
  /** Why the attempt failed without an answer (or why the answer counts as a failure). */
  error: string | null;
  durationMs: number;
  responseHeaders: Record<string, string> | null;
  /** The first KiB of the receiver's answer. */
  responseBody: string | null;
}

export interface SenderOptions {
  allowInsecure: boolean;
  timeoutMs: number;
  /** Resolves host names; the system resolver by default (tests map names to loopback). */
  lookup?: HostLookup;
}

const RESPONSE_KEEP = 1024;
// Read at most this much of an answer so the connection can be reused, then give up on it.
const RESPONSE_DRAIN_MAX = 64 * 1024;

class NonPublicAddressError extends Error {
  code = 'ENONPUBLIC';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

// How long a name's vetted addresses are used for new connections before it is resolved again:
// short enough to follow a receiver that moves, long enough that connection churn costs no lookups.
const LOOKUP_TTL_MS = 30_000;
const LOOKUP_CACHE_MAX = 10_000;

/**
 * The addresses a name resolves to, vetted (none special-purpose unless insecure targets are
 * allowed), kept for LOOKUP_TTL_MS; lookups of one name at once share one resolution. Failures
 * are not kept. A connection goes to the address that was vetted, never to a fresh answer.
 */
function vettedLookup(options: SenderOptions): (hostname: string) => Promise<ResolvedAddress[]> {
  const resolve: HostLookup = options.lookup ?? systemLookup;
  const cache = new Map<string, { addresses: Promise<ResolvedAddress[]>; until: number }>();
  return (hostname) => {
    const now = performance.now();
    const hit = cache.get(hostname);
    if (hit && hit.until > now) return hit.addresses;
    if (cache.size >= LOOKUP_CACHE_MAX) cache.clear();
    const addresses = resolve(hostname).then((found) => {
      const bad = options.allowInsecure ? undefined : found.find((a) => !isPublicAddress(a.address));
      if (bad) throw new NonPublicAddressError(`${hostname} resolves to ${bad.address}, a non-public, special-purpose address (${specialRange(bad.address)})`);
      if (found.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
      return found;
    });
    const entry = { addresses, until: now + LOOKUP_TTL_MS };
    cache.set(hostname, entry);
    addresses.catch(() => {
      if (cache.get(hostname) === entry) cache.delete(hostname);
    });
    return addresses;
  };
}

/** The lookup undici's connector calls when it opens a connection. */
function guardedLookup(options: SenderOptions) {
  const lookup = vettedLookup(options);
  return (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    lookup(hostname).then(
      (addresses) => {
        if (lookupOptions.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

/** A webhook URL, parsed, and why it is refused before any connection, if it is. */
interface Target {
  origin: string;
  path: string;
  host: string;
  refusal: string | undefined;
}

const noAnswer = (error: string, durationMs = 0): SendResult => ({ statusCode: null, error, durationMs, responseHeaders: null, responseBody: null });

/**
 * One attempt, as undici's dispatcher hands it the answer: the status, the first KiB of the body
 * (read to its end so the connection can be reused, unless it runs past RESPONSE_DRAIN_MAX, when
 * the connection is given up), and the headers when asked. No response stream, no promise per
 * step: this runs for every delivery.
 */
class Attempt implements Expiring {
  statusCode: number | null = null;
  #rawHeaders: Buffer[] | null = null;
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #seen = 0;
  #abort: ((reason: Error) => void) | undefined;
  #expired: Error | undefined;
  #settled = false;

  constructor(
    private readonly keepHeaders: boolean,
    private readonly settle: (attempt: Attempt, err: Error | null) => void,
  ) {}

  get responseBody(): string {
    return Buffer.concat(this.#kept).toString('utf8');
  }

  get responseHeaders(): Record<string, string> | null {
    const raw = this.#rawHeaders;
    if (!raw) return null;
    const headers: Record<string, string> = {};
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i].toString('latin1').toLowerCase();
      const value = raw[i + 1].toString('latin1');
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    return headers;
  }

  expire(reason: Error): void {
    this.#expired = reason;
    this.#abort?.(reason);
  }

  // undici's dispatch handler.
  onConnect(abort: (reason: Error) => void): void {
    if (this.#expired) abort(this.#expired);
    else this.#abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // 1xx answers are interim; the final one follows.
    if (statusCode < 200) return true;
    this.statusCode = statusCode;
    if (this.keepHeaders) this.#rawHeaders = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#seen += chunk.length;
    if (this.#keptBytes < RESPONSE_KEEP) {
      const part = chunk.subarray(0, RESPONSE_KEEP - this.#keptBytes);
      this.#kept.push(part);
      this.#keptBytes += part.length;
    }
    if (this.#seen > RESPONSE_DRAIN_MAX) {
      // Enough: the answer counts as it stands, and the connection goes.
      this.#done(null);
      this.#abort?.(new Error('answer longer than the sender reads'));
      return false;
    }
    return true;
  }

  onComplete(): void {
    this.#done(null);
  }

  onError(err: Error): void {
    this.#done(err);
  }

  #done(err: Error | null): void {
    if (this.#settled) return;
    this.#settled = true;
    this.settle(this, err);
  }
}

export class WebhookSender {
  readonly #agent: Agent;
  readonly #deadlines: AttemptDeadlines;
  /** Webhook URLs repeat delivery after delivery: each is parsed and judged once (bounded, dropped whole when full). */
  readonly #targets = new Map<string, Target>();

  constructor(private readonly options: SenderOptions) {
    this.#agent = new Agent({
      connect: { lookup: guardedLookup(options) as never, timeout: options.timeoutMs },
      keepAliveTimeout: 30_000,
      connections: 64,
    });
    this.#deadlines = new AttemptDeadlines(options.timeoutMs);
  }

  /** POSTs `body`; the answer's headers are kept only when `keepHeaders` (a test send shows them, a delivery does not). */
  send(url: string, headers: Record<string, string>, body: string | Buffer, keepHeaders = true): Promise<SendResult> {
    return new Promise((resolve) => this.post(url, headers, body, keepHeaders, resolve));
  }

  /**
   * As send(), handing the result to `done` (always later, never within this call) rather than
   * to a promise: the delivery worker's way, with no promise per delivery. Throws only for a URL
   * that does not parse.
   */
  post(url: string, headers: Record<string, string>, body: string | Buffer, keepHeaders: boolean, done: (result: SendResult) => void): void {
    const started = performance.now();
    const target = this.#target(url);
    if (target.refusal) {
      const refused = noAnswer(target.refusal);
      return queueMicrotask(() => done(refused));
    }
    const attempt = new Attempt(keepHeaders, (a, err) => {
      this.#deadlines.end(a, deadline);
      const durationMs = Math.round(performance.now() - started);
      if (err) done(noAnswer(describeError(err, this.options.timeoutMs, target.host), durationMs));
      else done({ statusCode: a.statusCode, error: null, durationMs, responseHeaders: a.responseHeaders, responseBody: a.responseBody });
    });
    const deadline = this.#deadlines.start(attempt);
    this.#agent.dispatch({ origin: target.origin, path: target.path, method: 'POST', headers, body, headersTimeout: this.options.timeoutMs, bodyTimeout: this.options.timeoutMs }, attempt);
  }

  #target(url: string): Target {
    let t = this.#targets.get(url);
    if (!t) {
      if (this.#targets.size >= 10_000) this.#targets.clear();
      const parsed = new URL(url);
      const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
      let refusal: string | undefined;
      if (!this.options.allowInsecure) {
        // Literal addresses never reach the lookup, so they are checked here.
        if (isIP(host) !== 0 && !isPublicAddress(host)) refusal = `refused: ${host} is a non-public, special-purpose address (${specialRange(host)})`;
        else if (parsed.protocol !== 'https:') refusal = 'refused: plain http is not allowed';
      }
      t = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}`, host, refusal };
      this.#targets.set(url, t);
    }
    return t;
  }

  async close(): Promise<void> {
    this.#deadlines.close();
    await this.#agent.close();
  }
}

const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME']);
const RESOLVER_TROUBLE = new Set(['EAI_AGAIN', 'ETIMEOUT', 'ESERVFAIL', 'EREFUSED']);

function describeError(err: unknown, timeoutMs: number, host: string): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `timed out after ${timeoutMs} ms`;
  }
  if (code === 'ENONPUBLIC') return `refused: ${e.message ?? e.cause?.message}`;
  if (code && NO_SUCH_NAME.has(code)) return `the host name ${host} did not resolve to any address (${code})`;
  if (code && RESOLVER_TROUBLE.has(code)) return `the host name ${host} could not be resolved right now (${code})`;
  return `${code ?? 'error'}: ${e.message ?? e.cause?.message ?? String(err)}`;
}
