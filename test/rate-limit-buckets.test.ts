// The separate buckets: endpoints with their own limits count apart from the default budget,
// whichever rate limiter counts (memory, PostgreSQL, Redis).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AnyRouteSpec } from '../src/http/route.ts';
import { LIMITS } from '../src/http/rate-limit.ts';
import type { TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { backends, redisSkipReason, startAppCounting } from './support/rate-limit-backends.ts';

// Stand-ins for the routes later issues add, each declared with its bucket exactly as they will be.
const probes: AnyRouteSpec[] = [
  { method: 'PATCH', url: '/v2/probe/refresh', summary: 'probe', tag: 'probe', bucket: 'containers.refresh', plainJson: true, handler: async () => ({ body: { ok: true } }) },
  { method: 'POST', url: '/v2/probe/infer', summary: 'probe', tag: 'probe', bucket: 'tracking_requests.infer_number', plainJson: true, handler: async () => ({ body: { ok: true } }) },
];

const redisSkip = await redisSkipReason();

for (const backend of backends()) {
  describe(`${backend.name} rate limiter`, { skip: backend.name === 'redis' ? redisSkip : undefined }, () => {
    let t: TestApp;
    forFile(() => startAppCounting(backend.make(), { routes: probes }), (s) => (t = s.t));
    const hits = async (method: string, path: string, key: string, n: number): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await t.request(method, path, { key })).status);
      return out;
    };

    test('the refresh bucket allows 10 a minute and leaves the default budget alone', async () => {
      const { key } = await t.newAccount('Refresher');
      const statuses = await hits('PATCH', '/v2/probe/refresh', key, 11);
      assert.deepEqual(statuses.slice(0, 10), Array(10).fill(200));
      const over = await t.request('PATCH', '/v2/probe/refresh', { key });
      assert.equal(over.status, 429);
      assert.match(over.body.errors[0].detail, /refresh limit/);
      assert.ok(Number(over.headers.get('retry-after')) >= 1);
      assert.equal((await t.request('GET', '/v2/parties', { key })).status, 200);
    });

    test('the inference bucket allows 200 a minute', async () => {
      const { key } = await t.newAccount('Inferrer');
      assert.equal(LIMITS['tracking_requests.infer_number'].limit, 200);
      const statuses = await hits('POST', '/v2/probe/infer', key, 201);
      assert.equal(statuses.filter((s) => s === 200).length, 200);
      assert.equal(statuses[200], 429);
    });

    test('a spent default budget leaves the other buckets alone', async () => {
      const { key } = await t.newAccount('Poller');
      await hits('GET', '/v2/parties', key, 100);
      assert.equal((await t.request('GET', '/v2/parties', { key })).status, 429);
      assert.equal((await t.request('PATCH', '/v2/probe/refresh', { key })).status, 200);
      assert.equal((await t.request('POST', '/v2/probe/infer', { key })).status, 200);
    });
  });
}
