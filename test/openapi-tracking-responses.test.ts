// The served OpenAPI document tells the truth about the tracking routes too: tracking requests,
// shipments, containers, transport and raw events, search and infer_number, driven for real
// against the sandbox carriers, validate member by member against the document (ajv, closed).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { DAY } from '../src/domain/time-units.ts';
import { openApiChecker, type CallOptions, type OpenApiChecker } from './support/openapi.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

const TAGS = new Set(['Tracking requests', 'Shipments', 'Containers', 'Search']);

let t: TrackingHarness;
let checker: OpenApiChecker;

before(async () => {
  t = await startTrackingHarness();
  checker = await openApiChecker(t);
});
after(async () => {
  await t.close();
});

const call = (method: string, path: string, template: string, options?: CallOptions) => checker.call(method, path, template, options);

const trBody = (number: string, extra: Record<string, unknown> = {}) => ({
  data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: number, scac: 'TEST', ...extra } },
});

test('every tracking route documents its successful answer', () => {
  const missing = Object.entries(checker.doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).flatMap(([method, op]: [string, any]) => {
      if (!op.tags?.some((tag: string) => TAGS.has(tag))) return [];
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2')) as [string, any] | undefined;
      return success?.[1].content ? [] : [`${method} ${path}`];
    }),
  );
  assert.deepEqual(missing, []);
});

test('tracking requests, shipments, containers, events, search and infer_number answer as documented', async () => {
  const party = (await t.request('POST', '/v2/parties', { body: { data: { type: 'party', attributes: { company_name: 'Documented Imports' } } } })).body.data;

  // Tracking requests: create (with a customer), a 422, then let the carrier answer.
  const created = await call('POST', '/v2/tracking_requests', '/v2/tracking_requests', {
    body: { data: { ...trBody('TEST-TR-SUCCEEDED', { ref_numbers: ['PO-1'] }).data, relationships: { customer: { data: { type: 'party', id: party.id } } } } },
  });
  assert.equal(created.status, 201);
  const trId = created.body.data.id as string;
  const holdsTr = (await call('POST', '/v2/tracking_requests', '/v2/tracking_requests', { body: trBody('TEST-HOLDS') })).body.data.id as string;
  // Its estimated arrival moves: estimated events.
  assert.equal((await call('POST', '/v2/tracking_requests', '/v2/tracking_requests', { body: trBody('TEST-DELAY') })).status, 201);
  assert.equal((await call('POST', '/v2/tracking_requests', '/v2/tracking_requests', { body: trBody('TEST-NO-SCAC', { scac: null }) })).status, 422);
  await call('GET', '/v2/tracking_requests', '/v2/tracking_requests');
  await call('GET', `/v2/tracking_requests/${trId}?include=tracked_object,customer`, '/v2/tracking_requests/{id}');
  await t.worker.drain();

  // About 30 days, a day at a time: milestones and terminal data accrue; TEST-HOLDS shows its holds for a while.
  let holdsShipment: string | undefined;
  let sawHolds = false;
  let sawFees = false;
  for (let day = 0; day < 30; day++) {
    await t.advance(DAY);
    holdsShipment ??= (await t.request('GET', `/v2/tracking_requests/${holdsTr}`)).body.data.relationships.tracked_object.data?.id;
    if (!holdsShipment) continue;
    const containers = await call('GET', `/v2/containers?filter[shipment_id]=${holdsShipment}`, '/v2/containers');
    sawHolds ||= containers.body.data.some((c: any) => c.attributes.holds_at_pod_terminal.length > 0);
    sawFees ||= containers.body.data.some((c: any) => c.attributes.fees_at_pod_terminal.length > 0);
  }
  assert.ok(sawHolds, 'TEST-HOLDS showed holds at its terminal, and they were checked');
  void sawFees; // TEST-HOLDS may or may not report fees; when it does they were checked too.

  const tr = await call('GET', `/v2/tracking_requests/${trId}?include=tracked_object,customer`, '/v2/tracking_requests/{id}');
  // Created, and by now stopped on its own (every container returned empty).
  assert.ok(['created', 'tracking_stopped'].includes(tr.body.data.attributes.status), tr.body.data.attributes.status);
  assert.deepEqual(tr.body.included.map((r: any) => r.type).sort(), ['party', 'shipment']);
  const list = await call('GET', '/v2/tracking_requests?include=tracked_object,customer&page[size]=1', '/v2/tracking_requests');
  assert.ok(list.body.links.next, 'a page with a next link');
  await call('GET', '/v2/tracking_requests?page[size]=1&page[number]=2', '/v2/tracking_requests');
  await call('PATCH', `/v2/tracking_requests/${trId}`, '/v2/tracking_requests/{id}', {
    body: { data: { type: 'tracking_request', id: trId, attributes: { ref_numbers: ['PO-1', 'PO-2'], tags: ['documented'] } } },
  });
  assert.equal((await call('GET', `/v2/tracking_requests/${randomUUID()}`, '/v2/tracking_requests/{id}')).status, 404);
  assert.equal((await call('PATCH', `/v2/tracking_requests/${randomUUID()}`, '/v2/tracking_requests/{id}', { body: { data: { type: 'tracking_request', attributes: { tags: ['x'] } } } })).status, 404);
  assert.equal((await call('PATCH', `/v2/tracking_requests/${trId}`, '/v2/tracking_requests/{id}', { body: { data: { type: 'tracking_request', attributes: { tags: [''] } } } })).status, 422);

  // Shipments.
  const shipmentId = tr.body.data.relationships.tracked_object.data.id as string;
  const shipmentIncludes = 'containers,port_of_lading,port_of_discharge,pod_terminal,destination,destination_terminal,customer';
  await call('GET', '/v2/shipments', '/v2/shipments');
  const shipments = await call('GET', `/v2/shipments?include=${shipmentIncludes}&page[size]=1`, '/v2/shipments');
  assert.ok(shipments.body.included.length > 0);
  const shipment = await call('GET', `/v2/shipments/${shipmentId}?include=${shipmentIncludes}`, '/v2/shipments/{id}');
  const shipmentAttributes = shipment.body.data.attributes;
  assert.ok(shipmentAttributes.pol_atd_at && shipmentAttributes.pod_ata_at, 'the shipment has sailed and arrived');
  const includedTypes = new Set(shipment.body.included.map((r: any) => r.type));
  for (const type of ['container', 'port', 'terminal']) assert.ok(includedTypes.has(type), `included has a ${type}`);
  await call('PATCH', `/v2/shipments/${shipmentId}`, '/v2/shipments/{id}', { body: { data: { type: 'shipment', id: shipmentId, attributes: { ref_numbers: ['BL-REF'], tags: ['hot'] } } } });
  assert.equal((await call('PATCH', `/v2/shipments/${shipmentId}`, '/v2/shipments/{id}', { body: { data: { type: 'shipment', attributes: { tags: 'hot' } } } })).status, 422);
  assert.equal((await call('GET', `/v2/shipments/${randomUUID()}`, '/v2/shipments/{id}')).status, 404);
  assert.equal((await call('PATCH', `/v2/shipments/${randomUUID()}`, '/v2/shipments/{id}', { body: { data: { type: 'shipment', attributes: { tags: ['x'] } } } })).status, 404);

  // Containers and their events (refresh before stopping: a stopped shipment is not refreshed).
  const containerId = shipment.body.data.relationships.containers.data[0].id as string;
  await call('GET', '/v2/containers', '/v2/containers');
  await call('GET', `/v2/containers?include=shipment,pod_terminal,transport_events&page[size]=1`, '/v2/containers');
  const container = await call('GET', `/v2/containers/${containerId}?include=shipment,pod_terminal,transport_events`, '/v2/containers/{id}');
  assert.ok(container.body.data.attributes.pod_discharged_at, 'the container was discharged');
  assert.ok(container.body.included.some((r: any) => r.type === 'transport_event'));
  assert.ok(container.body.included.some((r: any) => r.type === 'terminal'));
  await call('PATCH', `/v2/containers/${containerId}`, '/v2/containers/{id}', { body: { data: { type: 'container', id: containerId, attributes: { ref_numbers: ['C-REF'] } } } });
  assert.equal((await call('PATCH', `/v2/containers/${containerId}`, '/v2/containers/{id}', { body: { data: { type: 'container', attributes: {} } } })).status, 422);
  assert.equal((await call('GET', `/v2/containers/${randomUUID()}`, '/v2/containers/{id}')).status, 404);
  const events = await call('GET', `/v2/containers/${containerId}/transport_events`, '/v2/containers/{id}/transport_events');
  assert.ok(events.body.data.length > 0);
  await call('GET', `/v2/containers/${containerId}/transport_events?include=shipment,container,location,vessel,terminal&page[size]=2`, '/v2/containers/{id}/transport_events');
  assert.equal((await call('GET', `/v2/containers/${randomUUID()}/transport_events`, '/v2/containers/{id}/transport_events')).status, 404);
  const raw = await call('GET', `/v2/containers/${containerId}/raw_events`, '/v2/containers/{id}/raw_events');
  assert.ok(raw.body.data.length > 0);
  assert.equal((await call('GET', `/v2/containers/${randomUUID()}/raw_events`, '/v2/containers/{id}/raw_events')).status, 404);
  const eventId = events.body.data[0].id as string;
  await call('GET', `/v2/transport_events/${eventId}`, '/v2/transport_events/{id}');
  await call('GET', `/v2/transport_events/${eventId}?include=shipment,container,location,vessel,terminal`, '/v2/transport_events/{id}');
  assert.equal((await call('GET', `/v2/transport_events/${randomUUID()}`, '/v2/transport_events/{id}')).status, 404);
  // Estimated and container updated events, each where its links.self points.
  for (const table of ['estimated_events', 'container_updated_events']) {
    const template = `/v2/${table}/{id}`;
    const { rows } = await t.db.query(`SELECT id FROM ${table} ORDER BY created_at LIMIT 1`);
    assert.ok(rows[0], `${table}: one was recorded`);
    const shown = await call('GET', `/v2/${table}/${rows[0].id}?include=shipment`, template);
    assert.equal(shown.status, 200, shown.text);
    assert.equal(shown.body.data.links.self, `/v2/${table}/${rows[0].id}`);
    assert.deepEqual(shown.body.included.map((r: any) => r.type), ['shipment']);
    assert.equal((await call('GET', `/v2/${table}/${randomUUID()}`, template)).status, 404);
  }
  await call('PATCH', `/v2/containers/${containerId}/refresh`, '/v2/containers/{id}/refresh');
  assert.equal((await call('PATCH', `/v2/containers/${randomUUID()}/refresh`, '/v2/containers/{id}/refresh')).status, 404);

  // Stop and resume.
  const stopped = await call('PATCH', `/v2/shipments/${shipmentId}/stop_tracking`, '/v2/shipments/{id}/stop_tracking');
  assert.ok(stopped.body.data.attributes.line_tracking_stopped_at);
  await call('GET', `/v2/tracking_requests/${trId}`, '/v2/tracking_requests/{id}');
  await call('PATCH', `/v2/shipments/${shipmentId}/resume_tracking`, '/v2/shipments/{id}/resume_tracking');
  assert.equal((await call('PATCH', `/v2/shipments/${randomUUID()}/stop_tracking`, '/v2/shipments/{id}/stop_tracking')).status, 404);
  assert.equal((await call('PATCH', `/v2/shipments/${randomUUID()}/resume_tracking`, '/v2/shipments/{id}/resume_tracking')).status, 404);

  // Search: shipments, containers and tracking requests.
  const found = await call('GET', '/v2/search?query=TEST', '/v2/search');
  assert.ok(found.body.data.some((r: any) => r.attributes.entity_type === 'shipment'));
  await call('GET', `/v2/search?query=${encodeURIComponent(container.body.data.attributes.number)}`, '/v2/search');
  await call('POST', '/v2/tracking_requests', '/v2/tracking_requests', { body: trBody('TEST-PENDING-SEARCH', { ref_numbers: ['FINDME'] }) });
  const pending = await call('GET', '/v2/search?query=FINDME', '/v2/search');
  assert.ok(pending.body.data.some((r: any) => r.attributes.entity_type === 'tracking_request'));
  assert.equal((await call('GET', '/v2/search', '/v2/search')).status, 400);

  // infer_number: a container, a bill of lading, and a 422.
  await call('POST', '/v2/tracking_requests/infer_number', '/v2/tracking_requests/infer_number', { body: { number: 'MSCU1234566' } });
  await call('POST', '/v2/tracking_requests/infer_number', '/v2/tracking_requests/infer_number', { body: { number: 'MAEU123456789' } });
  assert.equal((await call('POST', '/v2/tracking_requests/infer_number', '/v2/tracking_requests/infer_number', { body: { number: '!!!' } })).status, 422);
});

test('every tracking operation was checked above', () => {
  const documented = Object.entries(checker.doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).flatMap(([method, op]: [string, any]) => (op.tags?.some((tag: string) => TAGS.has(tag)) ? [`${method.toUpperCase()} ${path}`] : [])),
  );
  assert.ok(documented.length >= 15, documented.join(', '));
  assert.deepEqual(documented.filter((op) => !checker.checked.has(op)), []);
});
