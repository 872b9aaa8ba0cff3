// Where per-key request counts live. Every request reads its API key from PostgreSQL (the "auth
// read") and is counted against a rolling window in one of three places:
// - memory, for the single API process of the embedded default (svc serve holds the data folder's
//   lock, and every other role reaches the API over REST), so counting costs no round trip;
// - Redis (SVC_REDIS_URL), shared by any number of API processes: one atomic script per request;
// - PostgreSQL, shared too, counted in the same statement as the auth read, but a write per request.
// All three keep the same rolling log of request times, so limits, Retry-After and the 429 are
// the same whichever counts.
import type { Registry } from 'prom-client';
import { Counter } from 'prom-client';
import { findLiveKey, findLiveKeyCountingHit, type LiveKey } from '../store/accounts.ts';
import type { Queryable } from '../store/db.ts';
import { SlidingWindowLog } from '../domain/sliding-window-log.ts';

export interface RateLimit {
  bucket: string;
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

/** A live key and whether its request fits: `wait_ms` 0 when it does, else the ms until it would. */
export type AdmittedKey = LiveKey & { wait_ms: number };

export type RateLimiterBackend = 'memory' | 'redis' | 'postgres';

export interface RateLimiter {
  readonly backend: RateLimiterBackend;
  /**
   * The live API key with this digest, its request counted in `limit.bucket` at `now` when it
   * fits; undefined without such a key (nothing is counted then). `hits` requests (default 1)
   * are counted together, all or none: an MCP batch counts as many as it holds messages.
   */
  admit(db: Queryable, keyHash: Buffer, limit: RateLimit, now: Date, hits?: number): Promise<AdmittedKey | undefined>;
  /** Settles once the limiter has tried to reach its store (Redis: connected, or failed to). */
  ready(): Promise<void>;
  /** Requests counted in PostgreSQL because Redis could not be reached (0 for the others). */
  readonly fallbacks: number;
  close(): Promise<void>;
}

/** Counts in PostgreSQL, in the statement that reads the key: exact across processes, a write per request. */
export function postgresRateLimiter(): RateLimiter {
  return {
    backend: 'postgres',
    fallbacks: 0,
    ready: async () => {},
    admit: (db, keyHash, limit, now, hits = 1) => findLiveKeyCountingHit(db, keyHash, { ...limit, now, hits }),
    close: async () => {},
  };
}

/** Counts in this process's memory: exact when it is the only API process, as with embedded PostgreSQL. */
export function memoryRateLimiter(): RateLimiter {
  const log = new SlidingWindowLog();
  return {
    backend: 'memory',
    fallbacks: 0,
    ready: async () => {},
    async admit(db, keyHash, limit, now, hits = 1) {
      const key = await findLiveKey(db, keyHash);
      return key && { ...key, wait_ms: log.hit(`${key.id} ${limit.bucket}`, now.getTime(), limit.max, limit.windowMs, hits) };
    },
    close: async () => {},
  };
}

/** `svc_rate_limit_fallbacks_total`, read from the limiter at scrape time. */
export function registerRateLimitMetrics(registry: Registry, limiter: RateLimiter): void {
  new Counter({
    name: 'svc_rate_limit_fallbacks_total',
    help: 'Requests whose rate limit was counted in PostgreSQL because Redis (SVC_REDIS_URL) could not be reached',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(limiter.fallbacks);
    },
  });
}
