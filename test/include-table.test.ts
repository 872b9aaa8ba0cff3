// The include table: every relationship the reference service declares for a resource type can be
// included from svc (null or empty where svc has no data), names are looked up as own properties
// only, and reference aliases resolve to svc's relationships.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DAY } from '../src/domain/time-units.ts';
import { resourceTypes } from '../src/read-model/resource-types.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

const root = path.resolve(import.meta.dirname, '..');
const reference = JSON.parse(readFileSync(path.resolve(root, '../shared/reference/openapi.json'), 'utf8'));

type Schema = { properties?: Record<string, Schema>; items?: Schema; enum?: string[] };
/** Relationship name → the types its data may name, as the reference's component declares them. */
function referenceRelationships(type: string): Record<string, string[]> | undefined {
  const rels = (reference.components.schemas[type] as Schema | undefined)?.properties?.relationships?.properties;
  if (!rels) return undefined;
  return Object.fromEntries(
    Object.entries(rels).map(([name, rel]) => {
      const data = rel.properties?.data;
      return [name, (data?.items ?? data)?.properties?.type?.enum ?? []];
    }),
  );
}

test('every relationship the reference declares is in the include table, for every type svc serves or reaches', () => {
  const pending = Object.keys(resourceTypes).filter((type) => referenceRelationships(type));
  const checked = new Set<string>();
  const missing: string[] = [];
  while (pending.length > 0) {
    const type = pending.pop()!;
    if (checked.has(type)) continue;
    checked.add(type);
    const declared = referenceRelationships(type)!;
    const ours = Object.hasOwn(resourceTypes, type) ? resourceTypes[type].relationships : {};
    for (const [name, targets] of Object.entries(declared)) {
      if (!Object.hasOwn(ours, name)) missing.push(`${type}.${name}`);
      // A type the reference reaches from here (raw_event from container) must be known too.
      for (const target of targets) if (referenceRelationships(target)) pending.push(target);
    }
  }
  assert.deepEqual(missing, []);
  for (const type of ['shipment', 'container', 'tracking_request', 'transport_event', 'estimated_event', 'terminal', 'raw_event']) {
    assert.ok(checked.has(type), `${type} compared`);
  }
});

let t: TrackingHarness;
let shipmentId: string;
let containerId: string;
let trackingRequestId: string;

before(async () => {
  t = await startTrackingHarness();
  trackingRequestId = await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
  await t.worker.drain();
  await t.advance(10 * DAY, 10);
  const tr = (await t.request('GET', `/v2/tracking_requests/${trackingRequestId}`)).body.data;
  shipmentId = tr.relationships.tracked_object.data.id;
  const shipment = (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data;
  containerId = shipment.relationships.containers.data[0].id;
});
after(async () => {
  await t?.close();
});

describe('what a write answers', () => {
  test('PATCH of a container or shipment, and stop and resume, answer the record as GET shows it', async () => {
    const container = await t.request('PATCH', `/v2/containers/${containerId}`, { body: { data: { type: 'container', attributes: { ref_numbers: ['BOX-1'] } } } });
    assert.equal(container.status, 200, container.text);
    assert.ok(container.body.data.relationships.transport_events.data.length > 0);
    assert.deepEqual(container.body.data, (await t.request('GET', `/v2/containers/${containerId}`)).body.data);
    for (const [path, body] of [
      [`/v2/shipments/${shipmentId}`, { data: { type: 'shipment', attributes: { tags: ['written'] } } }],
      [`/v2/shipments/${shipmentId}/stop_tracking`, undefined],
      [`/v2/shipments/${shipmentId}/resume_tracking`, undefined],
    ] as const) {
      const written = await t.request('PATCH', path, body ? { body } : {});
      assert.equal(written.status, 200, `${path}: ${written.text}`);
      assert.deepEqual(written.body.data, (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data, path);
    }
  });
});

describe('relationships the reference declares', () => {
  test("a widely used client's default container include works on lists and single containers", async () => {
    for (const path of ['/v2/containers', `/v2/containers/${containerId}`]) {
      const res = await t.request('GET', `${path}?include=shipment,pod_terminal,pickup_facility`);
      assert.equal(res.status, 200, res.text);
      const container = Array.isArray(res.body.data) ? res.body.data[0] : res.body.data;
      assert.deepEqual(container.relationships.pickup_facility, { data: null });
      assert.deepEqual(container.relationships.raw_events, { data: [] });
      assert.ok(res.body.included.some((r: any) => r.type === 'shipment' && r.id === shipmentId));
    }
    const raw = await t.request('GET', `/v2/containers/${containerId}?include=raw_events,raw_events.location,raw_events.vessel,pickup_facility.port`);
    assert.equal(raw.status, 200, raw.text);
    assert.deepEqual(raw.body.included, [], 'nothing to include');
  });

  test("a container's events included along transport_events (read with them, not before) are the ones it names, in its order, however the include goes on", async () => {
    const bare = (await t.request('GET', `/v2/containers/${containerId}`)).body.data;
    const ids = bare.relationships.transport_events.data.map((r: any) => r.id);
    assert.ok(ids.length > 1, 'the container has events to order');
    for (const include of ['transport_events', 'shipment,pod_terminal,transport_events', 'transport_events.location,transport_events.vessel', 'transport_events,custom_fields']) {
      const res = await t.request('GET', `/v2/containers/${containerId}?include=${include}`);
      assert.equal(res.status, 200, res.text);
      // The same record, its relationships in the same order, as without the include (and
      // custom_fields after them when included).
      const { custom_fields: _values, ...relationships } = res.body.data.relationships;
      assert.deepEqual({ ...res.body.data, relationships }, bare, include);
      assert.deepEqual(Object.keys(res.body.data.relationships).slice(0, 4), ['shipment', 'pod_terminal', 'transport_events', 'pickup_facility'], include);
      assert.deepEqual(res.body.included.filter((r: any) => r.type === 'transport_event').map((r: any) => r.id), ids, include);
    }
    // An id no container has is still a 404 before an include the type has not is a 400.
    const unknown = await t.request('GET', `/v2/containers/00000000-0000-4000-8000-000000000000?include=transport_events`);
    assert.equal(unknown.status, 404, unknown.text);
    const refused = await t.request('GET', `/v2/containers/00000000-0000-4000-8000-000000000000?include=nope`);
    assert.equal(refused.status, 404, refused.text);
  });

  test("a shipment names who stopped its tracking (nobody: svc has no users), and it can be included", async () => {
    const res = await t.request('GET', `/v2/shipments/${shipmentId}?include=line_tracking_stopped_by_user,containers.pickup_facility`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data.relationships.line_tracking_stopped_by_user, { data: null });
  });

  test('include=shipment on a tracking request is tracked_object', async () => {
    for (const path of [`/v2/tracking_requests/${trackingRequestId}`, '/v2/tracking_requests']) {
      const alias = await t.request('GET', `${path}?include=shipment,shipment.containers`);
      const canonical = await t.request('GET', `${path}?include=tracked_object,tracked_object.containers`);
      assert.equal(alias.status, 200, alias.text);
      assert.deepEqual(alias.body.included, canonical.body.included);
      assert.deepEqual([...new Set(alias.body.included.map((r: any) => r.type))].sort(), ['container', 'shipment']);
    }
    // The relationship keeps its own name in the record.
    const record = (await t.request('GET', `/v2/tracking_requests/${trackingRequestId}?include=shipment`)).body.data;
    assert.deepEqual(Object.keys(record.relationships).sort(), ['customer', 'tracked_object']);
  });

  test('a tracking request includes its shipment by default, as the reference does; an empty include leaves it out', async () => {
    for (const path of [`/v2/tracking_requests/${trackingRequestId}`, '/v2/tracking_requests']) {
      const plain = await t.request('GET', path);
      assert.equal(plain.status, 200, plain.text);
      assert.deepEqual(plain.body.included.map((r: any) => [r.type, r.id]), [['shipment', shipmentId]]);
      const none = await t.request('GET', `${path}?include=`);
      assert.equal(none.status, 200, none.text);
      assert.equal(none.body.included, undefined);
    }
  });
});

describe('include names are own relationships only', () => {
  const inherited = ['__proto__', 'toString', 'constructor', 'valueOf', 'hasOwnProperty', 'constructor.prototype', '__proto__.polluted', 'shipment.__proto__', 'shipment.constructor.name', 'tracked_object.toString'];
  for (const name of inherited) {
    test(`include=${name} → 400 without internals`, async () => {
      for (const path of [`/v2/containers/${containerId}`, '/v2/tracking_requests', '/v2/webhook_notifications', '/v2/parties']) {
        const res = await t.request('GET', `${path}?include=${encodeURIComponent(name)}`);
        assert.equal(res.status, 400, `${path} ${res.text}`);
        assert.equal(res.body.errors[0].source.parameter, 'include');
        assert.doesNotMatch(res.body.errors[0].detail, /native code|function|\[object/);
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  }
});
