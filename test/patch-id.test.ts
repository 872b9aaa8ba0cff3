// PATCH of a record whose body names another record in data.id: 409 Conflict, as JSON:API requires.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

const party = (company_name: string, id?: string) => ({ data: { type: 'party', ...(id === undefined ? {} : { id }), attributes: { company_name } } });

test('a data.id other than the URL id is a 409 pointing at /data/id, and changes nothing', async () => {
  const a = (await t.request('POST', '/v2/parties', { body: party('Alpha Co') })).body.data;
  const b = (await t.request('POST', '/v2/parties', { body: party('Beta Co') })).body.data;

  const res = await t.request('PATCH', `/v2/parties/${a.id}`, { body: party('Gamma Co', b.id) });
  assert.equal(res.status, 409);
  assert.match(res.headers.get('content-type') ?? '', /^application\/vnd\.api\+json/);
  assert.equal(res.body.errors[0].status, '409');
  assert.deepEqual(res.body.errors[0].source, { pointer: '/data/id' });
  for (const p of [a, b]) assert.equal((await t.request('GET', `/v2/parties/${p.id}`)).body.data.attributes.company_name, p.attributes.company_name);

  // The same id (uuids ignore case) or none at all is an ordinary update.
  assert.equal((await t.request('PATCH', `/v2/parties/${a.id}`, { body: party('Alpha Renamed', a.id.toUpperCase()) })).status, 200);
  assert.equal((await t.request('PATCH', `/v2/parties/${a.id}`, { body: party('Alpha Again') })).status, 200);
});

test('every PATCH by id checks data.id the same way (webhooks, tracking requests)', async () => {
  const other = '00000000-0000-4000-8000-000000000000';
  const webhook = await t.request('POST', '/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url: 'https://93.184.216.34/hooks', events: ['tracking_request.failed'] } } } });
  assert.equal(webhook.status, 201, webhook.text);
  const patched = await t.request('PATCH', `/v2/webhooks/${webhook.body.data.id}`, { body: { data: { type: 'webhook', id: other, attributes: { active: false } } } });
  assert.equal(patched.status, 409);
  assert.equal((await t.request('GET', `/v2/webhooks/${webhook.body.data.id}`)).body.data.attributes.active, true);
});

test('tracking requests: created without data.type; a PATCH naming another id is a 409', async () => {
  const created = await t.request('POST', '/v2/tracking_requests', {
    body: { data: { attributes: { request_type: 'bill_of_lading', request_number: 'TYPELESS001', scac: 'TEST' } } },
  });
  assert.equal(created.status, 201, created.text);
  const id = created.body.data.id;
  const conflict = await t.request('PATCH', `/v2/tracking_requests/${id}`, { body: { data: { id: '00000000-0000-4000-8000-000000000000', attributes: { tags: ['x'] } } } });
  assert.equal(conflict.status, 409);
  const ok = await t.request('PATCH', `/v2/tracking_requests/${id}`, { body: { data: { id, attributes: { tags: ['x'] } } } });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body.data.attributes.tags, ['x']);
});
