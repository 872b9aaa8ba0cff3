// One bad event never costs the good ones: a DCSA carrier on loopback answers with good events
// and events svc cannot read; the good ones become milestones, each bad one is kept with its
// reason (raw_events), counted (data_quality, /metrics), and the tracking request succeeds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { PromData } from 'prom2javascript';
import { DAY } from '../../src/domain/time-units.ts';
import { startDcsaCarrier, type DcsaCarrier } from '../support/dcsa-carrier.ts';
import { connectMcp, withMcp } from '../support/mcp.ts';
import { parseExposition } from '../support/prometheus.ts';
import { startTrackingHarness, type TrackingHarness } from '../support/tracking.ts';

const TOKEN = 'metrics-token-0123456789-abcdef';
const CONTAINER = 'APZU4812090';

let t: TrackingHarness;
let carrier: DcsaCarrier;

before(async () => {
  carrier = await startDcsaCarrier();
  t = await startTrackingHarness([{ scac: 'MAEU', baseUrl: carrier.origin, version: '2.2', timeoutMs: 5000 }], { metricsEndpoint: { token: TOKEN }, beforeListen: withMcp() });
});
after(async () => {
  await t.close();
  await carrier.close();
});

const iso = (daysAgo: number) => new Date(t.clock.now().getTime() - daysAgo * DAY).toISOString().replace(/\.\d+Z$/, '+00:00');

/** A clean 2.2 journey Rotterdam → New York, one container, as a carrier publishes it. */
function journey(booking: string, container = CONTAINER): Record<string, unknown>[] {
  const call = (locode: string) => ({ UNLocationCode: locode, facilityTypeCode: 'POTE', modeOfTransport: 'VESSEL', exportVoyageNumber: '101W', importVoyageNumber: '101W', vessel: { vesselIMONumber: '9321483', vesselName: 'KING OF THE SEAS' } });
  const base = (id: string, daysAgo: number) => ({ eventID: `${booking}-${id}`, eventCreatedDateTime: iso(daysAgo), eventDateTime: iso(daysAgo), eventClassifierCode: 'ACT', documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: booking }] });
  const equipment = (id: string, code: string, daysAgo: number, locode: string, empty: 'EMPTY' | 'LADEN') => ({
    ...base(id, daysAgo), eventType: 'EQUIPMENT', equipmentEventTypeCode: code, equipmentReference: container, ISOEquipmentCode: '45G1', emptyIndicatorCode: empty, transportCall: call(locode),
  });
  const transport = (id: string, code: string, daysAgo: number, locode: string) => ({ ...base(id, daysAgo), eventType: 'TRANSPORT', transportEventTypeCode: code, transportCall: call(locode) });
  return [
    equipment('e1', 'GTOT', 20, 'NLRTM', 'EMPTY'),
    equipment('e2', 'GTIN', 18, 'NLRTM', 'LADEN'),
    equipment('e3', 'LOAD', 16, 'NLRTM', 'LADEN'),
    transport('t1', 'DEPA', 15, 'NLRTM'),
    transport('t2', 'ARRI', 5, 'USNYC'),
    equipment('e4', 'DISC', 4, 'USNYC', 'LADEN'),
  ];
}

/** Events no validating reader can take, each for one reason. */
function badEvents(booking: string) {
  const [, gateIn] = journey(booking);
  return {
    badDate: { ...gateIn, eventID: `${booking}-bad-date`, eventDateTime: '2021-02-30T10:00:00+01:00' },
    unknownType: { ...gateIn, eventID: `${booking}-bad-type`, eventType: 'EQUIPMNT' },
    missingCode: { ...gateIn, eventID: `${booking}-no-code`, equipmentEventTypeCode: undefined },
    notAnEvent: 'GTIN at Rotterdam',
  };
}

async function trackedShipment(booking: string) {
  const trId = await t.track('booking_number', booking, 'MAEU');
  await t.worker.drain();
  const tr = (await t.request('GET', `/v2/tracking_requests/${trId}`)).body.data;
  return { tr, shipmentId: tr.relationships.tracked_object.data?.id as string | undefined };
}

async function rejectedCounter(): Promise<Map<string, number>> {
  const res = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const family = (await parseExposition(await res.text())).svc_carrier_events_rejected_total;
  const series = (family?.data ?? []) as PromData[];
  return new Map(series.filter((s) => s.labels.scac === 'MAEU').map((s) => [s.labels.reason, s.value]));
}

test('the good events of an answer become milestones; each bad one is kept with its reason and counted', async () => {
  const bad = badEvents('BKREJ1');
  const good = journey('BKREJ1');
  carrier.answers.set('BKREJ1', [good[0], bad.badDate, good[1], bad.unknownType, good[2], bad.missingCode, good[3], bad.notAnEvent, good[4], good[5]]);
  const before = await rejectedCounter();

  const { tr, shipmentId } = await trackedShipment('BKREJ1');
  assert.equal(tr.attributes.status, 'created', JSON.stringify(tr.attributes));
  assert.equal(tr.attributes.failed_reason, null);
  assert.ok(shipmentId);

  const shipment = (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data;
  assert.equal(shipment.attributes.port_of_lading_locode, 'NLRTM');
  assert.equal(shipment.attributes.port_of_discharge_locode, 'USNYC');
  assert.deepEqual(shipment.attributes.data_quality, {
    rejected_events: [
      { data_source: 'shipping_line', reason: 'bad_date_time', count: 1 },
      { data_source: 'shipping_line', reason: 'missing_member', count: 1 },
      { data_source: 'shipping_line', reason: 'not_an_object', count: 1 },
      { data_source: 'shipping_line', reason: 'unknown_event_type', count: 1 },
    ],
  });

  const [container] = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data;
  const c = container.attributes;
  assert.equal(c.number, CONTAINER);
  for (const milestone of ['empty_out_at', 'pol_full_in_at', 'pol_vessel_loaded_at', 'pol_vessel_departed_at', 'pod_arrived_at', 'pod_discharged_at']) assert.ok(c[milestone], milestone);
  // The events naming this container, and the one naming none (about the whole shipment).
  assert.deepEqual(container.attributes.data_quality, { ...shipment.attributes.data_quality, number_check_digit_passed: true });

  const raw = (await t.request('GET', `/v2/containers/${container.id}/raw_events`)).body.data;
  assert.equal(raw.filter((r: any) => !r.attributes.rejected).length, 6, 'the six good events');
  const rejected = raw.filter((r: any) => r.attributes.rejected);
  assert.deepEqual(
    rejected.map((r: any) => [r.attributes.rejection.reason, r.attributes.rejection.field, r.attributes.event]).sort(),
    [
      ['bad_date_time', 'eventDateTime', null],
      ['missing_member', 'equipmentEventTypeCode', null],
      ['not_an_object', null, null],
      ['unknown_event_type', 'eventType', null],
    ],
  );
  const badDate = rejected.find((r: any) => r.attributes.rejection.reason === 'bad_date_time').attributes;
  assert.match(badDate.rejection.detail, /eventDateTime: not an ISO 8601 date-time: "2021-02-30T10:00:00\+01:00"/);
  assert.deepEqual(badDate.payload, bad.badDate, 'kept exactly as sent');
  assert.equal(badDate.original_event, 'EQUIPMENT GTIN');
  assert.equal(badDate.timestamp, null, 'no time shown for an event whose time could not be read');
  assert.deepEqual(
    raw.map((r: any) => r.attributes.index),
    raw.map((_: unknown, i: number) => i),
  );

  const after = await rejectedCounter();
  for (const reason of ['bad_date_time', 'missing_member', 'not_an_object', 'unknown_event_type']) assert.equal((after.get(reason) ?? 0) - (before.get(reason) ?? 0), 1, reason);

  // The same answer again (a refresh): nothing new to keep or count.
  await t.advance(1 * DAY, 2);
  assert.deepEqual(await rejectedCounter(), after);
  const again = (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data;
  assert.deepEqual(again.attributes.data_quality, shipment.attributes.data_quality);
});

test('a later answer with one bad event more adds it; the milestones stay', async () => {
  const good = journey('BKREJ2');
  carrier.answers.set('BKREJ2', good);
  const { shipmentId } = await trackedShipment('BKREJ2');
  const clean = (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data;
  assert.deepEqual(clean.attributes.data_quality, { rejected_events: [] });

  // The carrier sends a gate-out whose classifier is not a DCSA one beside the journey so far.
  const gateOut = { ...good[5], eventID: 'BKREJ2-gtot', equipmentEventTypeCode: 'GTOT', eventClassifierCode: 'ACTUAL', eventDateTime: iso(0), eventCreatedDateTime: iso(0) };
  carrier.answers.set('BKREJ2', [...good, gateOut]);
  await t.advance(2 * DAY, 4);
  const shipment = (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data;
  assert.deepEqual(shipment.attributes.data_quality.rejected_events, [{ data_source: 'shipping_line', reason: 'bad_value', count: 1 }]);
  assert.equal(shipment.attributes.port_of_discharge_locode, 'USNYC');
  const [container] = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data;
  assert.ok(container.attributes.pod_discharged_at);
  const raw = (await t.request('GET', `/v2/containers/${container.id}/raw_events`)).body.data;
  const rejection = raw.find((r: any) => r.attributes.rejected).attributes.rejection;
  assert.equal(rejection.field, 'eventClassifierCode');
  assert.match(rejection.detail, /BKREJ2-gtot/);
});

test('an answer with no usable event is unrecognized, and says why', async () => {
  const bad = badEvents('BKREJ3');
  carrier.answers.set('BKREJ3', [bad.badDate, bad.unknownType]);
  const trId = await t.track('booking_number', 'BKREJ3', 'MAEU');
  await t.worker.drain();
  const tr = (await t.request('GET', `/v2/tracking_requests/${trId}`)).body.data.attributes;
  assert.equal(tr.failed_reason, 'unrecognized_response');
  assert.equal(tr.is_retrying, true);
});

test('a container the carrier names after a rejected event about the whole shipment counts it too', async () => {
  const good = journey('BKREJ4');
  const bad = badEvents('BKREJ4');
  carrier.answers.set('BKREJ4', [...good, bad.notAnEvent]);
  const { shipmentId } = await trackedShipment('BKREJ4');
  // The next answer names a second box: loaded at Rotterdam with the first.
  const second = good.filter((e) => e.eventType === 'EQUIPMENT').map((e) => ({ ...e, eventID: `${e.eventID}-2`, equipmentReference: 'MSKU1234565' }));
  carrier.answers.set('BKREJ4', [...good, ...second, bad.notAnEvent]);
  await t.advance(2 * DAY, 4);
  const containers = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data;
  assert.deepEqual(containers.map((c: any) => c.attributes.number).sort(), [CONTAINER, 'MSKU1234565']);
  for (const c of containers) assert.deepEqual(c.attributes.data_quality.rejected_events, [{ data_source: 'shipping_line', reason: 'not_an_object', count: 1 }], c.attributes.number);
});

test('a container number whose check digit fails is kept as sent, and REST and MCP say it is not verified', async () => {
  // APZU4812090 (DCSA's samples) checks; APZU4812091 is the same box with its check digit wrong,
  // as a carrier's typing error would send it.
  const good = journey('BKREJ5');
  const typo = good.filter((e) => e.eventType === 'EQUIPMENT').map((e) => ({ ...e, eventID: `${e.eventID}-typo`, equipmentReference: 'APZU4812091' }));
  carrier.answers.set('BKREJ5', [...good, ...typo]);
  const { shipmentId } = await trackedShipment('BKREJ5');
  const containers = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data;
  const passed = new Map(containers.map((c: any) => [c.attributes.number, c.attributes.data_quality.number_check_digit_passed]));
  assert.deepEqual(Object.fromEntries(passed), { APZU4812090: true, APZU4812091: false });
  const bad = containers.find((c: any) => c.attributes.number === 'APZU4812091');
  assert.ok(bad.attributes.pod_discharged_at, 'its milestones are kept all the same');
  assert.equal((await t.request('GET', `/v2/containers/${bad.id}`)).body.data.attributes.data_quality.number_check_digit_passed, false);
  const shipment = (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data;
  assert.equal('number_check_digit_passed' in shipment.attributes.data_quality, false, 'a shipment has no number of its own to check');

  const mcp = await connectMcp(t);
  try {
    for (const c of containers) {
      const result: any = await mcp.client.callTool({ name: 'get_container', arguments: { id: c.id } });
      assert.equal(result.isError ?? false, false, JSON.stringify(result.content));
      assert.equal(result.structuredContent.number, c.attributes.number);
      assert.equal(result.structuredContent.numberCheckDigitPassed, passed.get(c.attributes.number), c.attributes.number);
    }
  } finally {
    await mcp.close();
  }
});
