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

test("an inland arrival's place is a metro area, the port's moves ports: each relationship resolves as typed", async () => {
  const trId = await t.track('bill_of_lading', 'TEST-RAIL', 'TEST');
  await t.worker.drain();
  await t.advance(60 * DAY, 60);
  const shipmentId = (await t.request('GET', `/v2/tracking_requests/${trId}`)).body.data.relationships.tracked_object.data.id;
  const [container] = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data;
  const events = await t.request('GET', `/v2/containers/${container.id}/transport_events?page[size]=100&include=location`);
  assert.equal(events.status, 200, events.text);
  const placeOf = (name: string) => events.body.data.find((e: any) => e.attributes.event === `container.transport.${name}`)?.relationships.location.data;
  for (const name of ['rail_arrived', 'arrived_at_inland_destination']) assert.equal(placeOf(name)?.type, 'metro_area', name);
  for (const name of ['vessel_discharged', 'rail_loaded']) assert.equal(placeOf(name)?.type, 'port', name);
  // Every linkage has its record in included, of the same type, and the record's own route finds it.
  const included = new Set(events.body.included.map((r: any) => `${r.type}:${r.id}`));
  for (const e of events.body.data) {
    const place = e.relationships.location.data;
    if (!place) continue;
    assert.ok(included.has(`${place.type}:${place.id}`), `${e.attributes.event}: ${place.type} ${place.id} included`);
    const plural = place.type === 'port' ? 'ports' : 'metro_areas';
    assert.equal((await t.request('GET', `/v2/${plural}/${place.id}`)).status, 200, `${e.attributes.event} at ${e.attributes.location_locode}`);
  }
});
