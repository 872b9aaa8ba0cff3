// Tracking engine bugs an audit found (issue 3), each shown end to end: real PostgreSQL, real
// HTTP, the sandbox carrier network, virtual time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../src/clock.ts';
import { DAY, HOUR, MINUTE } from '../src/domain/time-units.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { forFile } from './support/for-file.ts';

let t: TrackingHarness;
forFile(() => startTrackingHarness(), (s) => (t = s));

const getTr = async (h: TrackingHarness, id: string) => (await h.request('GET', `/v2/tracking_requests/${id}`)).body.data;
const shipmentOf = async (h: TrackingHarness, trId: string): Promise<string> => (await getTr(h, trId)).relationships.tracked_object.data.id;
const getShipment = async (h: TrackingHarness, id: string) => (await h.request('GET', `/v2/shipments/${id}`)).body.data;
const containersOf = async (h: TrackingHarness, shipmentId: string) => (await h.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data;

describe('search', () => {
  test('numbers match whatever their case, spaces and dashes, on both sides', async () => {
    const id = await t.track('bill_of_lading', 'TEST-RAIL', 'TEST', ['PO-2231 A']);
    await t.worker.drain();
    const shipmentId = await shipmentOf(t, id);
    const [container] = await containersOf(t, shipmentId);
    const number: string = container.attributes.number;
    const found = async (query: string) => (await t.request('GET', `/v2/search?query=${encodeURIComponent(query)}`)).body.data.map((r: any) => r.id);
    for (const query of ['TEST-RAIL', 'test rail', 'testrail', 'st-ra', 'po 2231a', 'PO2231-A']) {
      assert.ok((await found(query)).includes(shipmentId), `${query} finds the shipment`);
    }
    assert.ok((await found(`${number.slice(0, 4)}-${number.slice(4, 10)}-${number.slice(10)}`.toLowerCase())).includes(container.id), 'a container written with dashes');
    assert.deepEqual(await found(' - '), [], 'nothing but separators matches nothing');
  });
});

describe('the duplicate rule', () => {
  const attributes = { request_type: 'bill_of_lading', request_number: 'TEST-BL-LATE', scac: 'TEST' };
  const post = (number = attributes.request_number) => t.request('POST', '/v2/tracking_requests', { body: { data: { type: 'tracking_request', attributes: { ...attributes, request_number: number } } } });

  test('refused while the first is pending or created; one awaiting its manifest gives way (failed, duplicate) and never sticks', async () => {
    const first = await t.track(attributes.request_type, attributes.request_number, attributes.scac);
    const whilePending = await post('test-bl-late');
    assert.equal(whilePending.status, 422, whilePending.text);
    assert.equal(whilePending.body.errors[0].code, 'duplicate');
    assert.equal(whilePending.body.errors[0].source.pointer, '/data/attributes/request_number');
    assert.match(whilePending.body.errors[0].detail, /TEST-BL-LATE.*TEST/);

    await t.worker.drain();
    assert.equal((await getTr(t, first)).attributes.status, 'awaiting_manifest');
    // While the worker holds it (its lease runs), it is being looked up: refused as pending.
    await t.db.query('UPDATE tracking_requests SET locked_until = $2 WHERE id = $1', [first, new Date(t.clock.now().getTime() + MINUTE)]);
    assert.equal((await post()).status, 422);
    await t.db.query('UPDATE tracking_requests SET locked_until = NULL WHERE id = $1', [first]);

    // The spec refuses a second request only while the first is pending or created.
    const second = await post('test-bl-late');
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.data.attributes.status, 'pending');
    const ended = await getTr(t, first);
    assert.deepEqual([ended.attributes.status, ended.attributes.failed_reason, ended.attributes.is_retrying], ['failed', 'duplicate', false]);
    const { rows: failed } = await t.db.query("SELECT count(*)::int AS n FROM domain_events WHERE name = 'tracking_request.failed' AND reference_id = $1", [first]);
    assert.equal(failed[0].n, 1, 'the end of the first request is announced');
    assert.equal((await post()).status, 422, 'the new one is pending: refused again');

    // The manifest comes: the new request becomes the shipment; the first stays as it ended.
    await t.advance(3 * DAY, 3);
    assert.equal((await getTr(t, second.body.data.id)).attributes.status, 'created');
    assert.equal((await getTr(t, first)).attributes.status, 'failed');
    const { rows } = await t.db.query("SELECT status, count(*)::int AS n FROM tracking_requests WHERE upper(request_number) = 'TEST-BL-LATE' GROUP BY status ORDER BY status");
    assert.deepEqual(rows, [{ status: 'created', n: 1 }, { status: 'failed', n: 1 }]);
  });
});

describe('containers and their transport events', () => {
  let shipmentId: string;
  before(async () => {
    const id = await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
    await t.worker.drain();
    shipmentId = await shipmentOf(t, id);
    // Through discharge and gate-out at Los Angeles.
    await t.advance(30 * DAY, 60);
  });

  test('GET /v2/containers?include=transport_events relates and includes each container’s events', async () => {
    const list = await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}&include=transport_events`);
    assert.equal(list.status, 200);
    assert.equal(list.body.data.length, 2);
    for (const c of list.body.data) {
      const ids: string[] = c.relationships.transport_events.data.map((r: any) => r.id);
      assert.ok(ids.length > 0, 'the relationship is there');
      const shown = await t.request('GET', `/v2/containers/${c.id}`);
      assert.deepEqual(ids, shown.body.data.relationships.transport_events.data.map((r: any) => r.id), 'the same as the single container');
      const included = new Set(list.body.included.filter((r: any) => r.type === 'transport_event').map((r: any) => r.id));
      for (const id of ids) assert.ok(included.has(id), `transport_event ${id} is included`);
    }
  });

  test('milestones at a terminal relate to it; links.self of a transport event resolves, for its account only', async () => {
    const [container] = await containersOf(t, shipmentId);
    const res = await t.request('GET', `/v2/containers/${container.id}/transport_events?page[size]=100&include=terminal`);
    const byName = new Map(res.body.data.map((e: any) => [e.attributes.event, e]));
    for (const name of ['container.transport.vessel_discharged', 'container.transport.full_out']) {
      const event: any = byName.get(name);
      assert.ok(event, `${name} in ${[...byName.keys()].join(', ')}`);
      const terminalId = event.relationships.terminal.data?.id;
      assert.ok(terminalId, `${name} relates to its terminal`);
      const terminal = res.body.included.find((r: any) => r.type === 'terminal' && r.id === terminalId);
      assert.ok(terminal, 'and the terminal is included');
      const port = await t.request('GET', `/v2/terminals/${terminalId}?include=port`);
      assert.equal(port.body.included[0].attributes.code, 'USLAX', 'a terminal of the port of discharge');
    }

    const event: any = byName.get('container.transport.vessel_discharged');
    const self = await t.request('GET', `${event.links.self}?include=terminal,container`);
    assert.equal(self.status, 200, self.text);
    assert.deepEqual(self.body.data, event);
    assert.deepEqual(self.body.included.map((r: any) => r.type).sort(), ['container', 'terminal']);
    const stranger = await t.newAccount('Stranger');
    assert.equal((await t.request('GET', event.links.self, { key: stranger.key })).status, 404);
    assert.equal((await t.request('GET', '/v2/transport_events/not-an-id')).status, 404);
  });
});

describe('terminal data while a box sits at the terminal', () => {
  test('TEST-HOLDS: holds released and availability reach svc with no new carrier event', async () => {
    const id = await t.track('bill_of_lading', 'TEST-HOLDS', 'TEST');
    await t.worker.drain();
    const shipmentId = await shipmentOf(t, id);
    const truth = await (await fetch(`${t.sandboxUrl}/sandbox/journeys/TEST/TEST-HOLDS`)).json();
    const plan = truth.terminal[0];
    const availableAt = new Date(plan.available_at).getTime();
    const lastRelease = Math.max(...plan.holds.map((h: any) => new Date(h.released_at).getTime()));

    // Hourly refreshes up to just before the box becomes available: held, not available.
    const until = availableAt - 5 * MINUTE;
    await t.advance(until - t.clock.now().getTime(), Math.ceil((until - t.clock.now().getTime()) / HOUR));
    const box = async () => (await containersOf(t, shipmentId)).find((c: any) => c.attributes.number === plan.container);
    const held = await box();
    assert.equal(held.attributes.available_for_pickup, false, JSON.stringify(held.attributes));
    assert.ok(lastRelease <= until, 'the holds are released by now');
    const since = (await getShipment(t, shipmentId)).attributes.line_tracking_last_succeeded_at;

    await t.advance(3 * HOUR, 3);
    // The carrier published nothing meanwhile: only the terminal can have told svc.
    const news = await fetch(`${t.sandboxUrl}/carriers/TEST/v2/events?transportDocumentReference=TEST-HOLDS&eventCreatedDateTime:gt=${since}`);
    assert.deepEqual(await news.json(), [], 'no carrier event since the last refresh before availability');
    const available = await box();
    assert.equal(available.attributes.available_for_pickup, true, JSON.stringify(available.attributes));
    assert.deepEqual(available.attributes.holds_at_pod_terminal.filter((h: any) => h.status === 'hold'), []);
  });
});

describe('tracking state written by the API', () => {
  test('the last 56 days without carrier news stop tracking (no_updates_at_line)', async () => {
    const id = await t.track('bill_of_lading', 'TESTU500001', 'TEST');
    await t.worker.drain();
    const shipmentId = await shipmentOf(t, id);
    // Nothing new since the last refresh, and the last change that long ago.
    const now = t.clock.now();
    await t.db.query('UPDATE shipments SET line_tracking_last_changed_at = $2 WHERE id = $1', [shipmentId, new Date(now.getTime() - 56 * DAY)]);
    await t.db.query('UPDATE shipment_refreshes SET next_refresh_at = $2 WHERE shipment_id = $1', [shipmentId, now]);
    await t.worker.drain();
    assert.equal((await getShipment(t, shipmentId)).attributes.line_tracking_stopped_reason, 'no_updates_at_line');
    assert.equal((await getTr(t, id)).attributes.status, 'tracking_stopped');
  });

  describe('with the API on real time and tracking on the sandbox’s accelerated time', () => {
    let h: TrackingHarness;
    before(async () => {
      // `svc serve` at 3600×: after 22 minutes the tracking clock is 55 days ahead of the API's.
      h = await startTrackingHarness([], { apiClock: new ManualClock('2026-09-22T12:00:00Z') });
    });
    after(async () => {
      await h.close();
    });

    test('stop and resume write tracking times: a resumed shipment at sea stays tracked', async () => {
      const id = await h.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
      await h.worker.drain();
      const shipmentId = await shipmentOf(h, id);
      await h.advance(7 * DAY, 14);
      let s = (await getShipment(h, shipmentId)).attributes;
      assert.ok(s.pol_atd_at && !s.pod_ata_at, `at sea: ${JSON.stringify(s)}`);

      s = (await h.request('PATCH', `/v2/shipments/${shipmentId}/stop_tracking`)).body.data.attributes;
      assert.equal(s.line_tracking_stopped_at, h.clock.now().toISOString());
      assert.ok(s.line_tracking_stopped_at >= s.line_tracking_last_attempted_at);

      s = (await h.request('PATCH', `/v2/shipments/${shipmentId}/resume_tracking`)).body.data.attributes;
      assert.equal(s.line_tracking_stopped_at, null);
      await h.worker.drain();
      s = (await getShipment(h, shipmentId)).attributes;
      assert.equal(s.line_tracking_last_attempted_at, h.clock.now().toISOString(), 'refreshed at once');
      assert.equal(s.line_tracking_stopped_reason, null);
      await h.advance(DAY, 2);
      assert.equal((await getShipment(h, shipmentId)).attributes.line_tracking_stopped_at, null);
      assert.equal((await getTr(h, id)).attributes.status, 'created');
    });

    test('PATCH /containers/{id}/refresh makes the shipment due on the tracking clock', async () => {
      const id = await h.track('bill_of_lading', 'TESTU500002', 'TEST');
      await h.worker.drain();
      const shipmentId = await shipmentOf(h, id);
      const [container] = await containersOf(h, shipmentId);
      assert.equal((await h.request('PATCH', `/v2/containers/${container.id}/refresh`)).status, 200);
      const { rows } = await h.db.query('SELECT next_refresh_at FROM shipment_refreshes WHERE shipment_id = $1', [shipmentId]);
      assert.equal(rows[0].next_refresh_at.toISOString(), h.clock.now().toISOString());
    });
  });
});
