// The served OpenAPI document describes every custom field operation as it answers: each of the
// 27 operations (the reference service's) is called, successes and refusals, and every response
// validates against the schema the document gives for its route and status.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestApp } from './support/app.ts';
import { checkedAppForFile, type OpenApiChecker } from './support/openapi.ts';
import { seedShipment } from './support/shipment-seeds.ts';

let t: TestApp;
let checker: OpenApiChecker;
checkedAppForFile((app, c) => {
  t = app;
  checker = c;
});

const doc = (type: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ body: { data: { type, attributes, ...extra } } });

async function call(method: string, path: string, template: string, options?: Parameters<OpenApiChecker['call']>[3]) {
  t.clock.advance(1000);
  return checker.call(method, path, template, options);
}

/** A 204 has no body to check: its status is what the document must list. */
async function callEmpty(method: string, path: string, template: string) {
  t.clock.advance(1000);
  const res = await t.request(method, path);
  assert.equal(res.status, 204, res.text);
  assert.ok(checker.doc.paths[template][method.toLowerCase()].responses['204'], `${method} ${template} documents 204`);
  checker.checked.add(`${method} ${template}`);
}

test('custom field definitions, options and values answer as the document says', async () => {
  const shipmentId = await seedShipment(t.db, t.accountId, t.clock.now(), { number: 'OASCF0001', scac: 'MAEU', containers: [{ number: 'MSCU1234565', status: 'new' }] });
  const containerId = (await t.db.query('SELECT id FROM containers WHERE shipment_id = $1', [shipmentId])).rows[0].id;
  const trackingRequestId = (
    await t.db.query(`INSERT INTO tracking_requests (account_id, request_number, request_type, scac, created_at, updated_at) VALUES ($1, 'OASTR1', 'bill_of_lading', 'MAEU', now(), now()) RETURNING id`, [t.accountId])
  ).rows[0].id;

  const D = '/v2/custom_field_definitions';
  const define = async (attributes: Record<string, unknown>) => (await call('POST', D, D, doc('custom_field_definition', attributes))).body.data;
  const kind = await define({ entity_type: 'Shipment', api_slug: 'kind', display_name: 'Kind', data_type: 'enum_multi' });
  const boxes = await define({ entity_type: 'Container', api_slug: 'box_note', display_name: 'Box note', data_type: 'short_text', validation: { max_length: 30 } });
  const due = await define({ entity_type: 'TrackingRequest', api_slug: 'due_on', display_name: 'Due', data_type: 'date', default_format: 'MM/DD/YYYY' });
  await call('POST', D, D, doc('custom_field_definition', { entity_type: 'Shipment', api_slug: 'Bad Slug', display_name: 'x', data_type: 'number' }));
  await call('GET', D, D);
  await call('GET', `${D}?filter[entity_type]=Shipment&filter[data_type]=enum_multi&filter[display_name]=Ki&page[size]=1`, D);
  await call('GET', `${D}?filter[data_type]=nope`, D);
  await call('GET', `${D}/${kind.id}`, `${D}/{id}`);
  await call('GET', `${D}/00000000-0000-0000-0000-000000000000`, `${D}/{id}`);
  await call('PATCH', `${D}/${kind.id}`, `${D}/{id}`, doc('custom_field_definition', { display_name: 'Kinds', description: 'What the shipment holds' }));
  await call('PATCH', `${D}/${kind.id}`, `${D}/{id}`, doc('custom_field_definition', { data_type: 'enum' }));

  const O = `${D}/{id}/options`;
  const options = `${D}/${kind.id}/options`;
  const dry = (await call('POST', options, O, doc('custom_field_option', { label: 'Dry', value: 'dry', position: 1 }))).body.data;
  await call('POST', options, O, doc('custom_field_option', { label: 'Reefer', value: 'reefer' }));
  await call('POST', options, O, doc('custom_field_option', { label: 'Again', value: 'dry' }));
  await call('GET', options, O);
  await call('GET', `${options}/${dry.id}`, `${O}/{option_id}`);
  await call('PATCH', `${options}/${dry.id}`, `${O}/{option_id}`, doc('custom_field_option', { label: 'Dry van' }));

  const F = '/v2/custom_fields';
  const flat = (await call('POST', F, F, doc('custom_field', { api_slug: 'box_note', value: 'fragile' }, { relationships: { entity: { data: { type: 'container', id: containerId } } } }))).body.data;
  await call('POST', F, F, doc('custom_field', { api_slug: 'box_note', value: 7 }, { relationships: { entity: { data: { type: 'container', id: containerId } } } }));
  await call('GET', F, F);
  await call('GET', `${F}?filter[entity_type]=Container&filter[entity_id]=${containerId}&filter[definition_id]=${boxes.id}`, F);
  await call('GET', `${F}/${flat.id}`, `${F}/{id}`);
  await call('PATCH', `${F}/${flat.id}`, `${F}/{id}`, doc('custom_field', { value: 'very fragile' }));

  for (const [path, id, slug, value] of [
    ['shipments', shipmentId, 'kind', ['dry', 'reefer']],
    ['containers', containerId, 'box_note', 'top load only'],
    ['tracking_requests', trackingRequestId, 'due_on', '12/24/2026'],
  ] as const) {
    const N = `/v2/${path}/{id}/custom_fields`;
    const base = `/v2/${path}/${id}/custom_fields`;
    await call('POST', base, N, doc('custom_field', { api_slug: slug, value }));
    await call('POST', base, N, doc('custom_field', { api_slug: 'no_such_field', value }));
    await call('GET', base, N);
    await call('PATCH', `${base}/${slug}`, `${N}/{api_slug}`, doc('custom_field', { value }));
    await call('PATCH', `${base}/no_such_field`, `${N}/{api_slug}`, doc('custom_field', { value }));
    await callEmpty('DELETE', `${base}/${slug}`, `${N}/{api_slug}`);
  }

  await call('GET', `/v2/shipments?filter[custom_fields][kind]=dry`, '/v2/shipments');
  await call('GET', `/v2/containers?filter[custom_fields][box_note]=x`, '/v2/containers');
  await call('GET', `/v2/shipments?filter[custom_fields][nope]=dry`, '/v2/shipments');

  await call('POST', `/v2/shipments/${shipmentId}/custom_fields`, '/v2/shipments/{id}/custom_fields', doc('custom_field', { api_slug: 'kind', value: ['reefer'] }));
  // The values included with shipments and containers, and staged by a tracking request.
  await call('POST', `/v2/containers/${containerId}/custom_fields`, '/v2/containers/{id}/custom_fields', doc('custom_field', { api_slug: 'box_note', value: 'keep dry' }));
  await call('GET', `/v2/shipments/${shipmentId}?include=custom_fields,containers.custom_fields,custom_fields.definition`, '/v2/shipments/{id}');
  await call('GET', '/v2/shipments?include=custom_fields', '/v2/shipments');
  await call('GET', `/v2/containers/${containerId}?include=custom_fields,shipment.custom_fields`, '/v2/containers/{id}');
  await call('GET', '/v2/containers?include=custom_fields', '/v2/containers');
  const initial = (value: unknown) =>
    doc('tracking_request', { request_type: 'bill_of_lading', request_number: 'OASTR2', scac: 'MAEU', initial_custom_fields: { shipment: [{ api_slug: 'kind', value }], containers: [{ api_slug: 'box_note', value: 'x', number: 'MSCU1234565' }] } });
  await call('POST', '/v2/tracking_requests', '/v2/tracking_requests', initial(['nope']));
  await call('POST', '/v2/tracking_requests', '/v2/tracking_requests', initial(['reefer']));
  // A validation the stored values break.
  await call('PATCH', `${D}/${boxes.id}`, `${D}/{id}`, doc('custom_field_definition', { validation: { max_length: 3 } }));
  await call('DELETE', `${options}/${dry.id}`, `${O}/{option_id}`);
  await call('DELETE', `${F}/${flat.id}`, `${F}/{id}`);
  await call('DELETE', `${D}/${due.id}`, `${D}/{id}`);
});

test('every custom field operation is in the document, and was checked above: the reference service’s 27', () => {
  const documented = Object.entries(checker.doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).flatMap(([method, op]: [string, any]) => (op.tags.includes('Custom fields') ? [`${method.toUpperCase()} ${path}`] : [])),
  );
  assert.equal(documented.length, 27, documented.join('\n'));
  assert.deepEqual(documented.filter((op) => !checker.checked.has(op)), []);
});
