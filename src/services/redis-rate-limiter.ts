// The rate limiter for several API processes (SVC_REDIS_URL): counts in Redis, one atomic script
// per request, after the auth read in PostgreSQL.
//
// When Redis cannot be reached (not connected, or a check that fails or takes longer than
// `timeoutMs`), the request is counted in PostgreSQL instead, as svc does without Redis. So limits
// stay enforced through an outage rather than going open (while processes switch from one store
// to the other, a key may get its limit in each for a minute), and a request never waits for a
// Redis that is away: an unconnected client refuses at once. The outage is logged when it starts
// and when it ends, and each request counted in PostgreSQL adds to `fallbacks`
// (svc_rate_limit_fallbacks_total).
import { randomUUID } from 'node:crypto';
import { findLiveKey } from '../store/accounts.ts';
import { redisCounters } from '../store/redis-rate-limit.ts';
import { postgresRateLimiter, type RateLimiter } from './rate-limiters.ts';

export interface RedisRateLimiterOptions {
  url: string;
  /** Put before every Redis key: svc's own, or a test's. */
  keyPrefix?: string;
  /** Longest a Redis check may take before the request is counted in PostgreSQL (default 500 ms). */
  timeoutMs?: number;
  /** Where the start and end of a Redis outage are said (warn lines in svc serve). */
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

export function redisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const log = options.log ?? (() => {});
  const prefix = options.keyPrefix ?? 'svc:rate:';
  const postgres = postgresRateLimiter();
  let down = false;
  const outage = (err: Error) => {
    if (down) return;
    down = true;
    log('Redis for rate limits is unreachable: counting in PostgreSQL until it is back', { err: err.message });
  };
  const counters = redisCounters({
    url: options.url,
    timeoutMs: options.timeoutMs ?? 500,
    onError: outage,
    onReady: () => recovered(),
  });
  const recovered = () => {
    if (!down) return;
    down = false;
    log('Redis for rate limits is back: counting there again');
  };
  // A member unique to each request, even two in the same millisecond from two processes.
  const processTag = randomUUID().slice(0, 8);
  let sequence = 0;
  let fallbacks = 0;

  return {
    backend: 'redis',
    get fallbacks() {
      return fallbacks;
    },
    ready: () => counters.firstAttempt,
    async admit(db, keyHash, limit, now, hits = 1) {
      if (counters.isReady) {
        const key = await findLiveKey(db, keyHash);
        if (!key) return undefined;
        try {
          const nowMs = now.getTime();
          const member = `${nowMs}:${processTag}:${(sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
          const wait = await counters.hit(`${prefix}${key.id}:${limit.bucket}`, nowMs, limit.windowMs, limit.max, member, hits);
          recovered();
          return { ...key, wait_ms: wait };
        } catch (err) {
          outage(err as Error);
        }
      } else {
        // The client may know the connection is gone before any error is emitted (that comes
        // with its first reconnect attempt): the first request counted elsewhere says so.
        outage(new Error('not connected'));
      }
      fallbacks++;
      return postgres.admit(db, keyHash, limit, now, hits);
    },
    close: () => counters.close(),
  };
}
