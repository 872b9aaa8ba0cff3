// Logs are JSON lines with request ids, and never carry an API key.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './support/app.ts';

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
before(async () => {
  t = await startTestApp({ logger: { level: 'info', stream, redact: ['req.headers.authorization'] } });
});
after(async () => {
  await t.close();
});

test('each request is logged as JSON with its id; keys never appear', async () => {
  const ok = await t.request('GET', '/v2/parties', { headers: { 'x-request-id': 'trace-123' } });
  assert.equal(ok.headers.get('x-request-id'), 'trace-123');
  const denied = await t.request('GET', '/v2/parties', { headers: { authorization: 'Token svc_not_a_real_key_but_secret' } });
  assert.equal(denied.status, 401);
  await t.request('POST', '/v2/parties', { body: { data: { type: 'party', attributes: { company_name: 'Logged Co' } } } });

  const records = lines.map((l) => JSON.parse(l));
  assert.ok(records.some((r) => r.reqId === 'trace-123' && r.res?.statusCode === 200), 'completion line with the request id');
  assert.ok(records.every((r) => typeof r.level === 'number' && typeof r.time === 'number'));
  const all = lines.join('\n');
  assert.ok(!all.includes(t.key), 'the API key is not logged');
  assert.ok(!all.includes(t.key.slice(4)), 'not even in part');
  assert.ok(!all.includes('svc_not_a_real_key_but_secret'), 'a wrong key is not logged either');
});
