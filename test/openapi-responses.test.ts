// The served OpenAPI document tells the truth: real responses, fetched over HTTP, validate against
// the response schema the document gives for their route and status (ajv, JSON Schema 2020-12).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './support/app.ts';
import { openApiChecker, type CallOptions, type OpenApiChecker } from './support/openapi.ts';
import { recordBurstEvents } from './support/webhook-burst.ts';

let t: TestApp;
let checker: OpenApiChecker;
let doc: any;

before(async () => {
  t = await startTestApp();
  checker = await openApiChecker(t);
  doc = checker.doc;
});
after(async () => {
  await t.close();
});

const call = (method: string, path: string, template: string, options?: CallOptions) => checker.call(method, path, template, options);

test('reference data responses match the document', async () => {
  await call('GET', '/v2/shipping_lines', '/v2/shipping_lines');
  await call('GET', '/v2/shipping_lines?search=maersk', '/v2/shipping_lines');
  await call('GET', '/v2/shipping_lines/MAEU', '/v2/shipping_lines/{id}');
  await call('GET', '/v2/ports/USLAX', '/v2/ports/{id}');
  await call('GET', '/v2/metro_areas/USCHI', '/v2/metro_areas/{id}');
  await call('GET', '/v2/terminals/Y124', '/v2/terminals/{id}');
  await call('GET', '/v2/terminals/Y124?include=port', '/v2/terminals/{id}');
  const { rows } = await t.db.query('SELECT r.id FROM rail_terminals r WHERE r.port_id IS NOT NULL AND r.metro_area_id IS NOT NULL LIMIT 1');
  await call('GET', `/v2/rail_terminals/${rows[0].id}?include=port,metro_area`, '/v2/rail_terminals/{id}');
  await call('GET', '/v2/vessels/9811000', '/v2/vessels/{id}');
  // Errors are described too.
  await call('GET', '/v2/ports/XXXXX', '/v2/ports/{id}');
  await call('GET', '/v2/terminals/Y124?include=shipment', '/v2/terminals/{id}');
});

test('party responses match the document', async () => {
  const created = await call('POST', '/v2/parties', '/v2/parties', { body: { data: { type: 'party', attributes: { company_name: 'Documented Co' } } } });
  await call('POST', '/v2/parties', '/v2/parties', { body: { data: { type: 'party', attributes: { company_name: 'Second Co' } } } });
  await call('POST', '/v2/parties', '/v2/parties', { body: { data: { type: 'party', attributes: {} } } });
  const id = created.body.data.id;
  await call('GET', '/v2/parties', '/v2/parties');
  await call('GET', '/v2/parties?page[size]=1&page[number]=2', '/v2/parties');
  await call('GET', `/v2/parties/${id}`, '/v2/parties/{id}');
  await call('PATCH', `/v2/parties/${id}`, '/v2/parties/{id}', { body: { data: { type: 'party', id, attributes: { company_name: 'Renamed Co' } } } });
});

test('webhook and webhook notification responses match the document', async () => {
  t.webhooks.allowInsecure = true;
  const attributes = { url: 'http://127.0.0.1:9/hooks', events: ['tracking_request.failed'], headers: [{ name: 'X-Tenant', value: 'a' }] };
  const created = await call('POST', '/v2/webhooks', '/v2/webhooks', { body: { data: { type: 'webhook', attributes } } });
  const id = created.body.data.id;
  await call('POST', '/v2/webhooks', '/v2/webhooks', { body: { data: { type: 'webhook', attributes: { ...attributes, events: ['nope'] } } } });
  await call('GET', '/v2/webhooks', '/v2/webhooks');
  await call('GET', `/v2/webhooks/${id}`, '/v2/webhooks/{id}');
  await call('PATCH', `/v2/webhooks/${id}`, '/v2/webhooks/{id}', { body: { data: { type: 'webhook', attributes: { active: true } } } });
  await call('GET', '/v2/webhooks/events', '/v2/webhooks/events');
  await call('GET', '/v2/webhooks/ips', '/v2/webhooks/ips');

  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, status, failed_reason, created_at, updated_at)
     VALUES ($1, 'DOC0001', 'bill_of_lading', 'TEST', 'failed', 'not_found', now(), now()) RETURNING id`,
    [t.accountId],
  );
  await recordBurstEvents(t.db, t.accountId, rows[0].id, 2);
  const list = await call('GET', '/v2/webhook_notifications', '/v2/webhook_notifications');
  const notification = list.body.data[0].id;
  await call('GET', `/v2/webhook_notifications?include=webhook,reference_object,webhook_notification_logs`, '/v2/webhook_notifications');
  await call('GET', `/v2/webhook_notifications/${notification}`, '/v2/webhook_notifications/{id}');
  await call('GET', `/v2/webhook_notifications/${notification}?include=webhook`, '/v2/webhook_notifications/{id}');
  await call('POST', `/v2/webhook_notifications/${notification}/redeliver`, '/v2/webhook_notifications/{id}/redeliver');
  await call('GET', '/v2/webhook_notifications/examples?event=container.transport.vessel_departed', '/v2/webhook_notifications/examples');
  await call('GET', '/v2/webhook_notifications/examples', '/v2/webhook_notifications/examples');
  await call('DELETE', `/v2/webhooks/${id}`, '/v2/webhooks/{id}');
});

test('the account of the key, and the refusal of a key that is not one, match the document', async () => {
  assert.equal((await call('GET', '/v2/account', '/v2/account')).status, 200);
  assert.equal((await call('GET', '/v2/account', '/v2/account', { key: 'svc_unknown' })).status, 401);
});

test('health, readiness and the document itself are in the document, answered as described', async () => {
  await call('GET', '/healthz', '/healthz', { key: null });
  await call('GET', '/readyz', '/readyz', { key: null });
  await call('GET', '/v2/openapi.json', '/v2/openapi.json', { key: null, open: true });
  for (const path of ['/healthz', '/readyz', '/v2/openapi.json']) assert.deepEqual(doc.paths[path].get.security, [], `${path} needs no key`);
});

test('no response schema forbids members it does not list, so responses can grow without contradicting it', () => {
  const closedOnes = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).flatMap(([method, op]: [string, any]) =>
      Object.entries(op.responses).flatMap(([status, r]: [string, any]) => (JSON.stringify(r).includes('"additionalProperties":false') ? [`${method} ${path} ${status}`] : [])),
    ),
  );
  assert.deepEqual(closedOnes, []);
  assert.ok(!JSON.stringify(doc.components.schemas).includes('"additionalProperties":false'));
});

test('every GET of reference data, parties, the account and health was checked above', () => {
  const tags = new Set(['Reference data', 'Parties', 'Account', 'Operability']);
  const documented = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    item.get && item.get.tags.some((tag: string) => tags.has(tag)) ? [`GET ${path}`] : [],
  );
  assert.ok(documented.length >= 10, documented.join(', '));
  assert.deepEqual(documented.filter((op) => !checker.checked.has(op)), []);
});
