// Rate-limit counters in Redis, for API processes that share them (SVC_REDIS_URL). Each key and
// bucket is a sorted set of the request times of the last window: the same rolling log that
// svc_rate_limit_hit keeps in PostgreSQL, so limits, Retry-After and the 429 are the same. One
// Lua script does the whole check in one atomic round trip, so any number of processes count
// exactly. "Now" comes from svc's clock (an argument), never Redis's TIME: tests drive time.
import { Redis } from 'ioredis';

// KEYS[1]: the set. ARGV: now (ms), window (ms), limit, a member unique to this request, the
// number of requests counted together (an MCP batch's messages; each member is ARGV[4]:i).
// Returns 0 after counting them all, else the ms until the oldest hit that keeps the bucket too
// full leaves the window (at least 1; a whole window for more hits than the limit), counting nothing.
const HIT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local hits = tonumber(ARGV[5])
if hits > limit then return window end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n + hits > limit then
  local blocking = redis.call('ZRANGE', KEYS[1], n + hits - limit - 1, n + hits - limit - 1, 'WITHSCORES')
  return math.max(1, math.ceil(tonumber(blocking[2]) + window - now))
end
if hits == 1 then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
else
  for i = 1, hits do redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. i) end
end
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;

/** The client with the script as a command (ioredis runs it by EVALSHA, loading it when missing). */
type CountingClient = Redis & {
  svcRateLimitHit(key: string, nowMs: number, windowMs: number, limit: number, member: string, hits: number): Promise<number>;
};

export interface RedisCounterOptions {
  url: string;
  /** How long one check may take before the caller counts elsewhere. */
  timeoutMs: number;
  /** Told when the connection fails (each attempt while Redis is away) and when it is ready again. */
  onError(err: Error): void;
  onReady(): void;
}

/**
 * A connection to Redis for the counters. It connects (and reconnects) in the background; while
 * it is not connected, `hit` fails at once rather than queueing, so a request never waits for
 * Redis to come back. (ioredis rather than node-redis: about half the CPU per call, measured
 * with this script at 32 calls in flight.)
 */
export function redisCounters(options: RedisCounterOptions) {
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    commandTimeout: options.timeoutMs,
    connectTimeout: options.timeoutMs * 4,
    // Each call is answered or refused at once; it is never retried on a new connection.
    maxRetriesPerRequest: 0,
    retryStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5_000),
  }) as CountingClient;
  client.defineCommand('svcRateLimitHit', { numberOfKeys: 1, lua: HIT });
  client.on('error', options.onError);
  client.on('ready', options.onReady);
  const firstAttempt = new Promise<void>((settled) => {
    client.once('ready', settled);
    client.once('error', settled);
  });
  return {
    get isReady(): boolean {
      return client.status === 'ready';
    },
    /** Settles when the first connection attempt has: connected, or failed (and retrying). */
    firstAttempt,
    hit: (key: string, nowMs: number, windowMs: number, limit: number, member: string, hits = 1): Promise<number> =>
      client.svcRateLimitHit(key, nowMs, windowMs, limit, member, hits),
    async close(): Promise<void> {
      client.disconnect();
    },
  };
}

export type RedisCounters = ReturnType<typeof redisCounters>;
