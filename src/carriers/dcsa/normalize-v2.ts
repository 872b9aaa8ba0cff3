// One DCSA 2.2 event → CarrierEvent.
import type { CarrierEvent } from '../../domain/tracking/carrier-events.ts';
import { callFields, equipmentFromReferences, smdgCode } from './fields.ts';
import type { EventV2, LocationV2, TransportCallV2 } from './wire-v2.ts';

export function fromEventV2(event: EventV2, raw: unknown): CarrierEvent {
  const transportCall = event.eventType === 'SHIPMENT' ? undefined : event.transportCall;
  const equipment = event.eventType === 'EQUIPMENT' ? event : undefined;
  const shipment = event.eventType === 'SHIPMENT' ? event : undefined;
  const code =
    event.eventType === 'TRANSPORT'
      ? event.transportEventTypeCode
      : event.eventType === 'EQUIPMENT'
        ? event.equipmentEventTypeCode
        : event.shipmentEventTypeCode;
  const { place, facilityType } = whereItHappened(event, transportCall);
  const eqReferences = event.references.filter((r) => r.referenceType === 'EQ').map((r) => r.referenceValue);
  // A shipment event is about one document (documentID of documentTypeCode): list it first
  // among the references, so booking and B/L numbers can be read from every event type alike.
  const ownDocument =
    shipment?.documentTypeCode !== undefined && shipment.documentID !== undefined
      ? [{ type: shipment.documentTypeCode, value: shipment.documentID }]
      : [];

  return {
    id: event.eventID,
    type: event.eventType,
    code,
    classifier: event.eventClassifierCode,
    occurredAt: event.eventDateTime.at,
    utcOffset: event.eventDateTime.utcOffset,
    publishedAt: event.eventCreatedDateTime.at,
    equipmentReference: equipment?.equipmentReference ?? equipmentFromReferences(eqReferences),
    emptyIndicator: equipment?.emptyIndicatorCode ?? null,
    locode: place?.UNLocationCode ?? null,
    facilitySmdgCode: smdgCode(place),
    facilityType,
    ...callFields(
      code,
      transportCall && {
        mode: transportCall.modeOfTransport,
        vesselImo: transportCall.vessel?.vesselIMONumber,
        vesselName: transportCall.vessel?.vesselName,
        exportVoyage: transportCall.exportVoyageNumber ?? transportCall.carrierVoyageNumber,
        importVoyage: transportCall.importVoyageNumber,
        railOperatorCode: transportCall.railTransport?.operatorCarrierCode,
        sequence: transportCall.transportCallSequenceNumber,
        id: transportCall.transportCallID,
      },
    ),
    isoEquipmentCode: equipment?.ISOEquipmentCode ?? null,
    seals: equipment?.seals.map((s) => s.sealNumber) ?? [],
    documentType: shipment?.documentTypeCode ?? null,
    documentReferences: [
      ...ownDocument,
      ...event.documentReferences.map((r) => ({ type: r.documentReferenceType, value: r.documentReferenceValue })),
    ],
    raw,
  };
}

/**
 * Where the event happened. An equipment event's own eventLocation wins over its transport
 * call (a gate-in at an inland depot still names the vessel call it feeds). 2.2 has no facility
 * type outside the transport call, so the call's type is used only when the event happened at
 * the call's own facility.
 */
function whereItHappened(
  event: EventV2,
  transportCall: TransportCallV2 | undefined,
): { place: LocationV2 | undefined; facilityType: string | null } {
  const call = transportCall ? callPlace(transportCall) : undefined;
  const own = event.eventType === 'EQUIPMENT' ? event.eventLocation : undefined;
  const place = own && (own.UNLocationCode !== undefined || own.facilityCode !== undefined) ? own : call;
  const atCall = place !== undefined && call !== undefined && place.UNLocationCode === call.UNLocationCode && place.facilityCode === call.facilityCode;
  return { place, facilityType: event.facilityTypeCode ?? (atCall ? (transportCall?.facilityTypeCode ?? null) : null) };
}

/** The transport call's place, preferring the nested `location` over the deprecated members at the call's root. */
function callPlace(call: TransportCallV2): LocationV2 {
  const nested = call.location;
  const facility = nested?.facilityCode !== undefined ? nested : call;
  return {
    UNLocationCode: nested?.UNLocationCode ?? call.UNLocationCode,
    facilityCode: facility.facilityCode,
    facilityCodeListProvider: facility.facilityCodeListProvider,
  };
}
