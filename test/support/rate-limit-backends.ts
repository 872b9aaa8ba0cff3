// The rate limiters the rate-limit tests run their one behaviour suite on. Redis is the machine's
// server on 127.0.0.1:6379 (.ci/run starts one): each limiter gets a key prefix of its own, so
// tests never see each other's counts. Without it the Redis tests skip, saying why; on CI (CI set)
// they fail instead, as the browser tests do.
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { memoryRateLimiter, postgresRateLimiter, type RateLimiter } from '../../src/services/rate-limiters.ts';
import { redisRateLimiter, type RedisRateLimiterOptions } from '../../src/services/redis-rate-limiter.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';

export const REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether something accepts connections at the Redis URL's host and port. */
export function redisAnswers(url = REDIS_URL): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(2000, () => done(false));
  });
}

/** Undefined when the Redis tests can run; else why not, for `describe(name, { skip }, …)`. Throws on CI. */
export async function redisSkipReason(): Promise<string | undefined> {
  if (await redisAnswers()) return undefined;
  const missing = `no Redis server answers at ${REDIS_URL} (start one: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no)`;
  if (process.env.CI) throw new Error(`${missing}: CI must run the Redis rate-limit tests`);
  return missing;
}

export interface Backend {
  name: 'memory' | 'postgres' | 'redis';
  /** Whether two API processes on one database count together (what the backend claims). */
  shared: boolean;
  /** A limiter of this kind; Redis ones of one `make` family share `keyPrefix`'s counts. */
  make(options?: Partial<RedisRateLimiterOptions>): RateLimiter;
  /** The Redis key prefix of this backend's limiters (Redis only). */
  keyPrefix?: string;
}

/** Every backend, each with a fresh Redis key prefix. */
export function backends(): Backend[] {
  const keyPrefix = `svc-test:${randomUUID()}:`;
  return [
    { name: 'memory', shared: false, make: () => memoryRateLimiter() },
    { name: 'postgres', shared: true, make: () => postgresRateLimiter() },
    { name: 'redis', shared: true, keyPrefix, make: (options) => redisRateLimiter({ url: REDIS_URL, keyPrefix, ...options }) },
  ];
}

/** A test app counting with `limiter` once it has reached its store; closing it closes both. */
export async function startAppCounting(limiter: RateLimiter, options: TestAppOptions = {}): Promise<{ t: TestApp; limiter: RateLimiter; close(): Promise<void> }> {
  try {
    await limiter.ready();
    const t = await startTestApp({ ...options, rateLimiter: limiter });
    return { t, limiter, close: () => t.close().finally(() => limiter.close()) };
  } catch (err) {
    await limiter.close();
    throw err;
  }
}
