// Rate limits: a rolling minute per key, the same behaviour whichever backend counts (memory,
// PostgreSQL, Redis); the shared ones exact across two API processes on one database.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../src/http/app.ts';
import { Registry } from 'prom-client';
import { registerRateLimitMetrics, type RateLimiter } from '../src/services/rate-limiters.ts';
import type { TestApp } from './support/app.ts';
import { SlidingWindowLog } from '../src/domain/sliding-window-log.ts';
import { forFile } from './support/for-file.ts';
import { backends, REDIS_URL, redisAnswers, redisSkipReason, startAppCounting } from './support/rate-limit-backends.ts';

const redisSkip = await redisSkipReason();
const redisBackend = () => backends().find((b) => b.name === 'redis')!;

async function burst(n: number, key: string, baseUrl: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${baseUrl}/v2/parties`, { headers: { authorization: `Token ${key}` } });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

/** The rate-limit rows PostgreSQL holds for an account's keys (svc_rate_limit_hit's). */
async function postgresHits(t: TestApp, accountId: string): Promise<number> {
  const { rows } = await t.db.query(
    'SELECT coalesce(sum(cardinality(w.hits)), 0)::int AS n FROM rate_limit_windows w JOIN api_keys k ON k.id = w.api_key_id WHERE k.account_id = $1',
    [accountId],
  );
  return rows[0].n;
}

for (const backend of backends()) {
  describe(`${backend.name} rate limiter`, { skip: backend.name === 'redis' ? redisSkip : undefined }, () => {
    let t: TestApp;
    let limiter: RateLimiter;
    forFile(() => startAppCounting(backend.make()), (s) => ({ t, limiter } = s));

    test('the 101st request in a minute gets 429 with Retry-After and meta; the window rolls', async () => {
      const { key } = await t.newAccount('Limited');
      const statuses = await burst(100, key, t.baseUrl);
      assert.ok(statuses.every((s) => s === 200));
      t.clock.advance(20_000);
      const over = await t.request('GET', '/v2/parties', { key });
      assert.equal(over.status, 429);
      assert.equal(over.body.errors[0].status, '429');
      assert.equal(over.body.errors[0].title, 'Too Many Requests');
      assert.equal(over.body.errors[0].code, 'rate_limited');
      // The first request leaves the window 60 s after it was made, 40 s from now.
      assert.equal(over.headers.get('retry-after'), '40');
      assert.deepEqual(over.body.errors[0].meta, { limit: 100, window_seconds: 60, retry_after_seconds: 40, request_id: over.headers.get('x-request-id') });
      // A refused request is not counted: the wait only shrinks as the clock moves.
      t.clock.advance(39_000);
      assert.equal((await t.request('GET', '/v2/parties', { key })).headers.get('retry-after'), '1');
      t.clock.advance(1_001);
      assert.equal((await t.request('GET', '/v2/parties', { key })).status, 200);
    });

    test('each key has its own budget', async () => {
      const a = await t.newAccount('Busy');
      const b = await t.newAccount('Quiet');
      await burst(100, a.key, t.baseUrl);
      assert.equal((await t.request('GET', '/v2/parties', { key: a.key })).status, 429);
      assert.equal((await t.request('GET', '/v2/parties', { key: b.key })).status, 200);
    });

    test('an unknown key is a 401 and counts nothing', async () => {
      const res = await t.request('GET', '/v2/parties', { key: 'svc_not-a-key-of-anyone' });
      assert.equal(res.status, 401);
    });

    if (backend.name !== 'postgres') {
      test('no PostgreSQL write per request: the counts live in the limiter', async () => {
        const { key, accountId } = await t.newAccount('No writes');
        await burst(5, key, t.baseUrl);
        assert.equal(await postgresHits(t, accountId), 0);
        assert.equal(limiter.fallbacks, 0);
      });
    }

    if (backend.shared) {
      test('two API processes on one database share the counters', async () => {
        const peerLimiter = backend.make();
        await peerLimiter.ready();
        const peer = await buildApp({ db: t.db, clock: t.clock, rateLimiter: peerLimiter });
        await peer.listen({ port: 0, host: '127.0.0.1' });
        try {
          const address = peer.server.address();
          const peerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
          const { key } = await t.newAccount('Two instances');
          // Interleave both servers, concurrently: exactly 100 succeed in all.
          const results = await Promise.all([burst(60, key, t.baseUrl), burst(60, key, peerUrl)]);
          const flat = results.flat();
          assert.equal(flat.filter((s) => s === 200).length, 100);
          assert.equal(flat.filter((s) => s === 429).length, 20);
        } finally {
          await peer.close();
          await peerLimiter.close();
        }
      });
    }

    if (backend.name === 'redis') {
      test('the counts are a sorted set per key and bucket in Redis, expiring with the window', async () => {
        const { key, accountId } = await t.newAccount('In Redis');
        await burst(3, key, t.baseUrl);
        const keyId = (await t.db.query('SELECT id FROM api_keys WHERE account_id = $1', [accountId])).rows[0].id;
        const redis = new Redis(REDIS_URL);
        try {
          const name = `${backend.keyPrefix}${keyId}:default`;
          assert.equal(await redis.zcard(name), 3);
          const ttl = await redis.pttl(name);
          assert.ok(ttl > 0 && ttl <= 60_000, `expires within the window (${ttl} ms)`);
        } finally {
          redis.disconnect();
        }
      });
    }
  });
}

describe('Redis that cannot be reached', () => {
  let t: TestApp;
  let limiter: RateLimiter;
  const said: string[] = [];
  // Nothing listens on port 1: the connection is refused, at start and at every retry.
  const unreachable = () => redisBackend().make({ url: 'redis://127.0.0.1:1', log: (msg) => said.push(msg) });
  forFile(() => startAppCounting(unreachable()), (s) => ({ t, limiter } = s));

  test('requests are counted in PostgreSQL instead: the limits still hold, and the outage is said once', async () => {
    const { key, accountId } = await t.newAccount('Fallback');
    const statuses = await burst(101, key, t.baseUrl);
    assert.deepEqual(statuses.slice(0, 100), Array(100).fill(200));
    assert.equal(statuses[100], 429);
    assert.equal(await postgresHits(t, accountId), 100);
    assert.equal(limiter.fallbacks, 101);
    assert.equal(said.length, 1);
    assert.match(said[0], /Redis for rate limits is unreachable: counting in PostgreSQL/);
  });

  test('svc_rate_limit_fallbacks_total reports them', async () => {
    const registry = new Registry();
    registerRateLimitMetrics(registry, limiter);
    const text = await registry.metrics();
    assert.match(text, new RegExp(`^svc_rate_limit_fallbacks_total ${limiter.fallbacks}$`, 'm'));
    assert.ok(limiter.fallbacks > 0);
  });
});

/** A Redis server of the test's own on a free port, so the test can stop and restart it. */
async function ownRedis(): Promise<{ url: string; start(): Promise<void>; stop(): Promise<void> }> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as { port: number }).port;
  probe.close();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  return {
    url,
    async start() {
      server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      while (!(await redisAnswers(url))) await new Promise((resolve) => setImmediate(resolve));
    },
    async stop() {
      if (!server || server.exitCode !== null) return;
      server.kill('SIGKILL');
      await once(server, 'exit');
    },
  };
}

const redisServerMissing = spawnSync('redis-server', ['--version']).error ? 'redis-server is not installed (apt-get install redis-server)' : undefined;
if (redisServerMissing && process.env.CI) throw new Error(`${redisServerMissing}: CI must run the Redis outage test`);

describe('Redis that goes away and comes back', { skip: redisServerMissing }, () => {
  let t: TestApp;
  let limiter: RateLimiter;
  let redis: Awaited<ReturnType<typeof ownRedis>>;
  const said: string[] = [];
  before(async () => {
    redis = await ownRedis();
    await redis.start();
  });
  forFile(() => startAppCounting(redisBackend().make({ url: redis.url, log: (msg) => said.push(msg) })), (s) => ({ t, limiter } = s));
  after(() => redis?.stop());

  test('requests go on, counted in PostgreSQL, while Redis is away; back in Redis when it returns', async () => {
    const { key, accountId } = await t.newAccount('Outage');
    assert.deepEqual(await burst(40, key, t.baseUrl), Array(40).fill(200));
    assert.equal(limiter.fallbacks, 0);

    await redis.stop();
    assert.deepEqual(await burst(30, key, t.baseUrl), Array(30).fill(200));
    assert.equal(limiter.fallbacks, 30);
    assert.equal(await postgresHits(t, accountId), 30);
    assert.deepEqual(said, ['Redis for rate limits is unreachable: counting in PostgreSQL until it is back']);

    // PostgreSQL alone holds the key to its limit through the outage: 70 more fit there.
    assert.equal((await burst(71, key, t.baseUrl)).filter((s) => s === 429).length, 1);

    await redis.start();
    // The client reconnects on its own (backing off up to 5 s between tries).
    while (!said.includes('Redis for rate limits is back: counting there again')) await burst(1, key, t.baseUrl);
    const fallbacks = limiter.fallbacks;
    // The restarted Redis is empty: the minute's counts start afresh there.
    t.clock.advance(60_000);
    assert.deepEqual(await burst(5, key, t.baseUrl), Array(5).fill(200));
    assert.equal(limiter.fallbacks, fallbacks);
  });
});

test('the memory log forgets keys idle for a window, so it does not grow with every key ever seen', () => {
  const log = new SlidingWindowLog();
  for (let i = 0; i < 1000; i++) log.hit(`key ${i}`, 0, 100, 60_000);
  assert.equal(log.size, 1000);
  assert.equal(log.hit('key 0', 30_000, 100, 60_000), 0);
  assert.equal(log.hit('busy', 60_001, 100, 60_000), 0);
  // Only the key seen within the last window, and the one just counted, remain.
  assert.equal(log.size, 2);
});
