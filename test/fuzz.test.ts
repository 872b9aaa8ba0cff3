// No input, however malformed, yields a 500: random methods, paths, query strings, headers and
// bodies against every route that exists, through the real HTTP server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { v2Routes } from '../src/http/app.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

const templates = [...v2Routes().map((r) => r.url), '/v2/openapi.json', '/healthz', '/readyz', '/v2', '/'];

const segment = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom('%', '%zz', '%00', '..', '%2F', 'USLAX', '9811000', 'MAEU', "'; drop table parties; --", '🚢', 'a'.repeat(300)),
);

const pathArb = fc.oneof(
  fc.tuple(fc.constantFrom(...templates), fc.array(segment, { minLength: 3, maxLength: 3 })).map(([tpl, segs]) => {
    let i = 0;
    return tpl.replace(/:\w+/g, () => segs[i++]);
  }),
  fc.array(segment, { maxLength: 4 }).map((segs) => `/v2/${segs.join('/')}`),
);

const queryKey = fc.constantFrom('page[number]', 'page[size]', 'page%5Bsize%5D', 'include', 'search', 'filter[status]', 'q', 'page', 'page[', '%', 'include[]');
const queryValue = fc.oneof(fc.string({ maxLength: 30 }).map(encodeURIComponent), fc.constantFrom('0', '-1', '1e9', '99999999999999', 'abc', '', '%', 'party,party.x', '.', ',,,'));
const queryArb = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&') : ''));

const bodyArb = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.record({ data: fc.record({ type: fc.constantFrom('party', 'x', 1), attributes: fc.dictionary(fc.constantFrom('company_name', 'x'), fc.jsonValue()) }, { requiredKeys: [] }) }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('{', '{"data":', 'null', '[]', '"x"', '\u0000', '{"data":{"type":"party","attributes":{"company_name":"a\\u0000b"}}}', '{"data":{"type":"party","attributes":{"company_name":"\\ud800"}}}', '{"data":{"type":"party","attributes":{"company_name":"' + 'x'.repeat(500) + '"}}}'),
);

const contentType = fc.constantFrom('application/vnd.api+json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/vnd.api+json; ext=x', 'multipart/form-data', '');
const method = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD');

test('random requests never get a 5xx, and every error is a JSON:API error document', async () => {
  await fc.assert(
    fc.asyncProperty(method, pathArb, queryArb, bodyArb, contentType, fc.constantFrom('valid', 'none', 'junk'), async (m, path, query, body, ctype, auth) => {
      t.clock.advance(1000); // keeps the key far from its rate limit
      const headers: Record<string, string> = {};
      if (auth === 'valid') headers.authorization = `Token ${t.key}`;
      if (auth === 'junk') headers.authorization = 'Token ' + 'x'.repeat(30);
      const sendBody = body !== undefined && m !== 'GET' && m !== 'HEAD';
      if (sendBody && ctype) headers['content-type'] = ctype;
      const res = await fetch(t.baseUrl + path + query, { method: m, headers, body: sendBody ? body : undefined });
      const text = await res.text();
      assert.ok(res.status < 500, `${m} ${path}${query} → ${res.status} ${text}`);
      if (res.status >= 400 && m !== 'HEAD') {
        const doc = JSON.parse(text);
        assert.ok(Array.isArray(doc.errors) && doc.errors.length > 0, `${m} ${path}${query}: ${text}`);
        for (const e of doc.errors) {
          assert.equal(e.status, String(res.status));
          assert.equal(typeof e.title, 'string');
        }
      }
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
  );
});
