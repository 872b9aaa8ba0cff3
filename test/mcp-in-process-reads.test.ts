// svc serve's MCP server reads /v2 in memory past fastify (src/http/in-process-reads.ts, through
// injectFetch's in-process send): every answer equals app.inject's, parsed (status, body, the
// headers a caller reads); a success never passes fastify's hooks, a failure passes them once
// (the route raises the error the read met, so the document is the app's own); and each read
// counts once against the key's rate limit, failures included. Against a real svc.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { inProcessSendOf, type InProcessSend } from '../sdk/src/transport.ts';
import { LIMITS } from '../src/http/rate-limit.ts';
import { injectFetch } from '../src/main/inject-fetch.ts';
import { startTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
let send: InProcessSend;
/** URLs of the requests fastify's hooks saw. */
const seen: string[] = [];
before(async () => {
  t = await startTestApp({
    beforeListen: async (app: FastifyInstance) => {
      send = inProcessSendOf(injectFetch(app, { readsAsData: true }))!;
      app.addHook('onRequest', (req, _reply, done) => {
        seen.push(req.url);
        done();
      });
    },
  });
});
after(() => t.close());

const host = '127.0.0.1';
const origin = `http://${host}`;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The in-process send's answer beside app.inject's (its body parsed), and whether fastify saw the request. */
async function both(path: string, headers: Record<string, string>) {
  const injected = await t.app.inject({ method: 'GET', url: path, headers: { host, ...headers } });
  seen.length = 0;
  const sent = await send({ method: 'GET', url: origin + path, headers });
  const throughFastify = seen.length > 0;
  const body = injected.payload ? JSON.parse(injected.payload) : undefined;
  return { sent, injected: { status: injected.statusCode, headers: injected.headers, body }, throughFastify };
}

const reads: [string, string, (key: string) => Record<string, string>][] = [
  ['a record', '/v2/account', (key) => ({ authorization: `Token ${key}` })],
  ['a list with a percent-encoded page size and a trailing slash', '/v2/containers/?page%5Bsize%5D=1', (key) => ({ authorization: `Token ${key}` })],
  ['a search', '/v2/shipping_lines?search=MAEU', (key) => ({ Authorization: `Bearer ${key}` })],
];
for (const [what, path, headers] of reads) {
  test(`${what}: app.inject's answer, without passing fastify`, async () => {
    const { sent, injected, throughFastify } = await both(path, { ...headers(t.key), 'x-request-id': 'req-read' });
    assert.equal(sent.status, injected.status);
    assert.equal(sent.status, 200);
    assert.deepEqual(sent.body, injected.body);
    assert.equal(sent.headers['content-type'], injected.headers['content-type']);
    assert.equal(sent.headers['x-request-id'], 'req-read');
    assert.equal(throughFastify, false);
  });
}

const failures: [string, string, (key: string) => Record<string, string>][] = [
  ['an unknown record', `/v2/containers/${UNKNOWN}?include=shipment`, (key) => ({ authorization: `Token ${key}` })],
  ['an include the type has not', '/v2/containers?include=nonsense', (key) => ({ authorization: `Token ${key}` })],
  ['a NUL in a parameter', `/v2/containers/${UNKNOWN}%00`, (key) => ({ authorization: `Token ${key}` })],
  ['no key', '/v2/containers', () => ({})],
  ['a key svc does not know', '/v2/containers', () => ({ authorization: 'Token nope' })],
];
for (const [what, path, headers] of failures) {
  test(`${what}: app.inject's error document and headers, rendered by fastify`, async () => {
    const { sent, injected, throughFastify } = await both(path, { ...headers(t.key), 'x-request-id': 'req-fail' });
    assert.ok(sent.status >= 400);
    assert.equal(sent.status, injected.status);
    assert.deepEqual(sent.body, injected.body);
    for (const name of ['content-type', 'www-authenticate', 'x-request-id']) assert.equal(sent.headers[name], injected.headers[name], name);
    assert.equal(throughFastify, true);
  });
}

test('paths no read route answers go through fastify as they are: another GET route, none, a malformed URL', async () => {
  // fastify refuses a malformed URL before any hook runs: its answer shows the way it went.
  for (const [path, hooksRun] of [['/v2/openapi.json', true], ['/v2/nowhere', true], ['/v2/containers/%E0%A4%A', false]] as const) {
    const { sent, injected, throughFastify } = await both(path, { authorization: `Token ${t.key}`, 'x-request-id': 'req-other' });
    assert.equal(sent.status, injected.status, path);
    assert.deepEqual(sent.body, injected.body, path);
    assert.equal(throughFastify, hooksRun, path);
  }
  assert.equal((await send({ method: 'GET', url: `${origin}/v2/containers/%E0%A4%A`, headers: {} })).status, 400);
});

test("each read counts once in the key's bucket, a failed one too, up to the same 429 as over HTTP", async () => {
  const { key } = await t.newAccount('limited');
  const headers = { authorization: `Token ${key}` };
  const limit = LIMITS.default.limit;
  for (let n = 0; n < limit; n++) {
    const answer = await send({ method: 'GET', url: origin + (n % 2 === 0 ? '/v2/account' : `/v2/containers/${UNKNOWN}`), headers });
    assert.equal(answer.status, n % 2 === 0 ? 200 : 404, `read ${n + 1}`);
  }
  const refused = await send({ method: 'GET', url: `${origin}/v2/account`, headers });
  assert.equal(refused.status, 429);
  assert.match(String(refused.headers['retry-after']), /^\d+$/);
  assert.equal((refused.body as { errors: { code: string }[] }).errors[0].code, 'rate_limited');
});

test('while the app closes, reads go through fastify, which turns them away (503)', async () => {
  let closingSend: InProcessSend | undefined;
  let answer: Awaited<ReturnType<InProcessSend>> | undefined;
  const closing = await startTestApp({
    beforeListen: async (app) => {
      closingSend = inProcessSendOf(injectFetch(app, { readsAsData: true }))!;
      // After the app's own preClose hooks (buildApp's), before the server stops listening.
      app.addHook('preClose', async () => {
        answer = await closingSend!({ method: 'GET', url: `${origin}/v2/account`, headers: { authorization: `Token ${closing.key}` } });
      });
    },
  });
  await closing.close();
  assert.equal(answer?.status, 503);
  assert.equal((answer?.body as { errors: { code: string }[] }).errors[0].code, 'shutting_down');
});
