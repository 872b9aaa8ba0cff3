// What a carrier said about a shipment, in the domain's words: the carrier-neutral events, containers
// and terminal status the diff engine consumes. Connectors (src/carriers/) translate their protocol
// into these shapes; the domain defines them so that it depends on nothing outside itself.

export type ModeOfTransport = 'VESSEL' | 'RAIL' | 'TRUCK' | 'BARGE';

/**
 * What makes a DCSA T&T event, whoever speaks it: the carriers svc reads and the sandbox that plays
 * one. Times are absolute instants.
 */
export interface DcsaEventCore {
  /** The carrier's own event id (DCSA eventID); stable across polls. */
  id: string;
  type: 'TRANSPORT' | 'EQUIPMENT' | 'SHIPMENT';
  /** DCSA code: ARRI/DEPA (transport), LOAD/DISC/GTIN/GTOT/PICK/DROP/STUF/STRP/INSP/RSEA/RMVD/AVPU/CUS* (equipment), shipment codes. */
  code: string;
  /** ACT actual, EST estimated, PLN planned. Only ACT makes a milestone. */
  classifier: 'ACT' | 'EST' | 'PLN';
  /** When it happened (or is expected to): DCSA eventDateTime. */
  occurredAt: Date;
  /** When the carrier published the record: DCSA eventCreatedDateTime (freshness). */
  publishedAt: Date;
}

/** One carrier event, normalised from DCSA T&T (2.2 or 3.0). */
export interface CarrierEvent extends DcsaEventCore {
  /** The UTC offset the carrier wrote, e.g. "+01:00" or "Z" (null when it gave none). */
  utcOffset: string | null;
  /** Container number for equipment events (DCSA equipmentReference). */
  equipmentReference: string | null;
  emptyIndicator: 'EMPTY' | 'LADEN' | null;
  /**
   * DCSA 3.0 equipment movementType: which leg of the cargo's journey the move serves, where the
   * carrier says so (absent in 2.2 events and in events stored before svc read it).
   */
  movementType?: 'EXPORT' | 'IMPORT' | 'TRANSSHIPMENT' | null;
  /** UN/LOCODE of the event location (transport call or event location). */
  locode: string | null;
  /** SMDG terminal code of the facility, when given. */
  facilitySmdgCode: string | null;
  /** DCSA facilityTypeCode: POTE, DEPO, INTE, RAMP, CLOC… */
  facilityType: string | null;
  modeOfTransport: ModeOfTransport | null;
  vessel: { imo: string | null; name: string | null } | null;
  voyageNumber: string | null;
  /** The railroad (SCAC) running a RAIL transport call; absent in events stored before svc read it. */
  railOperator?: string | null;
  transportCallSequence: number | null;
  /**
   * The carrier's id of the vessel, barge, train or truck call (DCSA 2.2 transportCallID, 3.0
   * transportCallReference): events of one call happen at one place. Absent in events stored
   * before svc read it.
   */
  transportCallId?: string | null;
  /** ISO 6346 size-type code of the container (e.g. 45G1), when given. */
  isoEquipmentCode: string | null;
  seals: string[];
  /** Shipment event document type (BKG, TRD…), for SHIPMENT events. */
  documentType: string | null;
  documentReferences: { type: string; value: string }[];
  /** The event exactly as the carrier sent it, for raw_events. */
  raw: unknown;
}

/** Why one event of a carrier's answer could not be read: a few words, so they can be counted. */
export const REJECTION_KINDS = ['not_an_object', 'unknown_event_type', 'missing_member', 'bad_date_time', 'bad_value'] as const;
export type RejectionKind = (typeof REJECTION_KINDS)[number];

/**
 * An event the carrier sent that svc could not read. It costs only itself: the answer's other
 * events are applied, and this one is kept as sent, with the reason, for the user to see.
 */
export interface RejectedCarrierEvent {
  kind: RejectionKind;
  /** The member at fault (dotted path), null when the event as a whole is. */
  field: string | null;
  /** What was wrong, in words, naming the member. */
  reason: string;
  /** The carrier's event id, when one could be read. */
  eventId: string | null;
  /** The container it seems to be about, when one could be read. */
  equipmentReference: string | null;
  /** What of it could be read: type and code as sent, times where they are date-times. */
  type: string | null;
  code: string | null;
  classifier: string | null;
  occurredAt: Date | null;
  publishedAt: Date | null;
  /** The event exactly as the carrier sent it. */
  raw: unknown;
}

/** Terminal data for one container at its discharge (or inland) terminal. Not part of DCSA T&T. */
export interface TerminalStatus {
  containerNumber: string;
  /** FIRMS code or SMDG code of the terminal reporting. */
  terminalCode: string | null;
  availableForPickup: boolean | null;
  /** Active or expected holds (freight, customs, USDA, VACIS, TMF, other); a cleared hold is absent. */
  holds: { name: string; status: 'hold' | 'pending'; description: string | null }[];
  /** demurrage, exam, extended_dwell_time, other, total. */
  fees: { type: string; amount: number; currency_code: string }[];
  /** Last free day, a calendar date (YYYY-MM-DD) at the terminal. */
  lastFreeDay: string | null;
  pickupAppointmentAt: Date | null;
  observedAt: Date;
}

export interface SnapshotContainer {
  number: string;
  isoEquipmentCode: string | null;
  sealNumber: string | null;
  weightKg: number | null;
}

/** Everything a carrier told us about one shipment in one lookup. */
export interface CarrierSnapshot {
  scac: string;
  billOfLadingNumber: string | null;
  bookingNumber: string | null;
  containers: SnapshotContainer[];
  /** Actual, estimated and planned events, in any order. */
  events: CarrierEvent[];
  terminal: TerminalStatus[];
  /** Events of the answer that could not be read (absent: none). */
  rejected?: RejectedCarrierEvent[];
  /** When we asked. */
  fetchedAt: Date;
}
