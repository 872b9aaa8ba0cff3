// The MCP server's reads of REST in memory (src/main/in-process-dispatch.ts) answer exactly as
// app.inject does, through the app's router, hooks and error handling: found, unknown, refused,
// HEAD, a method the path does not take, and a key over its rate limit, against a real svc; and
// a JSON body handed over as data only when it is what parsing its text would give.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Fastify from 'fastify';
import { answerAsData, dispatch, type DispatchRequest } from '../src/main/in-process-dispatch.ts';
import { startTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
before(async () => {
  // Prepared for bodies as data, as svc serve's app is: requests not asking for it answer as before.
  t = await startTestApp({ beforeListen: (app) => (answerAsData(app), Promise.resolve()) });
});
after(() => t.close());

// Headers a real HTTP server adds to the head it writes, which app.inject reads back from it.
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

async function both(request: DispatchRequest) {
  const injected = await t.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers });
  const dispatched = await dispatch(t.app, request);
  const injectedHeaders = Object.fromEntries(Object.entries(injected.headers).filter(([name]) => !CONNECTION_HEADERS.has(name)));
  return { injected: { status: injected.statusCode, headers: injectedHeaders, payload: injected.payload }, dispatched };
}

const host = '127.0.0.1';
const cases: [string, () => DispatchRequest][] = [
  ['a record found', () => ({ method: 'GET', url: '/v2/account', headers: { host, authorization: `Token ${t.key}`, 'x-request-id': 'req-1' } })],
  ['an unknown record', () => ({ method: 'GET', url: '/v2/containers/00000000-0000-4000-8000-000000000000?include=shipment', headers: { host, authorization: `Token ${t.key}`, 'x-request-id': 'req-2' } })],
  ['no key', () => ({ method: 'GET', url: '/v2/containers', headers: { host, 'x-request-id': 'req-3' } })],
  ['a key svc does not know', () => ({ method: 'GET', url: '/v2/containers', headers: { host, authorization: 'Token nope', 'x-request-id': 'req-4' } })],
  ['HEAD', () => ({ method: 'HEAD', url: '/v2/account', headers: { host, authorization: `Token ${t.key}`, 'x-request-id': 'req-5' } })],
  ['a method the path does not take', () => ({ method: 'DELETE', url: '/v2/account', headers: { host, authorization: `Token ${t.key}`, 'x-request-id': 'req-6' } })],
  ['a header name in capitals', () => ({ method: 'GET', url: '/v2/account', headers: { Host: host, Authorization: `Token ${t.key}`, 'X-Request-Id': 'req-7' } })],
];
for (const [what, request] of cases) {
  test(`${what}: the same status, headers and body as app.inject`, async () => {
    const { injected, dispatched } = await both(request());
    assert.deepEqual(dispatched, injected);
  });
}

test('a key over its rate limit: 429 with Retry-After, as app.inject answers it', async () => {
  const { key } = await t.newAccount('limited');
  const headers = { host, authorization: `Token ${key}` };
  let answer = await dispatch(t.app, { method: 'GET', url: '/v2/account', headers });
  for (let n = 0; answer.status !== 429 && n < 10_000; n++) answer = await dispatch(t.app, { method: 'GET', url: '/v2/account', headers });
  assert.equal(answer.status, 429);
  assert.match(String(answer.headers['retry-after']), /^\d+$/);
  const injected = await t.app.inject({ method: 'GET', url: '/v2/account', headers });
  assert.equal(injected.statusCode, 429);
  assert.deepEqual(JSON.parse(answer.payload).errors[0].status, JSON.parse(injected.payload).errors[0].status);
});

test('an aborted signal ends the wait with its reason', async () => {
  const controller = new AbortController();
  controller.abort(new Error('caller gave up'));
  await assert.rejects(dispatch(t.app, { method: 'GET', url: '/v2/account', headers: { host, authorization: `Token ${t.key}` }, signal: controller.signal }), /caller gave up/);
});

test('a JSON body asked for as data: the parsed text of app.inject, and no text', async () => {
  for (const url of ['/v2/account', '/v2/containers/00000000-0000-4000-8000-000000000000', '/v2/shipping_lines?search=MAEU']) {
    const headers = { host, authorization: `Token ${t.key}`, 'x-request-id': 'req-data' };
    const injected = await t.app.inject({ method: 'GET', url, headers });
    const dispatched = await dispatch(t.app, { method: 'GET', url, headers, asData: true });
    assert.equal(dispatched.status, injected.statusCode, url);
    assert.equal(dispatched.payload, '', url);
    assert.deepEqual(dispatched.data, JSON.parse(injected.payload), url);
    assert.equal(dispatched.headers['content-type'], injected.headers['content-type'], url);
  }
});

test('a body that is not plain JSON data (a Date in it), or not asked for as data, comes as text', async () => {
  const app = Fastify();
  answerAsData(app);
  app.get('/dated', async () => ({ at: new Date(0), n: 1 }));
  app.get('/plain', async () => ({ n: 1 }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const dated = await dispatch(app, { method: 'GET', url: '/dated', headers: { host }, asData: true });
    assert.equal(dated.data, undefined);
    assert.deepEqual(JSON.parse(dated.payload), { at: '1970-01-01T00:00:00.000Z', n: 1 });
    const plain = await dispatch(app, { method: 'GET', url: '/plain', headers: { host } });
    assert.equal(plain.data, undefined);
    assert.equal(plain.payload, '{"n":1}');
    const head = await dispatch(app, { method: 'HEAD', url: '/plain', headers: { host }, asData: true });
    assert.equal(head.data, undefined);
    assert.equal(head.payload, '');
  } finally {
    await app.close();
  }
});
