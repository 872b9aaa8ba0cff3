// Rate limits: a rolling minute per key, separate buckets, counters shared through PostgreSQL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../src/http/app.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

async function burst(n: number, key: string, baseUrl = t.baseUrl): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${baseUrl}/v2/parties`, { headers: { authorization: `Token ${key}` } });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

test('the 101st request in a minute gets 429 with Retry-After; the window rolls', async () => {
  const { key } = await t.newAccount('Limited');
  const statuses = await burst(100, key);
  assert.ok(statuses.every((s) => s === 200));
  t.clock.advance(20_000);
  const over = await t.request('GET', '/v2/parties', { key });
  assert.equal(over.status, 429);
  assert.equal(over.body.errors[0].status, '429');
  assert.equal(over.body.errors[0].title, 'Too Many Requests');
  // The first request leaves the window 60 s after it was made, 40 s from now.
  assert.equal(over.headers.get('retry-after'), '40');
  t.clock.advance(40_001);
  assert.equal((await t.request('GET', '/v2/parties', { key })).status, 200);
});

test('each key has its own budget', async () => {
  const a = await t.newAccount('Busy');
  const b = await t.newAccount('Quiet');
  await burst(100, a.key);
  assert.equal((await t.request('GET', '/v2/parties', { key: a.key })).status, 429);
  assert.equal((await t.request('GET', '/v2/parties', { key: b.key })).status, 200);
});

test('two API processes on one database share the counters', async () => {
  const peer = await buildApp({ db: t.db, clock: t.clock });
  await peer.listen({ port: 0, host: '127.0.0.1' });
  try {
    const address = peer.server.address();
    const peerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const { key } = await t.newAccount('Two instances');
    // Interleave both servers, concurrently: exactly 100 succeed in all.
    const results = await Promise.all([burst(60, key), burst(60, key, peerUrl)]);
    const flat = results.flat();
    assert.equal(flat.filter((s) => s === 200).length, 100);
    assert.equal(flat.filter((s) => s === 429).length, 20);
  } finally {
    await peer.close();
  }
});
