// Who is calling the MCP server: the API key of the request (Bearer or Token), else the server's
// own SVC_API_TOKEN, checked against svc's REST API before any MCP work. A key that REST accepted
// is remembered briefly, so a conversation's many small requests cost one check, not one each.
import { hash } from 'node:crypto';
import { AuthenticationError, ConnectionError, RateLimitError, SvcError, type SvcClient } from '../../sdk/src/index.ts';

/**
 * One authenticated REST call that says whether svc accepts the key. It counts in the key's
 * default rate-limit bucket like any other request: GET /v2/account, the smallest there is.
 */
export async function verifyKey(client: SvcClient): Promise<void> {
  await client.account.get();
}

export type KeyCheck =
  | { ok: true }
  | { ok: false; status: 401 | 429 | 502; error: string; message: string; retryAfterSeconds?: number; cause?: unknown };

export const MISSING_TOKEN = 'Missing valid Authorization header. Use `Authorization: Bearer <token>` or `Authorization: Token <token>`.';
export const INVALID_TOKEN = 'Invalid or expired token.';

/**
 * How long a key REST accepted is trusted without asking again where MCP is a REST client over
 * HTTP (svc mcp): so long a revoked key may still be let in. svc serve keeps no such memory: its
 * MCP requests read the key with every count (http.ts, Admission).
 */
export const KEY_TTL_MS = 5_000;

export interface KeyCacheOptions {
  /** How long a key REST accepted is trusted without asking again (default KEY_TTL_MS). */
  ttlMs?: number;
  /** Keys remembered at most; the oldest go first (default 1000). */
  maxEntries?: number;
  /** Milliseconds now (tests drive their own clock). */
  now?: () => number;
}

/**
 * Keys REST accepted recently, by a SHA-256 of the key (never the key itself, so a heap dump
 * does not hold them), each until its time runs out or a REST 401 evicts it.
 */
export class KeyCache {
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly until = new Map<string, number>();

  constructor(options: KeyCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? KEY_TTL_MS;
    this.maxEntries = options.maxEntries ?? 1000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.until.size;
  }

  has(token: string): boolean {
    const id = digest(token);
    const until = this.until.get(id);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(id);
    return false;
  }

  remember(token: string): void {
    const id = digest(token);
    this.until.delete(id); // re-inserted last: the Map's order is the eviction order
    this.until.set(id, this.now() + this.ttlMs);
    while (this.until.size > this.maxEntries) this.until.delete(this.until.keys().next().value!);
  }

  forget(token: string): void {
    this.until.delete(digest(token));
  }

  /**
   * Whether REST accepts `token` (asked through `client`, which carries it), from memory when it
   * can be. `client` may be a function making it, called only when REST is asked.
   */
  async check(token: string, client: SvcClient | (() => SvcClient)): Promise<KeyCheck> {
    if (this.has(token)) return { ok: true };
    try {
      await verifyKey(typeof client === 'function' ? client() : client);
    } catch (err) {
      return refusal(err);
    }
    this.remember(token);
    return { ok: true };
  }
}

// The one-shot hash: a sixth of createHash's cost, and this runs on every MCP request.
/** What a key is known by in memory: its SHA-256, never the key itself (a heap dump must not hold keys). */
export const keyDigest = (token: string) => hash('sha256', token, 'base64url');
const digest = keyDigest;

/** A failed verification as the HTTP answer it becomes. */
function refusal(err: unknown): KeyCheck {
  if (err instanceof AuthenticationError) return { ok: false, status: 401, error: 'Unauthorized', message: INVALID_TOKEN };
  if (err instanceof RateLimitError) {
    const retryAfterSeconds = err.retryAfterSeconds ?? 60;
    const detail = err.errors[0]?.detail ?? 'The API key is over its rate limit.';
    return { ok: false, status: 429, error: 'Too Many Requests', message: `${detail} Retry after ${retryAfterSeconds} s.`, retryAfterSeconds };
  }
  const why = err instanceof ConnectionError ? 'could not be reached' : err instanceof SvcError ? `answered HTTP ${err.status}` : 'failed';
  return { ok: false, status: 502, error: 'Bad Gateway', message: `The svc REST API ${why} while verifying the API key; try again shortly.`, cause: err };
}
