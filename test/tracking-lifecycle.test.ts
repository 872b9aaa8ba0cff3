// The tracking lifecycle end to end: POST a number, the worker asks the sandbox carrier over DCSA,
// the request becomes a shipment whose containers advance through their milestones; every
// failure rule, in virtual time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DAY, HOUR } from '../src/domain/time-units.ts';
import { claimDueShipments } from '../src/store/shipments.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

let t: TrackingHarness;
before(async () => {
  // A carrier whose endpoint refuses connections: a real network failure, every time.
  t = await startTrackingHarness([{ scac: 'CMDU', baseUrl: 'http://127.0.0.1:9/carriers/CMDU', version: '2.2', timeoutMs: 2000 }]);
});
after(async () => {
  await t.close();
});

const getTr = async (id: string) => (await t.request('GET', `/v2/tracking_requests/${id}`)).body.data;
const eventsNamed = async (name: string, referenceId?: string) => {
  const { rows } = await t.db.query('SELECT * FROM domain_events WHERE name = $1 AND ($2::uuid IS NULL OR reference_id = $2)', [name, referenceId ?? null]);
  return rows;
};

describe('a journey', () => {
  let trId: string;
  let shipmentId: string;

  test('pending → created: shipment and containers exist, tracking_request.succeeded is recorded', async () => {
    trId = await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST', ['PO-778']);
    assert.equal((await getTr(trId)).attributes.status, 'pending');
    await t.worker.drain();
    const tr = await getTr(trId);
    assert.equal(tr.attributes.status, 'created');
    shipmentId = tr.relationships.tracked_object.data.id;
    assert.ok(shipmentId);
    assert.equal((await eventsNamed('tracking_request.succeeded', trId)).length, 1);

    const shipment = await t.request('GET', `/v2/shipments/${shipmentId}?include=containers,port_of_lading,port_of_discharge`);
    assert.equal(shipment.status, 200);
    const a = shipment.body.data.attributes;
    assert.equal(a.port_of_lading_locode, 'CNSHA');
    assert.equal(a.port_of_discharge_locode, 'USLAX');
    assert.equal(a.port_of_discharge_name, 'Los Angeles');
    assert.equal(a.shipping_line_scac, 'TEST');
    assert.deepEqual(a.ref_numbers, ['PO-778']);
    assert.ok(a.line_tracking_last_succeeded_at);
    assert.equal(shipment.body.data.relationships.containers.data.length, 2);
    const included = shipment.body.included.map((r: any) => `${r.type}:${r.attributes.code ?? r.attributes.number}`);
    assert.ok(included.includes('port:CNSHA') && included.includes('port:USLAX'), included.join());
    for (const c of shipment.body.included.filter((r: any) => r.type === 'container')) {
      assert.deepEqual(c.attributes.ref_numbers, ['PO-778'], 'reference numbers propagate to containers');
    }
    const tracked = await t.request('GET', `/v2/tracking_requests/${trId}?include=tracked_object`);
    assert.equal(tracked.body.included[0].id, shipmentId);
  });

  test('containers advance through milestones as time passes, each recorded once', async () => {
    const list = await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`);
    const container = list.body.data[0];
    const before = (await t.request('GET', `/v2/containers/${container.id}/transport_events?page[size]=100`)).body.data.length;
    await t.advance(60 * DAY, 120);
    const events = (await t.request('GET', `/v2/containers/${container.id}/transport_events?page[size]=100`)).body.data;
    const names = events.map((e: any) => e.attributes.event);
    assert.ok(events.length > before, `milestones arrived: ${names.join(', ')}`);
    for (const name of ['container.transport.vessel_loaded', 'container.transport.vessel_departed', 'container.transport.vessel_arrived', 'container.transport.vessel_discharged', 'container.transport.full_out', 'container.transport.empty_in']) {
      assert.equal(names.filter((n: string) => n === name).length, 1, `${name} once in ${names.join(', ')}`);
    }
    for (const e of events) {
      assert.ok(e.attributes.published_at, 'carrier publication time kept');
      assert.ok(e.attributes.created_at >= e.attributes.published_at, 'received after published');
    }
    const got = await t.request('GET', `/v2/containers/${container.id}`);
    assert.equal(got.body.data.attributes.current_status, 'empty_returned');
    const raw = await t.request('GET', `/v2/containers/${container.id}/raw_events`);
    assert.ok(raw.body.data.length >= events.length);
    assert.ok(raw.body.data.some((r: any) => r.attributes.event === 'vessel_loaded' && /EQUIPMENT LOAD/.test(r.attributes.original_event)));
  });

  test('tracking stops by itself once every container is back empty', async () => {
    const shipment = (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data;
    assert.equal(shipment.attributes.line_tracking_stopped_reason, 'all_containers_terminated');
    assert.equal((await getTr(trId)).attributes.status, 'tracking_stopped');
    assert.equal((await eventsNamed('tracking_request.tracking_stopped', trId)).length, 1);
  });

  test('refreshing again records nothing new', async () => {
    const count = async () => Number((await t.db.query('SELECT count(*) FROM domain_events')).rows[0].count);
    const n = await count();
    await t.db.query('UPDATE shipment_refreshes SET next_refresh_at = $2 WHERE shipment_id = $1', [shipmentId, t.clock.now()]);
    await t.worker.drain();
    assert.equal(await count(), n);
  });
});

describe('failures', () => {
  for (const [title, type, number] of [
    ['an unknown container number fails at once with not_found', 'container', 'SBXU0004040'],
    ['TEST-TR-FAILED: the carrier says the number does not exist, so it fails at once (not_found)', 'bill_of_lading', 'TEST-TR-FAILED'],
  ] as const) {
    test(title, async () => {
      const id = await t.track(type, number, 'TEST');
      await t.worker.drain();
      const tr = await getTr(id);
      assert.equal(tr.attributes.status, 'failed');
      assert.equal(tr.attributes.failed_reason, 'not_found');
      assert.equal((await eventsNamed('tracking_request.failed', id)).length, 1);
    });
  }

  test('a bill of lading never manifested: awaiting_manifest (announced once), rechecked daily, expired after 7 days', async () => {
    const id = await t.track('bill_of_lading', 'TEST-BL-NEVER', 'TEST');
    await t.worker.drain();
    assert.equal((await getTr(id)).attributes.status, 'awaiting_manifest');
    await t.advance(3 * DAY, 3);
    assert.equal((await getTr(id)).attributes.status, 'awaiting_manifest');
    assert.equal((await eventsNamed('tracking_request.awaiting_manifest', id)).length, 1);
    await t.advance(5 * DAY, 5);
    const tr = await getTr(id);
    assert.equal(tr.attributes.status, 'failed');
    assert.equal(tr.attributes.failed_reason, 'expired');
    assert.equal((await eventsNamed('tracking_request.failed', id)).length, 1);
  });

  test('a manifest that arrives later: awaiting_manifest, then created', async () => {
    const id = await t.track('bill_of_lading', 'TEST-BL-LATE', 'TEST');
    await t.worker.drain();
    assert.equal((await getTr(id)).attributes.status, 'awaiting_manifest');
    await t.advance(3 * DAY, 3);
    assert.equal((await getTr(id)).attributes.status, 'created');
  });

  test('invalid, withheld and cancelled numbers fail with their reasons', async () => {
    const cases: [string, string, string][] = [
      ['bill_of_lading', 'TEST-INVALID', 'invalid_number'],
      ['bill_of_lading', 'TEST-WITHHELD', 'data_unavailable'],
      ['booking_number', 'TEST-BKG-CANCELLED', 'booking_cancelled'],
    ];
    const ids = await Promise.all(cases.map(([type, number]) => t.track(type, number, 'TEST')));
    await t.advance(2 * DAY, 4);
    for (const [i, [, number, reason]] of cases.entries()) {
      const tr = await getTr(ids[i]);
      const outcome = tr.attributes.status === 'failed' ? tr.attributes.failed_reason : (await t.request('GET', `/v2/shipments/${tr.relationships.tracked_object.data?.id}`)).body.data?.attributes.line_tracking_stopped_reason;
      assert.equal(outcome, reason, `${number}: ${JSON.stringify(tr.attributes)}`);
    }
  });

  test('an unreachable carrier: pending and retrying with backoff, then retries_exhausted after about a day', async () => {
    const id = await t.track('bill_of_lading', 'CMDU123456789', 'CMDU');
    await t.worker.drain();
    let tr = await getTr(id);
    assert.equal(tr.attributes.status, 'pending');
    assert.equal(tr.attributes.is_retrying, true);
    assert.equal(tr.attributes.retry_count, 1);
    assert.equal(tr.attributes.failed_reason, 'shipping_line_unreachable');
    await t.advance(12 * HOUR, 48);
    tr = await getTr(id);
    assert.equal(tr.attributes.status, 'pending', 'still retrying after 12 hours');
    assert.ok(tr.attributes.retry_count >= 12 && tr.attributes.retry_count <= 14, String(tr.attributes.retry_count));
    // Retries are scheduled from when each attempt ran; the worker here runs every 30 minutes.
    await t.advance(20 * HOUR, 40);
    tr = await getTr(id);
    assert.equal(tr.attributes.status, 'failed', JSON.stringify(tr.attributes));
    assert.equal(tr.attributes.failed_reason, 'retries_exhausted');
  });
});

describe('scale-out and user stops', () => {
  test('two workers on one database never process the same request twice', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => t.track('bill_of_lading', `TESTU${100000 + i}`, 'TEST')));
    const other = t.newWorker();
    await Promise.all([t.worker.drain(), other.drain()]);
    for (const id of ids) {
      assert.equal((await getTr(id)).attributes.status, 'created');
      assert.equal((await eventsNamed('tracking_request.succeeded', id)).length, 1);
    }
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM shipments s JOIN tracking_requests r ON r.shipment_id = s.id WHERE r.id = ANY($1)', [ids]);
    assert.equal(rows[0].n, ids.length);
  });

  test('two workers claiming due shipments at once split them: none is refreshed by both', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => t.track('bill_of_lading', `TESTU${500000 + i}`, 'TEST')));
    await t.worker.drain();
    t.clock.advance(3 * 24 * HOUR); // every one of them is due again
    const now = t.clock.now();
    const lease = new Date(now.getTime() + 60_000);
    const [a, b] = await Promise.all([claimDueShipments(t.db, now, lease, 100), claimDueShipments(t.db, now, lease, 100)]);
    const mine = await t.db.query<{ id: string }>('SELECT s.id FROM shipments s JOIN tracking_requests r ON r.shipment_id = s.id WHERE r.id = ANY($1)', [ids]);
    const claimedA = new Set(a.map((s) => s.id));
    assert.deepEqual(b.filter((s) => claimedA.has(s.id)), [], 'no shipment claimed twice');
    const claimed = new Set([...claimedA, ...b.map((s) => s.id)]);
    for (const { id } of mine.rows) assert.ok(claimed.has(id), 'every due shipment claimed by one of them');
    // Claimed ones are leased: a third look finds none of them until the lease ends.
    const again = await claimDueShipments(t.db, now, lease, 100);
    assert.deepEqual(again.filter((s) => claimed.has(s.id)), []);
    t.clock.set(new Date(lease.getTime() + 1));
    await t.worker.drain();
  });

  test('stop_tracking and resume_tracking', async () => {
    const id = await t.track('bill_of_lading', 'TESTU200001', 'TEST');
    await t.worker.drain();
    const shipmentId = (await getTr(id)).relationships.tracked_object.data.id;
    const stopped = await t.request('PATCH', `/v2/shipments/${shipmentId}/stop_tracking`);
    assert.equal(stopped.status, 200);
    assert.equal(stopped.body.data.attributes.line_tracking_stopped_reason, 'cancelled_by_user');
    assert.equal((await getTr(id)).attributes.status, 'tracking_stopped');
    const resumed = await t.request('PATCH', `/v2/shipments/${shipmentId}/resume_tracking`);
    assert.equal(resumed.body.data.attributes.line_tracking_stopped_at, null);
    assert.equal((await getTr(id)).attributes.status, 'created');
    const other = await t.newAccount('Stranger');
    assert.equal((await t.request('PATCH', `/v2/shipments/${shipmentId}/stop_tracking`, { key: other.key })).status, 404);
  });
});

describe('refresh and search', () => {
  test('PATCH /containers/{id}/refresh makes the shipment due at once', async () => {
    const id = await t.track('bill_of_lading', 'TESTU300001', 'TEST', ['ACME-PO-42']);
    await t.worker.drain();
    const shipmentId = (await getTr(id)).relationships.tracked_object.data.id;
    const container = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data[0];
    const res = await t.request('PATCH', `/v2/containers/${container.id}/refresh`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    assert.ok(res.body.message);
    const { rows } = await t.db.query('SELECT next_refresh_at FROM shipment_refreshes WHERE shipment_id = $1', [shipmentId]);
    assert.ok(rows[0].next_refresh_at <= t.clock.now());
    const done = await t.worker.runDue();
    assert.equal(done.shipments, 1);
  });

  test('search finds shipments, containers and requests by number or reference; query is required', async () => {
    const id = await t.track('bill_of_lading', 'TESTU300002', 'TEST', ['SEARCH-REF-9']);
    await t.worker.drain();
    const shipmentId = (await getTr(id)).relationships.tracked_object.data.id;
    const container = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data[0];
    const byRef = await t.request('GET', '/v2/search?query=search-ref-9');
    assert.equal(byRef.status, 200);
    assert.deepEqual(byRef.body.data.map((r: any) => r.attributes.entity_type), ['shipment', ...byRef.body.data.slice(1).map(() => 'cargo')]);
    const byContainer = await t.request('GET', `/v2/search?query=${container.attributes.number.slice(0, 4)} ${container.attributes.number.slice(4)}`);
    assert.ok(byContainer.body.data.some((r: any) => r.id === container.id && r.attributes.entity_type === 'cargo'));
    const pending = await t.track('bill_of_lading', 'TESTU300003', 'TEST');
    assert.ok((await t.request('GET', '/v2/search?query=TESTU300003')).body.data.some((r: any) => r.id === pending && r.attributes.entity_type === 'tracking_request'));
    const missing = await t.request('GET', '/v2/search');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errors[0].source.parameter, 'query');
    const other = await t.newAccount('Searcher');
    assert.deepEqual((await t.request('GET', '/v2/search?query=SEARCH-REF-9', { key: other.key })).body.data, []);
  });
});

describe('carrier push', () => {
  test('new shipments subscribe at the carrier; a signed push makes its shipment due at once', async () => {
    const id = await t.track('bill_of_lading', 'TESTU400001', 'TEST');
    await t.worker.drain();
    const shipmentId = (await getTr(id)).relationships.tracked_object.data.id;
    assert.ok((await t.db.query('SELECT carrier_subscription_id FROM shipments WHERE id = $1', [shipmentId])).rows[0].carrier_subscription_id, 'subscribed');
    // Every scheduled refresh is far away; meanwhile the carriers publish and push.
    await t.db.query('UPDATE shipment_refreshes SET next_refresh_at = $1 WHERE next_refresh_at IS NOT NULL', [new Date(t.clock.now().getTime() + 30 * DAY)]);
    t.clock.advance(3 * DAY);
    const before = t.deliveries.length;
    await t.sandbox.sandbox.tick();
    const pushed = t.deliveries.slice(before);
    assert.ok(pushed.length > 0, 'the sandbox pushed news');
    assert.ok(pushed.every((d) => d.status === 204), JSON.stringify(pushed));
    const ids = [...new Set(pushed.map((d) => d.callbackUrl.split('/').at(-1)))];
    // Shipments no longer tracked ignore pushes; every tracked one is now due.
    const { rows } = await t.db.query(
      'SELECT r.next_refresh_at FROM shipments s JOIN shipment_refreshes r ON r.shipment_id = s.id WHERE s.id = ANY($1) AND s.line_tracking_stopped_at IS NULL',
      [ids],
    );
    assert.ok(rows.length > 0);
    for (const r of rows) assert.ok(r.next_refresh_at.getTime() <= t.clock.now().getTime(), 'the push made its shipment due');
    assert.equal((await t.worker.runDue(100)).shipments, rows.length);
  });

  test('a callback without a valid signature is refused', async () => {
    const { rows } = await t.db.query('SELECT id FROM shipments WHERE carrier_subscription_id IS NOT NULL LIMIT 1');
    const post = (headers: Record<string, string>) =>
      fetch(`${t.baseUrl}/carrier-callbacks/${rows[0].id}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '[]' });
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ 'notification-signature': `sha256=${'0'.repeat(64)}` })).status, 401);
    assert.equal((await fetch(`${t.baseUrl}/carrier-callbacks/not-a-shipment`, { method: 'POST', body: '[]' })).status, 401);
  });
});
