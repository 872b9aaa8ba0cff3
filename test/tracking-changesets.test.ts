// container_updated_events say where their news came from: the carrier (the seal, at full-in) or
// the terminal of discharge (availability, holds, fees, last free day, appointment).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, HOUR } from '../src/domain/time-units.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { forFile } from './support/for-file.ts';

let t: TrackingHarness;
forFile(() => startTrackingHarness(), (s) => (t = s));

test("a seal that arrives with full-in is the shipping line's news; terminal changes stay the terminal's", async () => {
  // TEST-DIRECT is first looked up before its boxes are gated in, so the seal appears later.
  const id = await t.track('bill_of_lading', 'TEST-DIRECT', 'TEST');
  await t.worker.drain();
  await t.advance(30 * DAY, 120);
  const shipmentId = (await t.request('GET', `/v2/tracking_requests/${id}`)).body.data.relationships.tracked_object.data.id;
  const { rows } = await t.db.query<{ container_id: string; changeset: Record<string, unknown>; data_source: string; created_at: Date }>(
    `SELECT e.container_id, e.changeset, e.data_source, e.created_at FROM container_updated_events e JOIN containers c ON c.id = e.container_id
      WHERE c.shipment_id = $1 ORDER BY e.created_at`,
    [shipmentId],
  );
  const milestone = async (containerId: string, event: string) =>
    (await t.db.query<{ created_at: Date }>('SELECT created_at FROM transport_events WHERE container_id = $1 AND event = $2', [containerId, event])).rows[0]?.created_at;

  const seals = rows.filter((r) => Object.keys(r.changeset).join() === 'seal_number');
  assert.ok(seals.length >= 1, `a seal changeset: ${JSON.stringify(rows.map((r) => r.changeset))}`);
  for (const seal of seals) {
    assert.equal(seal.data_source, 'shipping_line', JSON.stringify(seal.changeset));
    assert.equal((seal.changeset.seal_number as unknown[])[0], null);
    // Recorded with full-in, long before the box reached the port of discharge.
    assert.equal(seal.created_at.getTime(), (await milestone(seal.container_id, 'container.transport.full_in'))?.getTime());
    assert.ok(seal.created_at < (await milestone(seal.container_id, 'container.transport.vessel_discharged'))!);
  }
  const terminal = rows.filter((r) => !seals.includes(r));
  assert.ok(terminal.length >= 1, 'terminal data at the port of discharge');
  for (const r of terminal) assert.equal(r.data_source, 'terminal', JSON.stringify(r.changeset));
});
