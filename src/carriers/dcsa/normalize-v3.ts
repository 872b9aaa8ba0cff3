// One DCSA 3.0 event → CarrierEvent.
import type { CarrierEvent } from '../../domain/tracking/carrier-events.ts';
import { callFields, equipmentFromReferences, smdgCode } from './fields.ts';
import type { EventV3 } from './wire-v3.ts';

export function fromEventV3(event: EventV3, raw: unknown): CarrierEvent {
  const classification = event.eventClassification;
  const code =
    classification.eventTypeCode === 'TRANSPORT'
      ? classification.transportEventTypeCode
      : classification.eventTypeCode === 'EQUIPMENT'
        ? classification.equipmentEventTypeCode
        : classification.shipmentEventTypeCode;
  const location = event.eventLocation;
  const call = event.transportDetails?.transportCall;
  const equipment = event.equipmentDetails;
  const shipment = event.shipmentDetails;
  const documents = [...(shipment?.documentReference ? [shipment.documentReference] : []), ...(shipment?.additionalDocumentReferences ?? [])];
  const eqReferences = (shipment?.shipmentReferences ?? []).filter((r) => r.typeCode === 'EQ').map((r) => r.reference);

  return {
    id: event.eventID,
    type: classification.eventTypeCode,
    code,
    classifier: classification.eventClassifierCode,
    occurredAt: event.eventDateTime.at,
    utcOffset: event.eventDateTime.utcOffset,
    // 3.0 has no creation time; the last update is the freshness the contract asks for.
    publishedAt: event.eventUpdatedDateTime.at,
    equipmentReference: equipment?.equipmentReference ?? equipmentFromReferences(eqReferences),
    emptyIndicator: equipment?.emptyIndicatorCode ?? null,
    movementType: equipment?.movementType ?? null,
    locode: location?.UNLocationCode ?? null,
    facilitySmdgCode: smdgCode(location?.facility),
    facilityType: location?.facilityTypeCode ?? null,
    ...callFields(
      code,
      call && {
        mode: call.modeOfTransport,
        vesselImo: call.vesselTransport?.vesselIMONumber,
        vesselName: call.vesselTransport?.vesselName,
        exportVoyage: call.exportVoyageNumberOrReference?.carrierVoyageNumber,
        importVoyage: call.importVoyageNumberOrReference?.carrierVoyageNumber,
        railOperatorCode: call.railTransport?.operatorCarrierCode,
        sequence: call.transportCallSequenceNumber,
        id: call.transportCallReference,
      },
    ),
    isoEquipmentCode: equipment?.ISOEquipmentCode ?? null,
    seals: equipment?.seals.map((s) => s.number) ?? [],
    documentType: classification.eventTypeCode === 'SHIPMENT' ? (shipment?.documentReference?.typeCode ?? null) : null,
    documentReferences: documents.map((d) => ({ type: d.typeCode, value: d.reference })),
    raw,
  };
}
