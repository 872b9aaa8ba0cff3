// North American rail: the railroads the carrier names on the rail leg's transport calls become the
// container's pod_rail_carrier_scac and ind_rail_carrier_scac.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY } from '../src/domain/time-units.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { forFile } from './support/for-file.ts';

let t: TrackingHarness;
forFile(() => startTrackingHarness(), (s) => (t = s));

test('TEST-RAIL: the container carries the rail carriers’ SCACs beside its rail times', async () => {
  const trId = await t.track('bill_of_lading', 'TEST-RAIL', 'TEST');
  await t.worker.drain();
  await t.advance(60 * DAY, 60);
  const shipmentId = (await t.request('GET', `/v2/tracking_requests/${trId}`)).body.data.relationships.tracked_object.data.id;
  const containers = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data;
  assert.ok(containers.length > 0);
  const truth = (await (await fetch(`${t.sandboxUrl}/sandbox/journeys/TEST/TEST-RAIL`)).json()) as any;
  const railroad = truth.legs.find((l: any) => l.mode === 'RAIL').rail_operator;
  for (const c of containers) {
    const a = c.attributes;
    assert.ok(a.pod_rail_loaded_at && a.pod_rail_departed_at && a.ind_rail_unloaded_at, 'rail times');
    assert.match(a.pod_rail_carrier_scac ?? '', /^(BNSF|UPRR|CSXT|NSRR|CNRU|CPRS)$/);
    assert.match(a.ind_rail_carrier_scac ?? '', /^(BNSF|UPRR|CSXT|NSRR|CNRU|CPRS)$/);
    assert.equal(a.pod_rail_carrier_scac, railroad, 'as the sandbox planned it');
    assert.equal(a.ind_rail_carrier_scac, railroad);
  }
});
