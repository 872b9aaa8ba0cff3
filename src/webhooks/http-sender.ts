// POSTs a webhook delivery. The host is checked where it matters, when the connection is made:
// the agent's DNS lookup refuses every special-purpose address (loopback, private, metadata, NAT64…; unless
// insecure targets are allowed), so a name that resolves somewhere private today is caught even
// if it passed when the webhook was saved, and an address literal is checked before any connect.
// Redirects are never followed: a 3xx is a failed attempt.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { isPublicAddress, specialRange, systemLookup, type HostLookup } from '../domain/webhooks/url-policy.ts';

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

function guardedLookup(options: SenderOptions) {
  const resolve: HostLookup = options.lookup ?? systemLookup;
  return (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    resolve(hostname).then(
      (addresses) => {
        const bad = options.allowInsecure ? undefined : addresses.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(new NonPublicAddressError(`${hostname} resolves to ${bad.address}, a non-public, special-purpose address (${specialRange(bad.address)})`), '');
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (lookupOptions.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

export class WebhookSender {
  readonly #agent: Agent;

  constructor(private readonly options: SenderOptions) {
    this.#agent = new Agent({
      connect: { lookup: guardedLookup(options) as never, timeout: options.timeoutMs },
      keepAliveTimeout: 30_000,
      connections: 64,
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const { target, host } = parsedTarget(url);
    if (!this.options.allowInsecure) {
      // Literal addresses never reach the lookup, so they are checked here.
      if (isIP(host) !== 0 && !isPublicAddress(host)) return { statusCode: null, error: `refused: ${host} is a non-public, special-purpose address (${specialRange(host)})`, durationMs: 0, responseHeaders: null, responseBody: null };
      if (target.protocol !== 'https:') return { statusCode: null, error: 'refused: plain http is not allowed', durationMs: 0, responseHeaders: null, responseBody: null };
    }
    // One timer for the whole attempt (AbortSignal.timeout costs more per request: it is built to
    // be collected unreferenced).
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new DOMException('the attempt timed out', 'TimeoutError')), this.options.timeoutMs);
    try {
      const res = await request(target, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.#agent,
        signal: abort.signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      const responseBody = await readAnswer(res.body);
      const responseHeaders = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));
      return { statusCode: res.statusCode, error: null, durationMs: elapsed(), responseHeaders, responseBody };
    } catch (err) {
      return { statusCode: null, error: describeError(err, this.options.timeoutMs, host), durationMs: elapsed(), responseHeaders: null, responseBody: null };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

// Webhook URLs repeat delivery after delivery: each is parsed once (a bounded cache, dropped whole when full).
const parsed = new Map<string, { target: URL; host: string }>();
function parsedTarget(url: string): { target: URL; host: string } {
  let p = parsed.get(url);
  if (!p) {
    if (parsed.size >= 10_000) parsed.clear();
    const target = new URL(url);
    p = { target, host: target.hostname.replace(/^\[(.*)\]$/, '$1') };
    parsed.set(url, p);
  }
  return p;
}

/**
 * The first KiB of an answer, read to its end (so the connection can be reused) unless it runs
 * past RESPONSE_DRAIN_MAX, when the connection is given up. Events rather than an async iterator:
 * this runs for every delivery.
 */
function readAnswer(body: NodeJS.ReadableStream & { destroy(): void }): Promise<string> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let seen = 0;
    const done = () => resolve(Buffer.concat(kept).toString('utf8'));
    body.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (keptBytes < RESPONSE_KEEP) {
        kept.push(chunk.subarray(0, RESPONSE_KEEP - keptBytes));
        keptBytes += Math.min(chunk.length, RESPONSE_KEEP - keptBytes);
      }
      if (seen > RESPONSE_DRAIN_MAX) {
        body.removeAllListeners('end');
        body.destroy();
        done();
      }
    });
    body.once('end', done);
    body.once('error', reject);
  });
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
