// Tracking a number again leads back to the shipment svc already has for that journey (resumed if
// it had stopped), with the same container records; a box number on another journey is a new box.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { insertShipment, upsertContainer } from '../src/store/shipments.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { forFile } from './support/for-file.ts';

let t: TrackingHarness;
forFile(() => startTrackingHarness(), (s) => (t = s));

const getTr = async (id: string) => (await t.request('GET', `/v2/tracking_requests/${id}`)).body.data;
const shipmentOf = async (trId: string) => (await getTr(trId)).relationships.tracked_object.data?.id as string | undefined;
const containersOf = async (shipmentId: string) =>
  ((await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data as any[]).map((c) => ({ id: c.id as string, number: c.attributes.number as string })).sort((a, b) => a.number.localeCompare(b.number));

test('the same B/L tracked again after it stopped resumes the same shipment, with the same containers', async () => {
  const first = await t.track('bill_of_lading', 'TEST-DIRECT', 'TEST');
  await t.worker.drain();
  const shipmentId = (await shipmentOf(first))!;
  const boxes = await containersOf(shipmentId);
  assert.ok(boxes.length > 0);
  assert.equal((await t.request('PATCH', `/v2/shipments/${shipmentId}/stop_tracking`)).status, 200);
  assert.equal((await getTr(first)).attributes.status, 'tracking_stopped');

  const again = await t.track('bill_of_lading', 'test-direct', 'TEST', ['PO-AGAIN']);
  await t.worker.drain();
  const tr = await getTr(again);
  assert.equal(tr.attributes.status, 'created');
  assert.equal(tr.relationships.tracked_object.data.id, shipmentId, 'the existing shipment, not a new one');
  assert.equal((await t.request('GET', '/v2/shipments?filter[number]=TEST-DIRECT')).body.data.length, 1);
  assert.deepEqual(await containersOf(shipmentId), boxes, 'the same container records');
  const shipment = (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data.attributes;
  assert.equal(shipment.line_tracking_stopped_at, null, 'tracking resumed');
  assert.ok(shipment.ref_numbers.includes('PO-AGAIN'), 'the new request’s reference numbers are added');

  const found = (await t.request('GET', `/v2/search?query=${boxes[0].number}`)).body.data.filter((r: any) => r.attributes.entity_type === 'cargo');
  assert.deepEqual(found.map((r: any) => r.id), [boxes[0].id], 'search finds one copy of the box');

  // One of its boxes tracked by container number is the same journey too.
  const byBox = await t.track('container', boxes[0].number, 'TEST');
  await t.worker.drain();
  assert.equal(await shipmentOf(byBox), shipmentId);
  assert.deepEqual(await containersOf(shipmentId), boxes);
});

test('a container number svc knows from an earlier journey is a new container on the new journey', async () => {
  const number = 'SBXU7700014';
  // An earlier journey of the same box with the same line, tracking long since stopped.
  const old = await insertShipment(t.db, { account_id: t.accountId, scac: 'TEST', request_type: 'container', request_number: number, ref_numbers: [], customer_id: null, at: new Date('2025-01-01T00:00:00Z') });
  await t.db.query("UPDATE shipments SET bill_of_lading_number = 'TESTOLDJOURNEY1', line_tracking_stopped_at = $2, line_tracking_stopped_reason = 'all_containers_terminated' WHERE id = $1", [old.id, new Date('2025-03-01T00:00:00Z')]);
  const { row: oldBox } = await upsertContainer(t.db, { account_id: t.accountId, shipment_id: old.id, number, ref_numbers: [], state: { number }, at: new Date('2025-01-01T00:00:00Z') });

  const tr = await t.track('container', number, 'TEST');
  await t.worker.drain();
  const shipmentId = await shipmentOf(tr);
  assert.ok(shipmentId);
  assert.notEqual(shipmentId, old.id, 'the carrier names another B/L: another journey');
  const boxes = await containersOf(shipmentId);
  assert.equal(boxes.length, 1);
  assert.notEqual(boxes[0].id, oldBox.id);
  const stillStopped = (await t.request('GET', `/v2/shipments/${old.id}`)).body.data.attributes;
  assert.ok(stillStopped.line_tracking_stopped_at, 'the old journey stays stopped');
});
