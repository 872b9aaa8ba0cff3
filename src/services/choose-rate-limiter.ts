// Which rate limiter a `svc serve` uses (README, "Rate limits"): Redis when SVC_REDIS_URL names
// one; else memory when the database is the embedded PostgreSQL, whose data-folder lock lets
// only one svc serve (the one API process) run on it; else PostgreSQL, which any number of API
// processes on one DATABASE_URL share.
import { memoryRateLimiter, postgresRateLimiter, type RateLimiter } from './rate-limiters.ts';

export async function chooseRateLimiter(options: {
  redisUrl?: string;
  embeddedDatabase: boolean;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}): Promise<RateLimiter> {
  if (options.redisUrl) {
    // Loaded only when used: the Redis client is some 45 modules a start without Redis need not read.
    const { redisRateLimiter } = await import('./redis-rate-limiter.ts');
    return redisRateLimiter({ url: options.redisUrl, log: options.log });
  }
  return options.embeddedDatabase ? memoryRateLimiter() : postgresRateLimiter();
}
