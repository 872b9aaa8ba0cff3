// Rate-limit counters in Redis, for API processes that share them (SVC_REDIS_URL). Each key and
// bucket is a sorted set of the request times of the last window: the same rolling log that
// svc_rate_limit_hit keeps in PostgreSQL, so limits, Retry-After and the 429 are the same. One
// Lua script does the whole check in one atomic round trip, so any number of processes count
// exactly. "Now" comes from svc's clock (an argument), never Redis's TIME: tests drive time.
import { createClient, defineScript } from '@redis/client';

// KEYS[1]: the set. ARGV: now (ms), window (ms), limit, a member unique to this request.
// Returns 0 after counting the request, else the ms until the oldest hit that keeps the bucket
// full leaves the window (at least 1), counting nothing.
const HIT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n >= limit then
  local blocking = redis.call('ZRANGE', KEYS[1], n - limit, n - limit, 'WITHSCORES')
  return math.max(1, math.ceil(tonumber(blocking[2]) + window - now))
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;

const rateLimitHit = defineScript({
  SCRIPT: HIT,
  NUMBER_OF_KEYS: 1,
  parseCommand(parser, key: string, nowMs: number, windowMs: number, limit: number, member: string) {
    parser.pushKey(key);
    parser.push(String(nowMs), String(windowMs), String(limit), member);
  },
  transformReply: undefined as unknown as () => number,
});

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
 * Redis to come back.
 */
export function redisCounters(options: RedisCounterOptions) {
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    scripts: { rateLimitHit },
    commandOptions: { timeout: options.timeoutMs },
    socket: { connectTimeout: options.timeoutMs * 4, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5_000) },
  });
  client.on('error', options.onError);
  client.on('ready', options.onReady);
  const firstAttempt = new Promise<void>((settled) => {
    client.once('ready', settled);
    client.once('error', settled);
  });
  // A failed first connection is reported through 'error' and retried like any other.
  const connecting = client.connect().catch(() => {});
  return {
    get isReady(): boolean {
      return client.isReady;
    },
    /** Settles when the first connection attempt has: connected, or failed (and retrying). */
    firstAttempt,
    hit: (key: string, nowMs: number, windowMs: number, limit: number, member: string): Promise<number> =>
      client.rateLimitHit(key, nowMs, windowMs, limit, member) as Promise<number>,
    async close(): Promise<void> {
      client.destroy();
      await connecting;
    },
  };
}

export type RedisCounters = ReturnType<typeof redisCounters>;
