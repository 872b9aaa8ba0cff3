// Logs are JSON lines with request ids, and never carry an API key.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createLogger, workerLog } from '../src/main/logger.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

/** A stream that keeps the lines written to it in `into`. */
const collect = (into: string[]) =>
  new Writable({
    write(chunk, _enc, done) {
      into.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
const lines: string[] = [];
const stream = collect(lines);

let t: TestApp;
forFile(() => startTestApp({ logger: { level: 'info', stream, redact: ['req.headers.authorization'] } }), (s) => (t = s));

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

test('svc serve’s one logger: worker lines are JSON lines like the request lines, at the configured level', async () => {
  const shared: string[] = [];
  const sink = collect(shared);
  const logger = createLogger('info', sink);
  const app = await startTestApp({ loggerInstance: logger });
  try {
    assert.equal((await app.request('GET', '/v2/parties', { headers: { 'x-request-id': 'shared-1' } })).status, 200);
    workerLog(logger, 'tracking')('tracking worker error', { err: 'Error: connect ECONNREFUSED' });
    workerLog(createLogger('error', sink), 'delivery')('below the level', {});

    const records = shared.map((l) => JSON.parse(l));
    const request = records.find((r) => r.reqId === 'shared-1' && r.res?.statusCode === 200);
    const worker = records.find((r) => r.worker === 'tracking');
    assert.ok(request && worker, shared.join('\n'));
    assert.deepEqual({ msg: worker.msg, level: worker.level, err: worker.err }, { msg: 'tracking worker error', level: 40, err: 'Error: connect ECONNREFUSED' });
    for (const field of ['level', 'time', 'pid', 'hostname', 'msg']) assert.ok(field in request && field in worker, field);
    assert.ok(!shared.some((l) => l.includes('below the level')));
    assert.ok(!shared.join('\n').includes(app.key));
  } finally {
    await app.close();
  }
});

test('links that are secrets (signed download and upload links, sign-in links) are logged without their token', async () => {
  const token = 'LinkTokenThatMustNotBeLogged42';
  const asked = [
    ['GET', `/v2/document_files/${token}`],
    ['PUT', `/v2/direct_uploads/${token}?x=1`],
    ['GET', `//V2/Document_Files/${token}`],
    ['GET', `/sign-in/link/${token}`],
  ] as const;
  const from = lines.length;
  for (const [method, path] of asked) await t.request(method, path, { headers: { 'x-request-id': `secret-${path}` } });
  const logged = lines.slice(from);
  assert.ok(!logged.join('\n').includes(token), logged.join('\n'));
  const urls = logged.map((l) => JSON.parse(l)).filter((r) => r.req).map((r) => r.req.url);
  assert.deepEqual(urls, ['/v2/document_files/[redacted]', '/v2/direct_uploads/[redacted]?x=1', '//V2/Document_Files/[redacted]', '/sign-in/link/[redacted]']);
  // Everything else as fastify logs it.
  const plain = await t.request('GET', '/v2/parties?page[size]=2', { headers: { 'x-request-id': 'plain-1' } });
  assert.equal(plain.status, 200);
  const line = lines.map((l) => JSON.parse(l)).find((r) => r.reqId === 'plain-1' && r.req);
  assert.deepEqual(Object.keys(line.req).sort(), ['host', 'method', 'remoteAddress', 'remotePort', 'url']);
  assert.equal(line.req.url, '/v2/parties?page[size]=2');
});

test('svc serve’s logger instance leaves the tokens out too', async () => {
  const shared: string[] = [];
  const app = await startTestApp({ loggerInstance: createLogger('info', collect(shared)) });
  try {
    await app.request('GET', '/v2/document_files/AnotherSecretToken77');
    assert.ok(shared.length > 0 && !shared.join('\n').includes('AnotherSecretToken77'), shared.join('\n'));
    assert.ok(shared.some((l) => JSON.parse(l).req?.url === '/v2/document_files/[redacted]'));
  } finally {
    await app.close();
  }
});
