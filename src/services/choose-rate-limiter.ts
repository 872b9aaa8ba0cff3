// Which rate limiter a `svc serve` uses (README, "Rate limits"): Redis when SVC_REDIS_URL names
// one; else memory when the database is the embedded PostgreSQL, whose data-folder lock lets
// only one svc serve (the one API process) run on it; else PostgreSQL, which any number of API
// processes on one DATABASE_URL share.
import { memoryRateLimiter, postgresRateLimiter, type RateLimiter } from './rate-limiters.ts';
import { redisRateLimiter } from './redis-rate-limiter.ts';

export function chooseRateLimiter(options: {
  redisUrl?: string;
  embeddedDatabase: boolean;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}): RateLimiter {
  if (options.redisUrl) return redisRateLimiter({ url: options.redisUrl, log: options.log });
  return options.embeddedDatabase ? memoryRateLimiter() : postgresRateLimiter();
}
