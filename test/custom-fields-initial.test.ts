// initial_custom_fields on POST /v2/tracking_requests, through the real HTTP server, the sandbox
// carrier and the tracking worker: entries checked by the value rules when the request is sent (a
// 422 pointing at the entry, and no request kept), then set on the shipment and its containers
// when the request resolves: a container entry with a number on that container, one without on
// every container, never over a value the record has, and none whose definition went away.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { doc, spacedRequests } from './support/spaced-requests.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

let t: TrackingHarness;
/** The containers the sandbox gives TEST-TR-SUCCEEDED, learned by tracking it in an account of their own. */
let numbers: string[];

before(async () => {
  t = await startTrackingHarness();
  const scout = await t.newAccount('Scout');
  const res = await call('POST', '/v2/tracking_requests', { key: scout.key, body: trackingRequest('TEST-TR-SUCCEEDED') });
  assert.equal(res.status, 201, res.text);
  await t.worker.drain();
  const containers = await call('GET', '/v2/containers', { key: scout.key });
  numbers = containers.body.data.map((c: any) => c.attributes.number).sort();
  assert.equal(numbers.length, 2);
  await defineAll();
});
after(async () => {
  await t?.close();
});

const call = spacedRequests(() => t);

const trackingRequest = (number: string, initial?: unknown) =>
  doc('tracking_request', { request_type: 'bill_of_lading', request_number: number, scac: 'TEST', ...(initial === undefined ? {} : { initial_custom_fields: initial }) });

async function define(entity_type: string, api_slug: string, data_type: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', '/v2/custom_field_definitions', { body: doc('custom_field_definition', { entity_type, api_slug, display_name: api_slug, data_type, ...extra }) });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

/** The record's values by slug, from include=custom_fields. */
function valuesOf(record: any, included: any[]): Record<string, unknown> {
  return Object.fromEntries(record.relationships.custom_fields.data.map((d: any) => included.find((r) => r.id === d.id)).map((v: any) => [v.attributes.api_slug, v.attributes.value]));
}

let definitions: Record<string, string>;
async function defineAll(): Promise<void> {
  definitions = {
    booking_reference: await define('Shipment', 'booking_reference', 'short_text'),
    priority: await define('Shipment', 'priority', 'enum'),
    po_number: await define('Container', 'po_number', 'short_text'),
    customs_broker: await define('Container', 'customs_broker', 'short_text'),
    weight: await define('Container', 'weight', 'number', { validation: { max: 30000 } }),
    handling: await define('Container', 'handling', 'enum_multi'),
    broker_party: await define('Shipment', 'broker_party', 'reference', { reference_type: 'party' }),
  };
  for (const [definition, value] of [['priority', 'high'], ['handling', 'fragile'], ['handling', 'hazmat']]) {
    const res = await call('POST', `/v2/custom_field_definitions/${definitions[definition]}/options`, { body: doc('custom_field_option', { label: value.toUpperCase(), value }) });
    assert.equal(res.status, 201, res.text);
  }
}

test('every entry is checked when the request is sent: a 422 points at the entry at fault, and no request is kept', async () => {
  const other = await t.newAccount('Other');
  const otherParty = (await call('POST', '/v2/parties', { key: other.key, body: doc('party', { company_name: 'Not yours' }) })).body.data.id;
  const cases: [unknown, string, string][] = [
    [{ shipment: [{ api_slug: 'nope', value: 'x' }] }, '/data/attributes/initial_custom_fields/shipment/0/api_slug', 'not_found'],
    [{ shipment: [{ api_slug: 'booking_reference', value: 'ok' }, { api_slug: 'po_number', value: 'x' }] }, '/data/attributes/initial_custom_fields/shipment/1/api_slug', 'wrong_entity_type'],
    [{ containers: [{ api_slug: 'booking_reference', value: 'x' }] }, '/data/attributes/initial_custom_fields/containers/0/api_slug', 'wrong_entity_type'],
    [{ containers: [{ api_slug: 'po_number', value: 'ok' }, { api_slug: 'weight', value: 'heavy' }] }, '/data/attributes/initial_custom_fields/containers/1/value', 'invalid'],
    [{ containers: [{ api_slug: 'weight', value: 30001 }] }, '/data/attributes/initial_custom_fields/containers/0/value', 'too_big'],
    [{ containers: [{ api_slug: 'handling', value: ['fragile', 'wet'] }] }, '/data/attributes/initial_custom_fields/containers/0/value/1', 'not_an_option'],
    [{ shipment: [{ api_slug: 'priority', value: 'low' }] }, '/data/attributes/initial_custom_fields/shipment/0/value', 'not_an_option'],
    [{ shipment: [{ api_slug: 'broker_party', value: { type: 'party', id: otherParty } }] }, '/data/attributes/initial_custom_fields/shipment/0/value/id', 'not_found'],
    [{ containers: [{ api_slug: 'po_number', value: 'x', number: 'PO-1' }] }, '/data/attributes/initial_custom_fields/containers/0/number', 'invalid'],
    [{ containers: [{ api_slug: 'po_number', value: 'x' }, { api_slug: 'po_number', value: 'y', number: '' }] }, '/data/attributes/initial_custom_fields/containers/1/api_slug', 'duplicate'],
    [{ shipment: [{ api_slug: 'booking_reference', value: 'a' }, { api_slug: 'booking_reference', value: 'b' }] }, '/data/attributes/initial_custom_fields/shipment/1/api_slug', 'duplicate'],
    [{ shipment: [{ value: 'x' }] }, '/data/attributes/initial_custom_fields/shipment/0/api_slug', 'blank'],
  ];
  for (const [initial, pointer, code] of cases) {
    const res = await call('POST', '/v2/tracking_requests', { body: trackingRequest('TEST-TR-SUCCEEDED', initial) });
    assert.equal(res.status, 422, res.text);
    const [error] = res.body.errors;
    assert.equal(`${error.source?.pointer} ${error.code}`, `${pointer} ${code}`, JSON.stringify(initial));
    assert.equal(typeof error.detail, 'string');
  }
  assert.equal((await call('GET', '/v2/tracking_requests')).body.meta.total, 0, 'nothing kept');
});

test('once the request resolves, the shipment and its containers carry the values: by number first, then for every container', async () => {
  const party = (await call('POST', '/v2/parties', { body: doc('party', { company_name: 'Acme Brokerage' }) })).body.data.id;
  const [first, second] = numbers;
  const res = await call('POST', '/v2/tracking_requests', {
    body: trackingRequest('TEST-TR-SUCCEEDED', {
      shipment: [
        { api_slug: 'booking_reference', value: '  BOOK-2026-001 ' },
        { api_slug: 'priority', value: 'high' },
        { api_slug: 'broker_party', value: { type: 'party', id: party } },
      ],
      containers: [
        { api_slug: 'po_number', value: 'PO-123', number: first.toLowerCase().replace(/(\d{6})/, '$1-') },
        { api_slug: 'po_number', value: 'PO-ALL' },
        { api_slug: 'customs_broker', value: 'Acme Brokerage', number: '' },
        { api_slug: 'weight', value: '12500.50', number: second },
        { api_slug: 'handling', value: 'hazmat,fragile' },
        // A container the shipment does not have: nothing to set it on.
        { api_slug: 'weight', value: 1, number: 'ZZZU0000000' },
      ],
    }),
  });
  assert.equal(res.status, 201, res.text);
  // Staged, not yet set: there is no shipment.
  assert.equal((await call('GET', '/v2/custom_fields')).body.meta.total, 0);
  await t.worker.drain();
  const tr = (await call('GET', `/v2/tracking_requests/${res.body.data.id}`)).body.data;
  assert.equal(tr.attributes.status, 'created');
  const shipmentId = tr.relationships.tracked_object.data.id;
  const body = (await call('GET', `/v2/shipments/${shipmentId}?include=custom_fields,containers.custom_fields`)).body;
  assert.deepEqual(valuesOf(body.data, body.included), { booking_reference: 'BOOK-2026-001', priority: 'high', broker_party: { type: 'party', id: party } });
  const containers = body.included.filter((r: any) => r.type === 'container');
  const byNumber = Object.fromEntries(containers.map((c: any) => [c.attributes.number, valuesOf(c, body.included)]));
  assert.deepEqual(byNumber, {
    [first]: { po_number: 'PO-123', customs_broker: 'Acme Brokerage', handling: ['hazmat', 'fragile'] },
    [second]: { po_number: 'PO-ALL', customs_broker: 'Acme Brokerage', weight: 12500.5, handling: ['hazmat', 'fragile'] },
  });
  // Stored as any value is: the list filters find them.
  assert.equal((await call('GET', '/v2/containers?filter[custom_fields][po_number]=PO-ALL')).body.meta.total, 1);
  assert.equal((await call('GET', `/v2/shipments?filter[custom_fields][broker_party]=${party}`)).body.meta.total, 1);
  const display = body.included.filter((r: any) => r.type === 'custom_field' && r.attributes.api_slug === 'broker_party')[0].attributes.display_value;
  assert.equal(display, 'Acme Brokerage');
});

test('values whose definition went away, or that its rules no longer allow, are left out; the request still resolves', async () => {
  const account = await t.newAccount('Changing');
  const post = (path: string, body: unknown) => call('POST', path, { key: account.key, body });
  const defOf = async (attributes: Record<string, unknown>) => (await post('/v2/custom_field_definitions', doc('custom_field_definition', attributes))).body.data.id;
  const gone = await defOf({ entity_type: 'Shipment', api_slug: 'gone', display_name: 'Gone', data_type: 'short_text' });
  const tightened = await defOf({ entity_type: 'Shipment', api_slug: 'tightened', display_name: 'T', data_type: 'short_text' });
  await defOf({ entity_type: 'Shipment', api_slug: 'kept', display_name: 'Kept', data_type: 'short_text' });
  const res = await post(
    '/v2/tracking_requests',
    trackingRequest('TEST-TR-SUCCEEDED', { shipment: [{ api_slug: 'gone', value: 'a' }, { api_slug: 'tightened', value: 'far too long' }, { api_slug: 'kept', value: 'yes' }] }),
  );
  assert.equal(res.status, 201, res.text);
  assert.equal((await call('DELETE', `/v2/custom_field_definitions/${gone}`, { key: account.key })).status, 200);
  assert.equal((await call('PATCH', `/v2/custom_field_definitions/${tightened}`, { key: account.key, body: doc('custom_field_definition', { validation: { max_length: 5 } }) })).status, 200);
  await t.worker.drain();
  const tr = (await call('GET', `/v2/tracking_requests/${res.body.data.id}`, { key: account.key })).body.data;
  assert.equal(tr.attributes.status, 'created');
  const body = (await call('GET', `/v2/shipments/${tr.relationships.tracked_object.data.id}?include=custom_fields`, { key: account.key })).body;
  assert.deepEqual(valuesOf(body.data, body.included), { kept: 'yes' });
});

test('a shipment tracked again keeps the values users set on it; fields it has none of are set', async () => {
  const account = await t.newAccount('Again');
  const key = account.key;
  for (const slug of ['note', 'extra']) {
    assert.equal((await call('POST', '/v2/custom_field_definitions', { key, body: doc('custom_field_definition', { entity_type: 'Shipment', api_slug: slug, display_name: slug, data_type: 'short_text' }) })).status, 201);
  }
  const first = await call('POST', '/v2/tracking_requests', { key, body: trackingRequest('TEST-TR-SUCCEEDED', { shipment: [{ api_slug: 'note', value: 'from the first request' }] }) });
  await t.worker.drain();
  const shipmentId = (await call('GET', `/v2/tracking_requests/${first.body.data.id}`, { key })).body.data.relationships.tracked_object.data.id;
  assert.equal((await call('PATCH', `/v2/shipments/${shipmentId}/custom_fields/note`, { key, body: doc('custom_field', { value: 'set by a user' }) })).status, 200);
  assert.equal((await call('PATCH', `/v2/shipments/${shipmentId}/stop_tracking`, { key })).status, 200);
  const again = await call('POST', '/v2/tracking_requests', {
    key,
    body: trackingRequest('TEST-TR-SUCCEEDED', { shipment: [{ api_slug: 'note', value: 'from the second request' }, { api_slug: 'extra', value: 'new' }] }),
  });
  assert.equal(again.status, 201, again.text);
  await t.worker.drain();
  const tr = (await call('GET', `/v2/tracking_requests/${again.body.data.id}`, { key })).body.data;
  assert.equal(tr.relationships.tracked_object.data.id, shipmentId, 'the same journey: the same shipment');
  const body = (await call('GET', `/v2/shipments/${shipmentId}?include=custom_fields`, { key })).body;
  assert.deepEqual(valuesOf(body.data, body.included), { note: 'set by a user', extra: 'new' });
});
