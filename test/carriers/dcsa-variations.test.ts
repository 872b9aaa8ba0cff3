// The carrier variations of DCSA events svc reads (src/carriers/dcsa/variations.ts and the places
// its table names), each from a real sample or a documented shape, with its source.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { readEventPage } from '../../src/carriers/dcsa/normalize.ts';
import { decodeSizeType } from '../../src/domain/tracking/equipment.ts';
import { verifiedImo } from '../../src/domain/tracking/imo.ts';

const SHARED = fileURLToPath(new URL('../../../shared/reference/dcsa/', import.meta.url));
const sample = (file: string): any => JSON.parse(readFileSync(`${SHARED}${file}`, 'utf8'));
const clone = <T>(value: T): T => structuredClone(value);

test('an eventID sent as a number is read as its digits', () => {
  // samples/10 (DCSA Conformance-Gateway, tnt-220-response-wrong-event-ids.json): eventID 123456789.
  const page = readEventPage(sample('samples/10-dcsa-conformance-tnt-220-response-wrong-event-ids.json'), '2.2');
  assert.deepEqual(page.rejected, []);
  const numeric = page.events.find((e) => e.id === '123456789');
  assert.ok(numeric);
  assert.equal((numeric.raw as any).eventID, 123456789, 'the payload stays as sent');
  // The spelling of the captured carrier answer ("eventId as a number").
  const { eventID, ...rest } = sample('tnt-220-response.json')[0];
  assert.equal(eventID, '3cecb101-7a1a-43a4-9d62-e88a131651e2');
  assert.deepEqual(readEventPage([{ ...rest, eventId: 42 }], '2.2').events.map((e) => e.id), ['42']);
});

test('UNLocationCode spelt unLocationCode, at the call, in its location or the event location, is read', () => {
  // The spelling a large carrier's captured answer used (issue: "the carrier's own key spellings
  // (eventId as a number, unLocationCode)"), applied to DCSA's own 2.2 sample (tnt-220-response.json).
  const events = sample('tnt-220-response.json');
  const load = clone(events[2]);
  load.transportCall.unLocationCode = load.transportCall.UNLocationCode;
  delete load.transportCall.UNLocationCode;
  load.eventLocation.unLocationCode = load.eventLocation.UNLocationCode;
  delete load.eventLocation.UNLocationCode;
  const arrival = clone(events[3]);
  arrival.transportCall.location.unLocationCode = arrival.transportCall.location.UNLocationCode;
  delete arrival.transportCall.location.UNLocationCode;
  delete arrival.transportCall.UNLocationCode;
  const page = readEventPage([load, arrival], '2.2');
  assert.deepEqual(page.events.map((e) => e.locode), ['FRPAR', 'FRPAR']);
  assert.equal((page.events[0].raw as any).transportCall.unLocationCode, 'FRPAR', 'the payload keeps the carrier spelling');
});

test('a terminal given as facilitySMDGCode is read as an SMDG facility code', () => {
  // DCSA's OVS and JIT standards name a terminal `facilitySMDGCode` (dcsaorg/DCSA-OVS,
  // FacilitySMDGLocationTO: locationName, UNLocationCode, locationType, facilitySMDGCode); carriers
  // reuse their location objects. Applied to DCSA's 2.2 sample, whose terminal is ADT (SMDG).
  const [arrival] = sample('tnt-220-response.json');
  const call = clone(arrival);
  assert.equal(readEventPage([call], '2.2').events[0].facilitySmdgCode, 'ADT', 'as sent: facilityCode and its list');
  delete call.transportCall.facilityCode;
  delete call.transportCall.facilityCodeListProvider;
  call.transportCall.facilitySMDGCode = 'ADT';
  assert.equal(readEventPage([call], '2.2').events[0].facilitySmdgCode, 'ADT');
});

test('eventType and the code member swapped are swapped back only when unambiguous', () => {
  // The captured answer: one of 14 events with eventType and equipmentEventTypeCode swapped.
  const [, , load] = sample('tnt-220-response.json');
  const swapped = { ...clone(load), eventType: 'LOAD', equipmentEventTypeCode: 'EQUIPMENT' };
  const [event] = readEventPage([swapped], '2.2').events;
  assert.deepEqual([event.type, event.code, event.equipmentReference], ['EQUIPMENT', 'LOAD', 'APZU4812090']);
  // Two code members naming types: which was meant is in doubt, and the event is rejected.
  const doubtful = { ...swapped, transportEventTypeCode: 'TRANSPORT' };
  assert.equal(readEventPage([doubtful], '2.2').rejected[0]?.kind, 'unknown_event_type');
});

test('a 3.0.0-Beta-1 event (metadata and payload) is read as the event it wraps; a retraction is left out', () => {
  // Shape: DCSA-OpenAPI tnt/v3/README.md (v3.0.0-Beta-1: "Restructured the Event in a metadata
  // section and a payload section", "retractedEventID"), and dcsaorg/DCSA-TNT EventMetadataTO
  // (eventID, eventCreatedDateTime, eventType, retractedEventID).
  const [arrival] = sample('tnt-220-response.json');
  const { eventID, eventCreatedDateTime, eventType, ...payload } = clone(arrival);
  const wrapped = { metadata: { eventID, eventCreatedDateTime, eventType }, payload };
  const retraction = { metadata: { eventID: 'r-1', eventCreatedDateTime, eventType, retractedEventID: eventID }, payload };
  for (const version of ['2.2', '3.0'] as const) {
    const page = readEventPage([wrapped, retraction], version);
    assert.deepEqual(page.rejected, [], version);
    assert.deepEqual(page.events.map((e) => [e.id, e.type, e.code, e.locode]), [[eventID, 'TRANSPORT', 'ARRI', 'FRPAR']], version);
    assert.deepEqual(page.events[0].raw, wrapped);
  }
});

test('one eventID on events of different kinds keeps each; the same event sent again stays one', () => {
  // samples/12 (DCSA conformance tnt-v22-response.json): ARRI, DRFT and LOAD share one eventID.
  const shared = readEventPage(sample('samples/12-dcsa-conformance-tnt-v22-response.json'), '2.2').events;
  assert.equal(new Set(shared.map((e) => e.id)).size, 3);
  assert.equal(shared[0].id, '3cecb101-7a1a-43a4-9d62-e88a131651e2', 'the first keeps the id as sent');
  // samples/10: byte-identical duplicates keep one id (applied once: tracking keeps one per id).
  const repeated = readEventPage(sample('samples/10-dcsa-conformance-tnt-220-response-wrong-event-ids.json'), '2.2').events;
  assert.equal(new Set(repeated.map((e) => e.id)).size, 5);
});

test('offsets in timestamps: +08:30, +01:00 and Z are read as instants, the offset kept', () => {
  // samples/12: eventDateTime 2019-11-12T07:41:00+08:30, eventCreatedDateTime with +01:00.
  const [arrival] = readEventPage(sample('samples/12-dcsa-conformance-tnt-v22-response.json'), '2.2').events;
  assert.equal(arrival.occurredAt.toISOString(), '2019-11-11T23:11:00.000Z');
  assert.equal(arrival.utcOffset, '+08:30');
  assert.equal(arrival.publishedAt.toISOString(), '2021-01-09T13:12:56.000Z');
});

test('3.0 movementType is read from the equipment details', () => {
  // tnt-300-response.json (DCSA conformance 3.0): an EMPTY gate-in at a depot, movementType IMPORT;
  // tnt-300-response-nextpage.json: a LADEN discharge, movementType TRANSSHIPMENT.
  const [, , gateIn] = readEventPage(sample('tnt-300-response.json'), '3.0').events;
  const [, , discharge] = readEventPage(sample('tnt-300-response-nextpage.json'), '3.0').events;
  assert.deepEqual([gateIn.code, gateIn.movementType, discharge.code, discharge.movementType], ['GTIN', 'IMPORT', 'DISC', 'TRANSSHIPMENT']);
});

test('ISO 6346 size-type codes of both editions give equipment type and length', () => {
  // 1984 edition, as decoded by matts-place.com/intermodal/part1/codes_legacy.htm ("4310 decodes
  // as 4 = nominal length 40 feet, 3 = 8.5 feet tall with chassis tunnel, 10 = closed container
  // … with passive vents"; 4510: "greater than 8.5 feet tall"), and containerhandbuch.de 3.4.
  assert.deepEqual(decodeSizeType('4310'), { equipment_type: 'dry', equipment_length: 40, equipment_height: 'standard' });
  assert.deepEqual(decodeSizeType('4510'), { equipment_type: 'dry', equipment_length: 40, equipment_height: 'high_cube' });
  assert.deepEqual(decodeSizeType('2210'), { equipment_type: 'dry', equipment_length: 20, equipment_height: 'standard' });
  assert.deepEqual(decodeSizeType('2232'), { equipment_type: 'reefer', equipment_length: 20, equipment_height: 'standard' });
  // 1995 edition, as DCSA's samples send it (tnt-300-response.json: 45G1; samples/11: 22GP).
  assert.deepEqual(decodeSizeType('45G1'), { equipment_type: 'dry', equipment_length: 40, equipment_height: 'high_cube' });
  assert.deepEqual(decodeSizeType('22GP'), { equipment_type: 'dry', equipment_length: 20, equipment_height: 'standard' });
});

test('a vessel IMO that fails its check digit is kept as sent, never shown as the vessel’s', () => {
  // 9321483 (DCSA samples, King of the Seas) passes; 7654321 (tnt-300-response.json) does not.
  assert.equal(verifiedImo('9321483'), '9321483');
  assert.equal(verifiedImo('IMO 9321483'), '9321483');
  assert.equal(verifiedImo('7654321'), null);
  assert.equal(verifiedImo('1234568'), null);
  assert.equal(verifiedImo('93214830'), null);
  const [, departure] = readEventPage(sample('tnt-300-response.json'), '3.0').events;
  assert.deepEqual(departure.vessel, { imo: null, name: 'Example Vessel Beta' });
  assert.equal((departure.raw as any).transportDetails.transportCall.vesselTransport.vesselIMONumber, '7654321');
});

test('an event without its code member is read from its description when the text names one code', () => {
  // DCSA's 2.2 sample (tnt-220-response.json) with the code member left out and the carrier's own
  // wording in its place: "Gate out Empty" (project44's ocean event names), "Gate In (Full)"
  // (Maersk, as compared by blogs.tradlinx.com), "Discharged from Vessel" (Maersk, idem),
  // "Departure from Stop" (project44), and DCSA's own "Loaded" (TNT_v2.2.0 code descriptions).
  const [arrival, , load] = sample('tnt-220-response.json');
  const equipment = (text: string, member = 'description') => {
    const { equipmentEventTypeCode, emptyIndicatorCode, ...rest } = clone(load);
    return { ...rest, [member]: text };
  };
  const { transportEventTypeCode, ...departure } = { ...clone(arrival), eventID: 'dep-1', eventDescription: 'Departure from Stop' };
  const sent = [
    { ...equipment('Gate out Empty'), eventID: 'e-1' },
    { ...equipment('GATE-IN (FULL)', 'eventDescription'), eventID: 'e-2' },
    { ...equipment('  discharged   from vessel '), eventID: 'e-3' },
    { ...equipment('Loaded'), eventID: 'e-4', emptyIndicatorCode: 'LADEN' },
    { ...equipment('Gate out empty / full'), eventID: 'e-5' },
    departure,
  ];
  const page = readEventPage(sent, '2.2');
  assert.deepEqual(page.rejected, []);
  assert.deepEqual(
    page.events.map((e) => [e.id, e.type, e.code, e.emptyIndicator]),
    [
      ['e-1', 'EQUIPMENT', 'GTOT', 'EMPTY'],
      ['e-2', 'EQUIPMENT', 'GTIN', 'LADEN'],
      ['e-3', 'EQUIPMENT', 'DISC', null],
      ['e-4', 'EQUIPMENT', 'LOAD', 'LADEN'],
      ['e-5', 'EQUIPMENT', 'GTOT', null],
      ['dep-1', 'TRANSPORT', 'DEPA', null],
    ],
  );
  assert.equal((page.events[0].raw as any).equipmentEventTypeCode, undefined, 'the payload stays as sent');
  // Empty and full both said: the code is read, empty or laden is left unknown (e-5). A code the
  // carrier did send wins over its text.
  assert.equal(readEventPage([{ ...clone(load), description: 'Gate in' }], '2.2').events[0].code, 'LOAD');
  // 3.0 keeps the code in eventClassification and empty or laden in equipmentDetails.
  const v3 = sample('tnt-300-response.json').events.find((e: any) => e.eventClassification.equipmentEventTypeCode === 'GTIN');
  const bare = clone(v3);
  delete bare.eventClassification.equipmentEventTypeCode;
  delete bare.equipmentDetails.emptyIndicatorCode;
  const [read] = readEventPage({ events: [{ ...bare, description: 'Gated in, empty' }] }, '3.0').events;
  assert.deepEqual([read.code, read.emptyIndicator], ['GTIN', 'EMPTY']);
});

test('a description naming several codes, another type’s code or none leaves the event rejected', () => {
  const [arrival, , load] = sample('tnt-220-response.json');
  const { equipmentEventTypeCode, ...bare } = clone(load);
  const { transportEventTypeCode, ...call } = clone(arrival);
  const page = readEventPage(
    [
      { ...bare, eventID: 'two', description: 'Gate in / Discharged' },
      { ...bare, eventID: 'other-type', description: 'Vessel departure' },
      { ...call, eventID: 'equipment-text', description: 'Loaded on vessel' },
      { ...bare, eventID: 'none', description: 'Full Container Received by Carrier at Origin' },
    ],
    '2.2',
  );
  assert.deepEqual(page.events, []);
  assert.deepEqual(
    page.rejected.map((r) => [r.eventId, r.kind, r.field]),
    [
      ['two', 'missing_member', 'equipmentEventTypeCode'],
      ['other-type', 'missing_member', 'equipmentEventTypeCode'],
      ['equipment-text', 'missing_member', 'transportEventTypeCode'],
      ['none', 'missing_member', 'equipmentEventTypeCode'],
    ],
  );
});
