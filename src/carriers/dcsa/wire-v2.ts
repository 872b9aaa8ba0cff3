// DCSA Track & Trace 2.2 events as they arrive on the wire (GET /v2/events and subscription
// callbacks). Only the members the normaliser reads are declared; unknown members are ignored
// and the untouched original is kept as CarrierEvent.raw.
import { z } from 'zod';
import { classifierCode, dateTime, eventId, lenient, lenientList, railTransport, requiredCode, text } from './wire-common.ts';

/** A 2.2 `location`: the newer home of UNLocationCode and the facility code inside a transport call. */
const location = z.object({
  UNLocationCode: text,
  facilityCode: text,
  facilityCodeListProvider: text,
});

const transportCall = z.object({
  transportCallID: text,
  exportVoyageNumber: text,
  importVoyageNumber: text,
  /** Deprecated in 2.2; it held the export voyage. */
  carrierVoyageNumber: text,
  transportCallSequenceNumber: lenient(z.number().int()),
  /** Deprecated in 2.2 in favour of location.UNLocationCode, still sent by many carriers. */
  UNLocationCode: text,
  facilityCode: text,
  facilityCodeListProvider: text,
  facilityTypeCode: text,
  modeOfTransport: text,
  location: lenient(location),
  vessel: lenient(z.object({ vesselIMONumber: text, vesselName: text })),
  railTransport: lenient(railTransport),
});

const documentReference = z.object({
  documentReferenceType: z.string().trim().min(1),
  documentReferenceValue: z.string().trim().min(1),
});

/** Shipper references; referenceType EQ carries a container number. */
const reference = z.object({
  referenceType: z.string().trim().min(1),
  referenceValue: z.string().trim().min(1),
});

const common = {
  eventID: eventId,
  eventCreatedDateTime: dateTime,
  eventDateTime: dateTime,
  eventClassifierCode: classifierCode,
  /** 2.3 moved facilityTypeCode to the event root; a 2.3 server answers on /v2 too. */
  facilityTypeCode: text,
  documentReferences: lenientList(documentReference),
  references: lenientList(reference),
};

const transportEvent = z.object({
  ...common,
  eventType: z.literal('TRANSPORT'),
  transportEventTypeCode: requiredCode,
  transportCall: lenient(transportCall),
});

const equipmentEvent = z.object({
  ...common,
  eventType: z.literal('EQUIPMENT'),
  equipmentEventTypeCode: requiredCode,
  equipmentReference: text,
  ISOEquipmentCode: text,
  emptyIndicatorCode: lenient(z.enum(['EMPTY', 'LADEN'])),
  /** Where the equipment event happened when it is not (only) the transport call. */
  eventLocation: lenient(location),
  transportCall: lenient(transportCall),
  seals: lenientList(z.object({ sealNumber: z.string().trim().min(1) })),
});

const shipmentEvent = z.object({
  ...common,
  eventType: z.literal('SHIPMENT'),
  shipmentEventTypeCode: requiredCode,
  documentID: text,
  documentTypeCode: text,
});

export const eventV2 = z.discriminatedUnion('eventType', [transportEvent, equipmentEvent, shipmentEvent]);

export type EventV2 = z.output<typeof eventV2>;
export type TransportCallV2 = z.output<typeof transportCall>;
export type LocationV2 = z.output<typeof location>;
