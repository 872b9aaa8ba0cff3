// DCSA 2.2 and 3.0 payloads → CarrierEvent: the published sample messages, the leniency rules
// and the errors for payloads we cannot read.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseDcsaDateTime } from '../../src/carriers/dcsa/datetime.ts';
import { UnrecognizedResponseError } from '../../src/carriers/dcsa/errors.ts';
import { readEventPage, toCarrierEvents } from '../../src/carriers/dcsa/normalize.ts';

const sample = (name: string): any => JSON.parse(readFileSync(`/work/shared/reference/dcsa/${name}`, 'utf8'));
const clone = <T>(value: T): T => structuredClone(value);

test('2.2 sample: seven events of all three types', () => {
  const json = sample('tnt-220-response.json');
  const events = toCarrierEvents(json, '2.2');
  assert.deepEqual(
    events.map((e) => [e.type, e.code, e.classifier]),
    [
      ['TRANSPORT', 'ARRI', 'ACT'],
      ['SHIPMENT', 'DRFT', 'ACT'],
      ['EQUIPMENT', 'LOAD', 'EST'],
      ['TRANSPORT', 'ARRI', 'ACT'],
      ['SHIPMENT', 'DRFT', 'ACT'],
      ['EQUIPMENT', 'LOAD', 'EST'],
      ['SHIPMENT', 'DRFT', 'ACT'],
    ],
  );
  events.forEach((e, i) => assert.equal(e.raw, json[i], 'raw is the original object'));
});

test('2.2 transport event with the deprecated transportCall.UNLocationCode', () => {
  const [arrival] = toCarrierEvents(sample('tnt-220-response.json'), '2.2');
  assert.deepEqual(
    { ...arrival, raw: undefined },
    {
      id: '3cecb101-7a1a-43a4-9d62-e88a131651e2',
      type: 'TRANSPORT',
      code: 'ARRI',
      classifier: 'ACT',
      occurredAt: new Date('2021-01-09T13:12:56Z'),
      utcOffset: '+01:00',
      publishedAt: new Date('2021-01-23T12:34:56Z'),
      // From the EQ shipper reference: the only container the event names.
      equipmentReference: 'APZU4812090',
      emptyIndicator: null,
      locode: 'FRPAR',
      facilitySmdgCode: 'ADT',
      facilityType: 'POTE',
      modeOfTransport: 'VESSEL',
      vessel: { imo: '9321483', name: 'King of the Seas' },
      // An arrival belongs to the voyage the vessel arrived on.
      voyageNumber: '2103N',
      railOperator: null,
      transportCallSequence: 2,
      transportCallId: '123e4567-e89b-12d3-a456-426614174000',
      isoEquipmentCode: null,
      seals: [],
      documentType: null,
      documentReferences: [
        { type: 'BKG', value: 'ABC123123123' },
        { type: 'TRD', value: 'reserved-HHL123' },
      ],
      raw: undefined,
    },
  );
});

test('2.2 transport event with transportCall.location, and the nested location wins', () => {
  const json = sample('tnt-220-response.json');
  const fourth = toCarrierEvents(json, '2.2')[3];
  assert.equal(fourth.locode, 'FRPAR');
  assert.equal(fourth.publishedAt.toISOString(), '2021-01-09T14:12:56.000Z');

  const event = clone(json[3]);
  event.transportCall.UNLocationCode = 'DEHAM';
  event.transportCall.location.UNLocationCode = 'NLRTM';
  assert.equal(toCarrierEvents([event], '2.2')[0].locode, 'NLRTM');
  delete event.transportCall.location;
  assert.equal(toCarrierEvents([event], '2.2')[0].locode, 'DEHAM');
});

test('2.2 equipment event: container, size-type, seal, export voyage of a load', () => {
  const load = toCarrierEvents(sample('tnt-220-response.json'), '2.2')[2];
  assert.equal(load.id, '3cecb101-7a1a-43a4-9d62-e88a131651e4');
  assert.equal(load.occurredAt.toISOString(), '2019-11-11T23:11:00.000Z');
  assert.equal(load.utcOffset, '+08:30');
  assert.equal(load.equipmentReference, 'APZU4812090');
  assert.equal(load.isoEquipmentCode, '22GP');
  assert.equal(load.emptyIndicator, 'EMPTY');
  assert.deepEqual(load.seals, ['string']);
  assert.equal(load.locode, 'FRPAR');
  assert.equal(load.facilitySmdgCode, 'ADT');
  assert.equal(load.facilityType, 'POTE');
  assert.equal(load.voyageNumber, '2103S');
  assert.deepEqual(load.vessel, { imo: '9321483', name: 'King of the Seas' });
});

test('2.2 equipment event elsewhere than its transport call: eventLocation wins, no facility type is guessed', () => {
  const event = clone(sample('tnt-220-response.json')[2]);
  event.eventLocation = { UNLocationCode: 'FRLEH', facilityCode: 'DEP01', facilityCodeListProvider: 'BIC' };
  const [e] = toCarrierEvents([event], '2.2');
  assert.equal(e.locode, 'FRLEH');
  assert.equal(e.facilitySmdgCode, null, 'a BIC code is not an SMDG code');
  assert.equal(e.facilityType, null);
});

test('2.2 shipment events carry their own document first', () => {
  const events = toCarrierEvents(sample('tnt-220-response.json'), '2.2');
  assert.equal(events[4].documentType, 'BKG');
  assert.deepEqual(events[4].documentReferences, [{ type: 'BKG', value: 'ABC123123123' }]);
  assert.equal(events[6].documentType, 'TRD');
  assert.deepEqual(events[6].documentReferences, [{ type: 'TRD', value: 'reserved-HHL123' }]);
  assert.equal(events[6].publishedAt.toISOString(), '2021-01-01T14:12:56.000Z');
  assert.equal(events[6].locode, null);
  assert.equal(events[6].vessel, null);
});

test('3.0 sample: shipment, transport and equipment events; IOT and REEFER readings are left out', () => {
  const json = sample('tnt-300-response.json');
  const events = toCarrierEvents(json, '3.0');
  assert.deepEqual(
    events.map((e) => e.id),
    ['evt-resp-ship-001', 'evt-resp-trans-001', 'evt-resp-equip-001'],
  );
  events.forEach((e, i) => assert.equal(e.raw, json.events[i]));

  const [confirmed, departure, gateIn] = events;
  assert.equal(confirmed.type, 'SHIPMENT');
  assert.equal(confirmed.code, 'CONF');
  assert.equal(confirmed.documentType, 'BKG');
  assert.deepEqual(confirmed.documentReferences, [
    { type: 'BKG', value: 'ABC709951' },
    { type: 'TRD', value: 'HHL71800000' },
  ]);
  assert.equal(confirmed.occurredAt.toISOString(), '2026-01-15T09:00:00.000Z');
  assert.equal(confirmed.utcOffset, 'Z');
  assert.equal(confirmed.publishedAt.toISOString(), '2025-01-23T01:23:45.000Z');

  assert.deepEqual(
    { ...departure, raw: undefined, documentReferences: undefined },
    {
      id: 'evt-resp-trans-001',
      type: 'TRANSPORT',
      code: 'DEPA',
      classifier: 'ACT',
      occurredAt: new Date('2026-01-16T11:30:00Z'),
      utcOffset: 'Z',
      publishedAt: new Date('2025-01-25T01:23:45Z'),
      equipmentReference: null,
      emptyIndicator: null,
      movementType: null,
      locode: 'GBSOU',
      facilitySmdgCode: null,
      facilityType: 'POTE',
      modeOfTransport: 'VESSEL',
      // 7654321 fails the IMO check digit (it would end in 9): kept in the payload, never shown as the vessel's.
      vessel: { imo: null, name: 'Example Vessel Beta' },
      // A departure belongs to the voyage the vessel leaves on.
      voyageNumber: 'V002E',
      railOperator: null,
      transportCallSequence: 1,
      transportCallId: 'tc-67890-def',
      isoEquipmentCode: null,
      seals: [],
      documentType: null,
      documentReferences: undefined,
      raw: undefined,
    },
  );

  assert.equal(gateIn.type, 'EQUIPMENT');
  assert.equal(gateIn.code, 'GTIN');
  assert.equal(gateIn.equipmentReference, 'APZU4812090');
  assert.equal(gateIn.isoEquipmentCode, '45G1');
  assert.equal(gateIn.emptyIndicator, 'EMPTY');
  assert.equal(gateIn.movementType, 'IMPORT');
  assert.equal(gateIn.locode, 'FRPAR');
  assert.equal(gateIn.facilityType, 'DEPO');
  assert.equal(gateIn.voyageNumber, null);
});

test('3.0 next-page sample', () => {
  const [approved, arrival, discharge] = toCarrierEvents(sample('tnt-300-response-nextpage.json'), '3.0');
  assert.equal(approved.code, 'APPR');
  assert.deepEqual(approved.documentReferences, [{ type: 'BKG', value: 'ABC709951' }]);

  assert.equal(arrival.id, 'evt-resp-trans-002');
  assert.equal(arrival.code, 'ARRI');
  assert.equal(arrival.classifier, 'EST');
  assert.equal(arrival.locode, 'ESBCN');
  assert.equal(arrival.voyageNumber, 'V003N');
  assert.equal(arrival.transportCallSequence, 5);
  // 2468135 fails the IMO check digit (it would end in 9).
  assert.deepEqual(arrival.vessel, { imo: null, name: 'Example Vessel Gamma' });

  assert.equal(discharge.code, 'DISC');
  assert.equal(discharge.emptyIndicator, 'LADEN');
  assert.equal(discharge.locode, 'ITGOA');
  assert.equal(discharge.facilityType, 'OFFD');
  assert.equal(discharge.isoEquipmentCode, '22GP');
});

test('3.0 details the samples lack: SMDG facility, seals, EQ references, MULTIMODAL, a bare array', () => {
  const event = clone(sample('tnt-300-response.json').events[2]);
  event.eventLocation.facility = { facilityCode: 'DEPAR', facilityCodeListProvider: 'SMDG' };
  event.equipmentDetails.seals = [{ number: 'SL-1', type: 'BLT' }, { number: 'SL-2' }];
  const [e] = toCarrierEvents([event], '3.0');
  assert.equal(e.facilitySmdgCode, 'DEPAR');
  assert.deepEqual(e.seals, ['SL-1', 'SL-2']);

  const transport = clone(sample('tnt-300-response.json').events[1]);
  transport.transportDetails.transportCall.modeOfTransport = 'MULTIMODAL';
  transport.shipmentDetails.shipmentReferences = [{ typeCode: 'EQ', reference: 'MSKU1234565' }];
  const [t] = toCarrierEvents({ events: [transport] }, '3.0');
  assert.equal(t.modeOfTransport, null);
  assert.equal(t.equipmentReference, 'MSKU1234565');
});

test('3.0 retracted events drop out, whatever else they lack', () => {
  const events = toCarrierEvents({ events: [{ eventID: 'evt-resp-trans-001', isRetracted: true }] }, '3.0');
  assert.deepEqual(events, []);
});

test('optional members that are null, blank or of the wrong type read as absent', () => {
  const event = clone(sample('tnt-220-response.json')[2]);
  event.transportCall.vessel = { vesselIMONumber: null, vesselName: 42 };
  event.transportCall.transportCallSequenceNumber = '2';
  event.transportCall.exportVoyageNumber = '';
  event.ISOEquipmentCode = null;
  event.emptyIndicatorCode = 'HALF';
  event.seals = [{ sealType: 'WIR' }, { sealNumber: 'OK-1' }];
  event.references = 'EQ';
  event.somethingNew = { nested: true };
  const [e] = toCarrierEvents([event], '2.2');
  assert.equal(e.vessel, null);
  assert.equal(e.transportCallSequence, null);
  assert.equal(e.voyageNumber, '2103N', 'no export voyage: the import one is better than nothing');
  assert.equal(e.isoEquipmentCode, null);
  assert.equal(e.emptyIndicator, null);
  assert.deepEqual(e.seals, ['OK-1']);
  assert.equal(e.equipmentReference, 'APZU4812090');
});

test('an event naming several containers is pinned to none', () => {
  const event = clone(sample('tnt-220-response.json')[0]);
  event.references.push({ referenceType: 'EQ', referenceValue: 'MSKU1234565' });
  assert.equal(toCarrierEvents([event], '2.2')[0].equipmentReference, null);
});

test('a date-time without an offset is read as UTC and reported without one', () => {
  const event = clone(sample('tnt-220-response.json')[0]);
  event.eventDateTime = '2021-01-09T14:12:56';
  const [e] = toCarrierEvents([event], '2.2');
  assert.equal(e.occurredAt.toISOString(), '2021-01-09T14:12:56.000Z');
  assert.equal(e.utcOffset, null);
});

test('date-time parsing', () => {
  assert.deepEqual(parseDcsaDateTime('2024-02-29T23:59:59.1234-0330'), { at: new Date('2024-03-01T03:29:59.123Z'), utcOffset: '-03:30' });
  assert.deepEqual(parseDcsaDateTime('2021-01-09T14:12:56z'), { at: new Date('2021-01-09T14:12:56Z'), utcOffset: 'Z' });
  assert.deepEqual(parseDcsaDateTime('2021-01-09T14:12+05:30'), { at: new Date('2021-01-09T08:42:00Z'), utcOffset: '+05:30' });
  for (const bad of ['2021-02-29T00:00:00Z', '2021-13-01T00:00:00Z', '2021-01-09T24:00:00Z', '2021-01-09', 'yesterday', '2021-01-09T14:12:56+25:00', '']) {
    assert.equal(parseDcsaDateTime(bad), null, bad);
  }
});

test('payloads that are not a list of events', () => {
  const cases: [unknown, '2.2' | '3.0', RegExp][] = [
    [{ data: [] }, '2.2', /expected a JSON array of events or \{ "events": \[\.\.\.\] \}, got an object with keys \["data"\]/],
    [null, '2.2', /expected a JSON array of events or \{ "events": \[\.\.\.\] \}, got null/],
    ['[]', '2.2', /got a string/],
    [{ events: 'none' }, '2.2', /got an object with keys \["events"\]/],
    [{ feedbackElements: [] }, '3.0', /expected a JSON array of events or \{ "events": \[\.\.\.\] \}, got an object with keys \["feedbackElements"\]/],
    [{ events: 'none' }, '3.0', /expected a JSON array of events or \{ "events"/],
  ];
  for (const [json, version, message] of cases) {
    assert.throws(() => toCarrierEvents(json, version), (e: unknown) => e instanceof UnrecognizedResponseError && message.test(e.message));
  }
});

test('an event missing what we rely on is rejected on its own, named with its member and reason kind', () => {
  const good = sample('tnt-220-response.json');
  const broken = (index: number, change: (e: any) => void): unknown[] => {
    const json = clone(good);
    change(json[index]);
    return json;
  };
  const cases: [unknown[], string, string, string | null][] = [
    [broken(1, (e) => delete e.eventID), 'event 1: eventID: missing', 'missing_member', 'eventID'],
    [broken(0, (e) => delete e.eventCreatedDateTime), 'event 0 (3cecb101-7a1a-43a4-9d62-e88a131651e2): eventCreatedDateTime: missing', 'missing_member', 'eventCreatedDateTime'],
    [broken(2, (e) => (e.eventDateTime = 'soon')), 'event 2 (3cecb101-7a1a-43a4-9d62-e88a131651e4): eventDateTime: not an ISO 8601 date-time: "soon"', 'bad_date_time', 'eventDateTime'],
    [broken(3, (e) => (e.eventClassifierCode = 'REQ')), 'event 3 (3cecb101-7a1a-43a4-9d62-e88a131651e5): eventClassifierCode: Invalid option: expected one of "ACT"|"EST"|"PLN"', 'bad_value', 'eventClassifierCode'],
    [broken(0, (e) => delete e.transportEventTypeCode), 'event 0 (3cecb101-7a1a-43a4-9d62-e88a131651e2): transportEventTypeCode: missing', 'missing_member', 'transportEventTypeCode'],
    [broken(2, (e) => (e.equipmentEventTypeCode = ' ')), 'event 2 (3cecb101-7a1a-43a4-9d62-e88a131651e4): equipmentEventTypeCode: Too small: expected string to have >=1 characters', 'bad_value', 'equipmentEventTypeCode'],
    [broken(4, (e) => delete e.shipmentEventTypeCode), 'event 4 (3cecb101-7a1a-43a4-9d62-e88a131651e6): shipmentEventTypeCode: missing', 'missing_member', 'shipmentEventTypeCode'],
    [broken(5, (e) => (e.eventType = 'REEFER')), "event 5 (3cecb101-7a1a-43a4-9d62-e88a131651e7): eventType: Invalid discriminator value. Expected 'TRANSPORT' | 'EQUIPMENT' | 'SHIPMENT'", 'unknown_event_type', 'eventType'],
    [[...good, 42], 'event 7: a number, not an event object', 'not_an_object', null],
  ];
  for (const [json, message, kind, field] of cases) {
    const page = readEventPage(json, '2.2');
    assert.equal(page.events.length, good.length - (json.length > good.length ? 0 : 1), message);
    assert.equal(page.rejected.length, 1, message);
    const [rejected] = page.rejected;
    assert.deepEqual([rejected.reason, rejected.kind, rejected.field], [message, kind, field]);
    assert.deepEqual(toCarrierEvents(json, '2.2').map((e) => e.id), page.events.map((e) => e.id), 'the callback path keeps the same good events');
  }
  // What could be read of a rejected event, for raw_events: its type, code and the times that parse.
  const [noDate] = readEventPage(broken(2, (e) => (e.eventDateTime = 'soon')), '2.2').rejected;
  assert.deepEqual([noDate.type, noDate.code, noDate.classifier, noDate.occurredAt, noDate.equipmentReference], ['EQUIPMENT', 'LOAD', 'EST', null, 'APZU4812090']);
  assert.ok(noDate.publishedAt instanceof Date);

  const v3 = sample('tnt-300-response.json');
  const rejectedOf = (json: unknown) => readEventPage(json, '3.0').rejected.map((r) => r.reason);
  const noUpdate = clone(v3);
  delete noUpdate.events[1].eventUpdatedDateTime;
  assert.deepEqual(rejectedOf(noUpdate), ['event 1 (evt-resp-trans-001): eventUpdatedDateTime: missing']);
  const noCode = clone(v3);
  delete noCode.events[2].eventClassification.equipmentEventTypeCode;
  assert.deepEqual(rejectedOf(noCode), ['event 2 (evt-resp-equip-001): eventClassification.equipmentEventTypeCode: missing']);
  const unknownType = clone(v3);
  unknownType.events[0].eventClassification.eventTypeCode = 'WEATHER';
  assert.equal(readEventPage(unknownType, '3.0').rejected[0].kind, 'unknown_event_type');

  // Only an answer of which no event can be read is unrecognised, naming the first reasons.
  assert.throws(() => toCarrierEvents([42, { eventID: 'x' }], '2.2'), (e: unknown) => e instanceof UnrecognizedResponseError && /^no usable event: event 0: a number, not an event object; event 1 \(x\): /.test(e.message));
});
