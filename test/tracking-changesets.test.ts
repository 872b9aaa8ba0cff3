// container_updated_events are the terminal's news: the attributes the spec lists as alertable
// (availability, holds, fees, last free day, appointment, terminal), with data_source terminal.
// The seal, which the carrier reports at full-in, is written on the container but not announced.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY } from '../src/domain/time-units.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { forFile } from './support/for-file.ts';

let t: TrackingHarness;
forFile(() => startTrackingHarness(), (s) => (t = s));

const ALERTABLE = new Set(['available_for_pickup', 'pickup_lfd', 'fees_at_pod_terminal', 'holds_at_pod_terminal', 'pickup_appointment_at', 'pod_terminal']);

test("a seal that arrives with full-in is on the container, not announced; changesets hold the terminal's alertable attributes only", async () => {
  // TEST-DIRECT is first looked up before its boxes are gated in, so the seal appears later.
  const id = await t.track('bill_of_lading', 'TEST-DIRECT', 'TEST');
  await t.worker.drain();
  const shipmentId = (await t.request('GET', `/v2/tracking_requests/${id}`)).body.data.relationships.tracked_object.data.id;
  const seals = async () => (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data.map((c: any) => c.attributes.seal_number);
  assert.ok((await seals()).every((seal: unknown) => seal === null), 'no seal before full-in');
  await t.advance(30 * DAY, 120);
  assert.ok((await seals()).every((seal: unknown) => typeof seal === 'string' && seal.length > 0), 'each box has its seal');

  const { rows } = await t.db.query<{ changeset: Record<string, unknown>; data_source: string }>(
    'SELECT e.changeset, e.data_source FROM container_updated_events e JOIN containers c ON c.id = e.container_id WHERE c.shipment_id = $1',
    [shipmentId],
  );
  assert.ok(rows.length >= 1, 'terminal data at the port of discharge');
  for (const r of rows) {
    assert.equal(r.data_source, 'terminal', JSON.stringify(r.changeset));
    for (const attribute of Object.keys(r.changeset)) assert.ok(ALERTABLE.has(attribute), `${attribute} is not alertable: ${JSON.stringify(r.changeset)}`);
  }
  const { rows: announced } = await t.db.query("SELECT count(*)::int AS n FROM domain_events WHERE name = 'container.updated' AND shipment_id = $1", [shipmentId]);
  assert.equal(announced[0].n, rows.length, 'one container.updated per changeset');
});
