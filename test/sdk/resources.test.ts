// The SDK against a real svc whose sandbox carrier has tracked a shipment: the methods of each
// resource, included records resolved as nested records, and every page of a list.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SvcClient, type Container, type Related, type Shipment, type TransportEvent } from '../../sdk/src/index.ts';
import { startTrackingHarness, type TrackingHarness } from '../support/tracking.ts';

let t: TrackingHarness;
let svc: SvcClient;
let trackingRequestId: string;
let shipment: Shipment;

before(async () => {
  t = await startTrackingHarness([], { webhooks: { allowInsecure: true } });
  svc = new SvcClient({ baseUrl: t.baseUrl, token: t.key });
  const created = await svc.trackingRequests.create({ request_type: 'bill_of_lading', request_number: 'TEST-TR-SUCCEEDED', scac: 'TEST' });
  assert.equal(created.status, 'pending');
  trackingRequestId = created.id;
  await t.advance(60_000, 3);
  shipment = (await svc.shipments.list()).items[0];
});
after(() => t.close());

const isRecord = (value: unknown, type: string): value is Related => typeof value === 'object' && value !== null && (value as Related).type === type;
/** A resolved record carries attributes; an unresolved reference only id and type. */
const resolved = (value: unknown, type: string) => isRecord(value, type) && Object.keys(value).some((k) => !['id', 'type'].includes(k));

describe('tracking requests', () => {
  test('get after tracking: created, with the shipment it made resolved when included', async () => {
    const request = await svc.trackingRequests.get(trackingRequestId, { include: ['tracked_object'] });
    assert.equal(request.status, 'created');
    assert.ok(resolved(request.tracked_object, 'shipment'));
    assert.equal((request.tracked_object as Related).bill_of_lading_number, 'TEST-TR-SUCCEEDED');
    // svc includes it by default, as the reference does.
    const plain = await svc.trackingRequests.get(trackingRequestId);
    assert.ok(resolved(plain.tracked_object, 'shipment'));
  });

  test('list, iterate and update', async () => {
    const page = await svc.trackingRequests.list();
    assert.equal(page.total, 1);
    assert.deepEqual(page.items.map((r) => r.id), [trackingRequestId]);
    const all = [];
    for await (const request of svc.trackingRequests.iterate()) all.push(request.id);
    assert.deepEqual(all, [trackingRequestId]);
    const updated = await svc.trackingRequests.update(trackingRequestId, { tags: ['sdk'], ref_numbers: ['PO-1'] });
    assert.deepEqual([updated.tags, updated.ref_numbers], [['sdk'], ['PO-1']]);
  });

  test('inferNumber predicts the line of a number', async () => {
    const result = await svc.trackingRequests.inferNumber('MSCU1234567');
    assert.equal(result.type, 'infer_number_results');
    assert.equal(result.number_type, 'container');
    assert.equal(result.shipping_line.selected?.scac, 'MSCU');
  });
});

describe('shipments', () => {
  test('get with include containers resolves each container', async () => {
    const got = await svc.shipments.get(shipment.id, { include: ['containers', 'port_of_lading'] });
    const containers = got.containers as Related[];
    assert.equal(containers.length, 2);
    assert.ok(containers.every((c) => resolved(c, 'container') && /^[A-Z]{4}\d{7}$/.test(String(c.number))));
    assert.ok(resolved(got.port_of_lading, 'port'));
    assert.equal((got.port_of_lading as Related).code, 'CNSHA');
    assert.deepEqual(Object.keys(got.pod_terminal as object), ['id', 'type'], 'not included: a reference');
    assert.equal(got.destination, null, 'an empty relationship is null');
  });

  test('list, iterate, update, stop and resume tracking', async () => {
    const ids = [];
    for await (const s of svc.shipments.iterate()) ids.push(s.id);
    assert.deepEqual(ids, [shipment.id]);
    const updated = await svc.shipments.update(shipment.id, { ref_numbers: ['REF-9'], tags: ['blue'] });
    assert.deepEqual([updated.ref_numbers, updated.tags], [['REF-9'], ['blue']]);
    const stopped = await svc.shipments.stopTracking(shipment.id);
    assert.notEqual(stopped.line_tracking_stopped_at, null);
    const resumed = await svc.shipments.resumeTracking(shipment.id);
    assert.equal(resumed.line_tracking_stopped_at, null);
  });
});

describe('containers', () => {
  let container: Container;
  before(async () => {
    // The container with the most events, so that its events take more than one page of 1.
    const count = (c: Container) => (c.transport_events as Related[]).length;
    container = (await svc.containers.list({ include: 'transport_events' })).items.sort((a, b) => count(b) - count(a))[0];
  });

  test('get resolves nested includes: shipment, shipment.port_of_lading, transport_events', async () => {
    const got = await svc.containers.get(container.id, { include: ['shipment', 'shipment.port_of_lading', 'transport_events'] });
    assert.ok(resolved(got.shipment, 'shipment'));
    const ship = got.shipment as Related;
    assert.equal(ship.bill_of_lading_number, 'TEST-TR-SUCCEEDED');
    assert.ok(resolved(ship.port_of_lading, 'port'), 'two levels deep');
    assert.equal((ship.port_of_lading as Related).code, 'CNSHA');
    assert.deepEqual(Object.keys(ship.port_of_discharge as object), ['id', 'type'], 'a relationship the include path does not name stays a reference');
    const events = got.transport_events as Related[];
    assert.ok(events.length > 0, 'events included');
    assert.ok(events.every((e) => resolved(e, 'transport_event') && /^[a-z_]+(\.[a-z_]+)+$/.test(String(e.event))));
    assert.deepEqual(Object.keys(events[0].shipment as object), ['id', 'type'], "the events' own relationships are not resolved without their paths");
  });

  test('list pages (page[size] 1 over 2 containers), iterate, update, transport and raw events', async () => {
    const first = await svc.containers.list({ 'page[size]': 1, include: 'shipment' });
    assert.equal(first.total, 2);
    assert.ok(resolved(first.items[0].shipment, 'shipment'));
    const second = await first.next();
    assert.ok(second && second.items.length === 1 && second.items[0].id !== first.items[0].id, 'the second page holds the other container');
    assert.ok(resolved(second.items[0].shipment, 'shipment'), 'the next page keeps the include');
    assert.equal(await second.next(), undefined);
    const numbers = [];
    for await (const c of svc.containers.iterate({ 'page[size]': 1 })) numbers.push(c.number);
    assert.equal(new Set(numbers).size, 2);

    const updated = await svc.containers.update(container.id, { ref_numbers: ['CREF'] });
    assert.deepEqual(updated.ref_numbers, ['CREF']);

    const events = await svc.containers.transportEvents(container.id, { 'page[size]': 1 });
    assert.ok(events.total > 1, `${events.total} events`);
    const all: TransportEvent[] = [];
    for await (const e of svc.containers.iterateTransportEvents(container.id, { 'page[size]': 1 })) all.push(e);
    assert.equal(all.length, events.total);
    const one = await svc.transportEvents.get(all[0].id, { include: ['location'] });
    assert.equal(one.event, all[0].event);
    assert.ok(resolved(one.location, 'port'));
    assert.notEqual((await svc.containers.rawEvents(container.id)).items.length, 0);
  });

  test('refresh answers what it started', async () => {
    assert.match((await svc.containers.refresh(container.id)).message, /^Started refresh/);
  });
});

describe('reference data and search', () => {
  test('search finds the shipment by its number; shipping lines, ports, terminals, health, the document', async () => {
    const found = await svc.search('TEST-TR-SUCC');
    assert.ok(found.some((r) => r.entity_type === 'shipment' && r.id === shipment.id));
    const lines = await svc.shippingLines.list();
    assert.ok(lines.length > 10, `${lines.length} lines`);
    const line = await svc.shippingLines.get(lines[0].id);
    assert.equal(line.scac, lines[0].scac);
    assert.equal((await svc.ports.get('USLAX')).code, 'USLAX');
    const terminal = (await svc.shipments.get(shipment.id)).pod_terminal as Related;
    assert.equal((await svc.terminals.get(terminal.id)).name, 'TRAPAC CONTAINER TERMINAL');
    assert.equal((await svc.health()).status, 'ok');
    assert.match((await svc.openApi()).openapi, /^3\.1/);
  });
});

describe('parties and webhooks', () => {
  test('create, get, update, and iterate over 3 pages of page[size]=2', async () => {
    const created = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) created.push(await svc.parties.create({ company_name: `Co ${name}` }));
    assert.equal((await svc.parties.get(created[0].id)).company_name, 'Co A');
    assert.equal((await svc.parties.update(created[0].id, { company_name: 'Co A2' })).company_name, 'Co A2');
    const first = await svc.parties.list({ 'page[size]': 2 });
    assert.deepEqual([first.items.length, first.total], [2, 5]);
    const names = [];
    for await (const party of svc.parties.iterate({ 'page[size]': 2 })) names.push(party.company_name);
    assert.deepEqual(names.sort(), ['Co A2', 'Co B', 'Co C', 'Co D', 'Co E']);
  });

  test('webhooks: create, list, update, delete; the events and IPs; an example notification', async () => {
    const events = await svc.webhooks.events();
    assert.ok(JSON.stringify(events).includes('tracking_request.succeeded'));
    await svc.webhooks.ips();
    const hook = await svc.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['tracking_request.succeeded'] });
    assert.equal(hook.active, true);
    assert.equal((await svc.webhooks.update(hook.id, { active: false })).active, false);
    assert.deepEqual((await svc.webhooks.list()).items.map((h) => h.id), [hook.id]);
    await svc.webhooks.delete(hook.id);
    assert.equal((await svc.webhooks.list()).total, 0);
    const example = await svc.webhookNotifications.example('tracking_request.succeeded');
    assert.ok(JSON.stringify(example).includes('tracking_request.succeeded'));
    assert.equal((await svc.webhookNotifications.list()).total, 0);
  });
});
