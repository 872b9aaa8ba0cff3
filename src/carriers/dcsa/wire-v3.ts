// DCSA Track & Trace 3.0 events as they arrive on the wire (GET /v3/events, POST /events).
// 3.0 nests type, classifier and code under eventClassification, and replaces
// eventCreatedDateTime with eventUpdatedDateTime. IOT and REEFER events and retractions are
// filtered out before these schemas apply (see normalize-v3.ts).
import { z } from 'zod';
import { classifierCode, dateTime, eventId, lenient, lenientList, railTransport, requiredCode, text } from './wire-common.ts';

const documentReference = z.object({
  typeCode: z.string().trim().min(1),
  reference: z.string().trim().min(1),
});

const transportCall = z.object({
  transportCallReference: text,
  transportCallSequenceNumber: lenient(z.number().int()),
  modeOfTransport: text,
  exportVoyageNumberOrReference: lenient(z.object({ carrierVoyageNumber: text })),
  importVoyageNumberOrReference: lenient(z.object({ carrierVoyageNumber: text })),
  vesselTransport: lenient(z.object({ vesselIMONumber: text, vesselName: text })),
  railTransport: lenient(railTransport),
});

const classification = z.discriminatedUnion('eventTypeCode', [
  z.object({ eventTypeCode: z.literal('TRANSPORT'), eventClassifierCode: classifierCode, transportEventTypeCode: requiredCode }),
  z.object({ eventTypeCode: z.literal('EQUIPMENT'), eventClassifierCode: classifierCode, equipmentEventTypeCode: requiredCode }),
  z.object({ eventTypeCode: z.literal('SHIPMENT'), eventClassifierCode: classifierCode, shipmentEventTypeCode: requiredCode }),
]);

export const eventV3 = z.object({
  eventID: eventId,
  eventDateTime: dateTime,
  eventUpdatedDateTime: dateTime,
  eventClassification: classification,
  eventLocation: lenient(
    z.object({
      UNLocationCode: text,
      facilityTypeCode: text,
      facility: lenient(z.object({ facilityCode: text, facilityCodeListProvider: text })),
    }),
  ),
  shipmentDetails: lenient(
    z.object({
      documentReference: lenient(documentReference),
      additionalDocumentReferences: lenientList(documentReference),
      /** Shipper references; typeCode EQ carries a container number. */
      shipmentReferences: lenientList(z.object({ typeCode: z.string().trim().min(1), reference: z.string().trim().min(1) })),
    }),
  ),
  transportDetails: lenient(z.object({ transportCall: lenient(transportCall) })),
  equipmentDetails: lenient(
    z.object({
      equipmentReference: text,
      ISOEquipmentCode: text,
      emptyIndicatorCode: lenient(z.enum(['EMPTY', 'LADEN'])),
      movementType: lenient(z.enum(['EXPORT', 'IMPORT', 'TRANSSHIPMENT'])),
      seals: lenientList(z.object({ number: z.string().trim().min(1) })),
    }),
  ),
});

export type EventV3 = z.output<typeof eventV3>;
