// Journey events in the DCSA Track & Trace 2.2 wire shape, as a carrier sends them from GET
// /v2/events and in subscription callbacks: eventCreatedDateTime in UTC, eventDateTime in the
// local time of the place with its offset, the transport call with its UN/LOCODE, SMDG facility
// code, mode, vessel and voyage, and the B/L and booking as document references.
import { stableId } from '../refdata/ids.ts';
import { withQuirks } from './dirt.ts';
import type { Facility, Journey, JourneyEvent } from './journey.ts';
import { localDateTime, utcDateTime } from './local-time.ts';

export type DcsaEvent = Record<string, unknown>;

function facilityFields(facility: Facility): Record<string, unknown> {
  return facility.smdgCode
    ? { facilityCode: facility.smdgCode, facilityCodeListProvider: 'SMDG' }
    : {};
}

function location(facility: Facility): Record<string, unknown> {
  const { place } = facility;
  return {
    locationName: facility.otherFacility ?? place.name,
    latitude: place.lat.toFixed(4),
    longitude: place.lon.toFixed(4),
    UNLocationCode: place.locode,
    ...facilityFields(facility),
  };
}

/** The id of the call an event belongs to; gate moves get a truck call of their own. Null for shipment events. */
export function transportCallId(e: JourneyEvent): string | null {
  if (e.type === 'SHIPMENT') return null;
  if (e.leg) return e.legEnd === 'from' ? e.leg.fromCallId : e.leg.toCallId;
  return stableId('sandbox-call', e.id);
}

/** The vessel, barge or train call an event belongs to; gate moves get a truck call at the facility. */
function transportCall(journey: Journey, e: JourneyEvent): Record<string, unknown> {
  const facility = e.facility!;
  const leg = e.leg;
  const call: Record<string, unknown> = {
    transportCallID: transportCallId(e),
    ...(leg?.serviceCode ? { carrierServiceCode: leg.serviceCode } : {}),
    ...(leg?.voyage ? { exportVoyageNumber: leg.voyage, importVoyageNumber: leg.voyage } : {}),
    ...(leg ? { transportCallSequenceNumber: e.legEnd === 'from' ? leg.fromCallSequence : leg.toCallSequence } : {}),
    UNLocationCode: facility.place.locode,
    ...facilityFields(facility),
    facilityTypeCode: facility.type,
    ...(facility.otherFacility ? { otherFacility: facility.otherFacility.slice(0, 50) } : {}),
    modeOfTransport: leg?.mode ?? 'TRUCK',
    location: location(facility),
  };
  // DCSA has no operator field for a train; the sandbox sends the railroad as DCSA does a vessel's
  // operator (an NMFTA code), in the rail transport object DCSA 3.0 gives rail calls.
  if (leg?.railOperator) call.railTransport = { operatorCarrierCode: leg.railOperator, operatorCarrierCodeListProvider: 'NMFTA' };
  if (leg?.vessel) {
    call.vessel = {
      vesselIMONumber: leg.vessel.imo,
      vesselName: leg.vessel.name,
      vesselOperatorCarrierCode: journey.scac,
      vesselOperatorCarrierCodeListProvider: 'NMFTA',
    };
  }
  return call;
}

function documentReferences(journey: Journey): Record<string, string>[] {
  return [
    { documentReferenceType: 'BKG', documentReferenceValue: journey.bookingNumber },
    { documentReferenceType: 'TRD', documentReferenceValue: journey.billOfLading },
  ];
}

const SHIPMENT_REASONS: Readonly<Record<string, string>> = {
  CANC: 'Booking cancelled at the request of the shipper',
  RELS: 'Freight released',
};

/** One event as the carrier sends it: its wire shape, with its quirks (dirt.ts). */
export function toDcsaEvent(journey: Journey, e: JourneyEvent): DcsaEvent {
  return e.quirks.length === 0 ? cleanDcsaEvent(journey, e) : withQuirks(cleanDcsaEvent(journey, e), e);
}

/** The events of one answer or callback, an event the carrier repeats listed twice. */
export function toDcsaEvents(journey: Journey, events: readonly JourneyEvent[]): DcsaEvent[] {
  return events.flatMap((e) => {
    const wire = toDcsaEvent(journey, e);
    return e.quirks.includes('repeated') ? [wire, wire] : [wire];
  });
}

function cleanDcsaEvent(journey: Journey, e: JourneyEvent): DcsaEvent {
  const base = {
    eventID: e.id,
    eventCreatedDateTime: utcDateTime(e.publishedAt),
    eventType: e.type,
    eventClassifierCode: e.classifier,
  };
  if (e.type === 'SHIPMENT') {
    const reason = SHIPMENT_REASONS[e.code];
    return {
      ...base,
      // DCSA 2.2: for shipment events eventDateTime is the same value as eventCreatedDateTime.
      eventDateTime: base.eventCreatedDateTime,
      shipmentEventTypeCode: e.code,
      documentID: e.document!.id,
      documentTypeCode: e.document!.type,
      ...(reason ? { reason } : {}),
    };
  }
  const eventDateTime = localDateTime(e.occurredAt, e.facility!.place.timeZone);
  if (e.type === 'TRANSPORT') {
    return {
      ...base,
      eventDateTime,
      transportEventTypeCode: e.code,
      ...(e.delayReasonCode ? { delayReasonCode: e.delayReasonCode } : {}),
      ...(e.changeRemark ? { changeRemark: e.changeRemark } : {}),
      transportCall: transportCall(journey, e),
      documentReferences: documentReferences(journey),
      references: e.containers.map((c) => ({ referenceType: 'EQ', referenceValue: c })),
    };
  }
  const box = journey.containers.find((c) => c.number === e.container)!;
  return {
    ...base,
    eventDateTime,
    equipmentEventTypeCode: e.code,
    equipmentReference: box.number,
    ISOEquipmentCode: box.isoEquipmentCode,
    emptyIndicatorCode: e.emptyIndicator,
    eventLocation: location(e.facility!),
    transportCall: transportCall(journey, e),
    documentReferences: documentReferences(journey),
    // Seals go on once the box is stuffed, so only laden moves carry them.
    ...(e.emptyIndicator === 'LADEN' ? { seals: box.seals.map((sealNumber) => ({ sealNumber, sealSource: 'CAR', sealType: 'BLT' })) } : {}),
  };
}
