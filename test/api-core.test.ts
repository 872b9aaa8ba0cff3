// The JSON:API core through the real HTTP server: auth, content types, errors, pagination, include.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { revokeApiKey } from '../src/store/accounts.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

const party = (company_name: unknown) => ({ data: { type: 'party', attributes: { company_name } } });

function assertErrorDocument(body: any, status: number) {
  assert.ok(Array.isArray(body?.errors) && body.errors.length > 0, `expected an errors array, got ${JSON.stringify(body)}`);
  for (const e of body.errors) {
    assert.equal(e.status, String(status));
    assert.equal(typeof e.title, 'string');
  }
}

describe('authentication', () => {
  test('no key → 401 JSON:API error', async () => {
    const res = await t.request('GET', '/v2/parties', { key: null });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('content-type')!, /^application\/vnd\.api\+json/);
    assertErrorDocument(res.body, 401);
  });

  test('malformed and unknown keys → 401', async () => {
    for (const authorization of ['Basic abc', 'Token', 'Token a b', `Token ${t.key}x`, 'Bearer nope']) {
      const res = await t.request('GET', '/v2/parties', { headers: { authorization } });
      assert.equal(res.status, 401, authorization);
      assertErrorDocument(res.body, 401);
    }
  });

  test('Token and Bearer schemes both work', async () => {
    assert.equal((await t.request('GET', '/v2/parties', { headers: { authorization: `Token ${t.key}` } })).status, 200);
    assert.equal((await t.request('GET', '/v2/parties', { headers: { authorization: `Bearer ${t.key}` } })).status, 200);
  });

  test('a revoked key stops working at once', async () => {
    const other = await t.newAccount('Revoked');
    assert.equal((await t.request('GET', '/v2/parties', { key: other.key })).status, 200);
    const keyId = (await t.db.query('SELECT id FROM api_keys WHERE account_id = $1', [other.accountId])).rows[0].id;
    await revokeApiKey(t.db, keyId, t.clock.now());
    assert.equal((await t.request('GET', '/v2/parties', { key: other.key })).status, 401);
  });

  test('keys are stored hashed, never in clear', async () => {
    const { rows } = await t.db.query("SELECT count(*)::int AS n FROM api_keys WHERE encode(key_hash, 'escape') LIKE '%' || $1 || '%'", [t.key.slice(4)]);
    assert.equal(rows[0].n, 0);
  });
});

describe('documents and errors', () => {
  test('responses are application/vnd.api+json and carry a request id', async () => {
    const res = await t.request('GET', '/v2/parties');
    assert.match(res.headers.get('content-type')!, /^application\/vnd\.api\+json/);
    assert.ok(res.headers.get('x-request-id'));
  });

  test('both JSON:API and plain JSON request bodies are accepted', async () => {
    const a = await t.request('POST', '/v2/parties', { body: party('Body Type One') });
    const b = await t.request('POST', '/v2/parties', { body: party('Body Type Two'), headers: { 'content-type': 'application/json' } });
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
  });

  test('malformed JSON → 400', async () => {
    const res = await t.request('POST', '/v2/parties', { rawBody: '{"data": {' });
    assert.equal(res.status, 400);
    assertErrorDocument(res.body, 400);
  });

  test('an unsupported content type → 415', async () => {
    const res = await t.request('POST', '/v2/parties', { rawBody: 'company_name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 415);
    assertErrorDocument(res.body, 415);
    assert.equal(res.body.errors[0].code, 'unsupported_media_type');
    assert.deepEqual(res.body.errors[0].source, { header: 'Content-Type' });
  });

  test('a missing attribute → 422 pointing at it, code blank', async () => {
    const res = await t.request('POST', '/v2/parties', { body: { data: { type: 'party', attributes: {} } } });
    assert.equal(res.status, 422);
    assertErrorDocument(res.body, 422);
    assert.equal(res.body.errors[0].source.pointer, '/data/attributes/company_name');
    assert.equal(res.body.errors[0].code, 'blank');
  });

  test('a wrong attribute type and a wrong resource type → 422 with pointers', async () => {
    const res = await t.request('POST', '/v2/parties', { body: { data: { type: 'shipment', attributes: { company_name: 42 } } } });
    assert.equal(res.status, 422);
    const pointers = res.body.errors.map((e: any) => e.source.pointer).sort();
    assert.deepEqual(pointers, ['/data/attributes/company_name', '/data/type']);
  });

  test('data.type may be left out, as reference clients do', async () => {
    const res = await t.request('POST', '/v2/parties', { body: { data: { attributes: { company_name: 'Typeless Co' } } } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.type, 'party');
  });

  test('a body that is not an object → 422', async () => {
    for (const body of [[], 'text', 7, null]) {
      const res = await t.request('POST', '/v2/parties', { body });
      assert.equal(res.status, 422, JSON.stringify(body));
      assertErrorDocument(res.body, 422);
    }
  });

  test('unknown route → 404, wrong method → 405 with Allow', async () => {
    const missing = await t.request('GET', '/v2/nothing_here');
    assert.equal(missing.status, 404);
    assertErrorDocument(missing.body, 404);
    const wrong = await t.request('DELETE', '/v2/parties');
    assert.equal(wrong.status, 405);
    assert.match(wrong.headers.get('allow')!, /GET/);
    assertErrorDocument(wrong.body, 405);
  });

  test('NUL characters (which PostgreSQL text cannot hold) are a 400, never a 500', async () => {
    assert.equal((await t.request('GET', '/v2/parties/%00')).status, 400);
    assert.equal((await t.request('GET', '/v2/shipping_lines?search=a%00')).status, 400);
    const body = await t.request('POST', '/v2/parties', { rawBody: '{"data":{"type":"party","attributes":{"company_name":"a\\u0000b"}}}' });
    assert.equal(body.status, 400);
    assertErrorDocument(body.body, 400);
    assert.equal(body.body.errors[0].source.pointer, '/data/attributes/company_name');
    // In a member's name too; and a backslash before u0000 is text, not a NUL.
    const name = await t.request('POST', '/v2/parties', { rawBody: '{"data":{"type":"party","attributes":{"company_name":"x","a\\u0000":1}}}' });
    assert.equal(name.status, 400);
    assert.equal(name.body.errors[0].source.pointer, '/data/attributes/a\u0000');
    const escaped = await t.request('POST', '/v2/parties', { rawBody: '{"data":{"type":"party","attributes":{"company_name":"a\\\\u0000b"}}}' });
    assert.equal(escaped.status, 201, escaped.text);
    assert.equal(escaped.body.data.attributes.company_name, 'a\\u0000b');
  });

  test('a body nested deeper than svc stores is a 400 naming where, never a 500', async () => {
    // 5,000 levels inside a member stored as JSON: serialising it again for PostgreSQL would exhaust the stack.
    const deep = '{"data":{"type":"party","attributes":{"company_name":"x","deep":' + '['.repeat(5_000) + ']'.repeat(5_000) + '}}}';
    const res = await t.request('POST', '/v2/parties', { rawBody: deep });
    assert.equal(res.status, 400, res.text);
    assertErrorDocument(res.body, 400);
    assert.equal(res.body.errors[0].code, 'too_deep');
    // The first member past the limit: data, attributes, deep, then arrays down to level 65.
    assert.equal(res.body.errors[0].source.pointer, '/data/attributes/deep' + '/0'.repeat(61));
    // As deep as the limit is fine (the member is then ignored, as unknown attributes are).
    const atLimit = '{"data":{"type":"party","attributes":{"company_name":"Deep Co","deep":' + '['.repeat(61) + ']'.repeat(61) + '}}}';
    assert.equal((await t.request('POST', '/v2/parties', { rawBody: atLimit })).status, 201);
  });

  test('unknown include → 400 with source.parameter', async () => {
    const res = await t.request('GET', '/v2/parties?include=shipment');
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].source.parameter, 'include');
  });
});

describe('parties and pagination', () => {
  let A: { id: string }[] = [];
  before(async () => {
    A = [];
    for (let i = 0; i < 7; i++) {
      t.clock.advance(1000);
      const res = await t.request('POST', '/v2/parties', { body: party(`Page Co ${i}`) });
      assert.equal(res.status, 201);
      A.push(res.body.data);
    }
  });

  test('create, get and rename a party', async () => {
    const created = await t.request('POST', '/v2/parties', { body: party('  Acme Imports  ') });
    assert.equal(created.status, 201);
    const { id, type, attributes, links } = created.body.data;
    assert.equal(type, 'party');
    assert.equal(attributes.company_name, 'Acme Imports');
    assert.equal(links.self, `/v2/parties/${id}`);
    const got = await t.request('GET', `/v2/parties/${id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.data.id, id);
    assert.equal(got.body.included, undefined, 'absent members are left out');
    const renamed = await t.request('PATCH', `/v2/parties/${id}`, { body: party('Acme Global') });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.data.attributes.company_name, 'Acme Global');
  });

  test('a duplicate company name → 422 taken', async () => {
    const res = await t.request('POST', '/v2/parties', { body: party('page co 1') });
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].code, 'taken');
    assert.equal(res.body.errors[0].source.pointer, '/data/attributes/company_name');
  });

  test('pages: links and meta, encoded or raw brackets', async () => {
    const total = (await t.request('GET', '/v2/parties')).body.meta.total;
    for (const path of ['/v2/parties?page[size]=3&page[number]=2', '/v2/parties?page%5Bsize%5D=3&page%5Bnumber%5D=2']) {
      const res = await t.request('GET', path);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.length, 3);
      const last = Math.ceil(total / 3);
      assert.deepEqual(res.body.meta, { size: 3, total, pagination: { current: 2, next: 3, last, records: total } });
      for (const rel of ['self', 'current', 'first', 'prev', 'next', 'last']) assert.match(res.body.links[rel], /^http:\/\/127\.0\.0\.1:\d+\/v2\/parties\?/, rel);
      assert.match(res.body.links.next, /page%5Bnumber%5D=3/);
      assert.match(res.body.links.prev, /page%5Bnumber%5D=1/);
    }
  });

  test('first and last pages leave out prev and next', async () => {
    const first = await t.request('GET', '/v2/parties?page[size]=100');
    assert.equal(first.body.links.prev, undefined);
    assert.equal(first.body.links.next, undefined);
    assert.equal(first.body.meta.pagination.next, undefined);
  });

  test('newest first', async () => {
    const res = await t.request('GET', '/v2/parties?page[size]=2');
    const times = res.body.data.map((p: any) => p.attributes.created_at);
    assert.ok(times[0] >= times[1]);
  });

  test('page[size] over 100 is clamped; bad numbers → 400 naming the parameter', async () => {
    const big = await t.request('GET', '/v2/parties?page[size]=5000');
    assert.equal(big.status, 200);
    assert.match(big.body.links.current, /page%5Bsize%5D=100/);
    for (const [q, p] of [['page[number]=0', 'page[number]'], ['page[size]=abc', 'page[size]'], ['page[number]=-1', 'page[number]']]) {
      const res = await t.request('GET', `/v2/parties?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.errors[0].source.parameter, p);
    }
  });
});

describe('accounts are isolated', () => {
  test("another account's party is invisible: 404 on get and patch, absent from lists", async () => {
    const b = await t.newAccount('Account B');
    const created = await t.request('POST', '/v2/parties', { key: b.key, body: party('Secret Customer') });
    assert.equal(created.status, 201);
    const id = created.body.data.id;
    assert.equal((await t.request('GET', `/v2/parties/${id}`)).status, 404);
    assert.equal((await t.request('PATCH', `/v2/parties/${id}`, { body: party('Stolen') })).status, 404);
    const list = await t.request('GET', '/v2/parties?page[size]=100');
    assert.ok(!list.body.data.some((p: any) => p.id === id));
    // B may reuse a name A already has: names are unique per account only.
    assert.equal((await t.request('POST', '/v2/parties', { key: b.key, body: party('Page Co 1') })).status, 201);
    assert.equal((await t.request('GET', `/v2/parties/${id}`, { key: b.key })).body.data.attributes.company_name, 'Secret Customer');
  });

  test('a malformed id is a 404, not a 500', async () => {
    assert.equal((await t.request('GET', '/v2/parties/not-a-uuid')).status, 404);
    assert.equal((await t.request('GET', `/v2/parties/${'9'.repeat(150)}`)).status, 404);
  });
});

describe('operability', () => {
  test('healthz and readyz', async () => {
    assert.equal((await t.request('GET', '/healthz', { key: null })).status, 200);
    const ready = await t.request('GET', '/readyz', { key: null });
    assert.equal(ready.status, 200);
    assert.equal(ready.body.database, 'ok');
  });

  test('the OpenAPI 3.1 document describes the served routes', async () => {
    const res = await t.request('GET', '/v2/openapi.json', { key: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    assert.ok(res.body.paths['/v2/parties'].post.requestBody);
    assert.ok(res.body.paths['/v2/parties/{id}'].patch);
    const schema = res.body.paths['/v2/parties'].post.requestBody.content['application/vnd.api+json'].schema;
    // type may be left out (reference clients do), so only attributes is required.
    assert.deepEqual(schema.properties.data.required, ['attributes']);
    assert.deepEqual(schema.properties.data.properties.type.const, 'party');
  });
});
