// A transshipment load sent before the next vessel appears in any other event (anchors §2.7
// row 9): carriers publish "full transshipment loaded" at the transshipment port days before the
// second ship's own calls. The load is the transshipment's, and the port is no port of discharge.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffSnapshot } from './diff.ts';
import { ctx, ev, nothingStored, snapshot } from './fixtures.ts';

const BOX = 'MSKU1234565';
const FIRST = { imo: '9321483', name: 'EMMA MAERSK' };
const SECOND = { imo: '9778791', name: 'MADRID MAERSK' };

const firstLeg = [
  ev({ id: '1', code: 'LOAD', at: '2026-03-01T00:00:00Z', locode: 'NLRTM', container: BOX, mode: 'VESSEL', vessel: FIRST }),
  ev({ id: '2', code: 'DEPA', at: '2026-03-01T10:00:00Z', locode: 'NLRTM', mode: 'VESSEL', vessel: FIRST }),
  ev({ id: '3', code: 'ARRI', at: '2026-03-20T00:00:00Z', locode: 'SGSIN', mode: 'VESSEL', vessel: FIRST }),
  ev({ id: '4', code: 'DISC', at: '2026-03-20T10:00:00Z', locode: 'SGSIN', container: BOX, mode: 'VESSEL', vessel: FIRST }),
];

const milestones = (events: ReturnType<typeof ev>[]) => {
  const diff = diffSnapshot(nothingStored(), snapshot(events), ctx);
  return { names: diff.transportEvents.map((t) => `${t.event.replace('container.transport.', '')} ${t.locode}`), pod: diff.shipment.port_of_discharge_locode };
};

const AT_TRANSSHIPMENT = ['vessel_loaded NLRTM', 'vessel_departed NLRTM', 'transshipment_arrived SGSIN', 'transshipment_discharged SGSIN', 'transshipment_loaded SGSIN'];

test('a load onto the next vessel, before any of its calls: a transshipment load, the port of discharge not known yet', () => {
  for (const vessel of [SECOND, undefined]) {
    const load = ev({ id: '5', code: 'LOAD', at: '2026-03-22T10:00:00Z', locode: 'SGSIN', container: BOX, mode: 'VESSEL', vessel });
    assert.deepEqual(milestones([...firstLeg, load]), { names: AT_TRANSSHIPMENT, pod: null }, vessel?.name ?? 'no vessel named');
  }
});

test('once the next vessel is planned to the port of discharge, the same load is still the transshipment load', () => {
  const load = ev({ id: '5', code: 'LOAD', at: '2026-03-22T10:00:00Z', locode: 'SGSIN', container: BOX, mode: 'VESSEL' });
  const planned = ev({ id: '6', code: 'ARRI', at: '2026-04-10T00:00:00Z', locode: 'AUSYD', mode: 'VESSEL', vessel: SECOND, classifier: 'EST' });
  assert.deepEqual(milestones([...firstLeg, load, planned]), { names: AT_TRANSSHIPMENT, pod: 'AUSYD' });
});

test('without a load after the discharge, the last port reached is the port of discharge', () => {
  assert.deepEqual(milestones(firstLeg), { names: ['vessel_loaded NLRTM', 'vessel_departed NLRTM', 'vessel_arrived SGSIN', 'vessel_discharged SGSIN'], pod: 'SGSIN' });
  // A planned load after it (an estimate) does not make it a transshipment port.
  const planned = ev({ id: '5', code: 'LOAD', at: '2026-03-22T10:00:00Z', locode: 'SGSIN', container: BOX, mode: 'VESSEL', classifier: 'EST' });
  assert.equal(milestones([...firstLeg, planned]).pod, 'SGSIN');
});
