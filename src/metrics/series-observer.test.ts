// seriesObserver against prom-client's own observe: the same observations, the same exposition.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { seriesObserver } from './series-observer.ts';

function histogram() {
  const registry = new Registry();
  const h = new Histogram({ name: 'h', help: 'h', labelNames: ['method', 'route', 'status'] as const, buckets: [0.001, 0.01, 0.1, 1], registers: [registry] });
  return { registry, h };
}

const observations: [string, string, number, number][] = [
  ['GET', '/a/:id', 200, 0.0005],
  ['GET', '/a/:id', 200, 0.001],
  ['GET', '/a/:id', 200, 0.05],
  ['POST', '/a', 201, 0.2],
  ['GET', '/a/:id', 404, 3],
  ['GET', '/a/:id', 200, 0.0099],
  ['POST', '/a', 201, 7.5],
];

test('seriesObserver leaves the exposition prom-client observe leaves, across a reset, a series made elsewhere and a removed series', async () => {
  const plain = histogram();
  const fast = histogram();
  const observe = seriesObserver(fast.h, ['route', 'method', 'status']);
  const run = (list: typeof observations) => {
    for (const [method, route, status, seconds] of list) {
      plain.h.observe({ method, route, status }, seconds);
      observe([route, method, status], seconds);
    }
  };
  run(observations);
  run(observations);
  assert.equal(await fast.registry.metrics(), await plain.registry.metrics());
  plain.h.reset();
  fast.h.reset();
  // A series prom-client's own observe made first.
  for (const h of [plain.h, fast.h]) h.observe({ method: 'GET', route: '/a/:id', status: 200 }, 0.3);
  run(observations.slice(2));
  assert.equal(await fast.registry.metrics(), await plain.registry.metrics());
  plain.h.remove({ method: 'POST', route: '/a', status: 201 });
  fast.h.remove({ method: 'POST', route: '/a', status: 201 });
  run(observations);
  assert.equal(await fast.registry.metrics(), await plain.registry.metrics());
  assert.deepEqual(await fast.h.get(), await plain.h.get());
});

test('seriesObserver refuses a value that is not a number as prom-client does', () => {
  const observe = seriesObserver(histogram().h, ['method']);
  observe(['GET'], 1);
  assert.throws(() => observe(['GET'], Number.NaN), TypeError);
});
