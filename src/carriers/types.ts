// The connector contract: how the tracking engine asks a carrier about a number, and the
// carrier-neutral snapshot every connector answers with. DCSA Track & Trace is the model; other
// protocols map onto the same shapes.

export type NumberType = 'bill_of_lading' | 'booking_number' | 'container';

/** Why a tracking request could not be completed (the reference service's failed_reason values). */
export type FailedReason =
  | 'booking_cancelled'
  | 'duplicate'
  | 'expired'
  | 'internal_processing_error'
  | 'invalid_number'
  | 'not_found'
  | 'retries_exhausted'
  | 'shipping_line_unreachable'
  | 'unrecognized_response'
  | 'data_unavailable';

export type ModeOfTransport = 'VESSEL' | 'RAIL' | 'TRUCK' | 'BARGE';

/** One carrier event, normalised from DCSA T&T (2.2 or 3.0). Times are absolute instants. */
export interface CarrierEvent {
  /** The carrier's own event id (DCSA eventID); stable across polls. */
  id: string;
  type: 'TRANSPORT' | 'EQUIPMENT' | 'SHIPMENT';
  /** DCSA code: ARRI/DEPA (transport), LOAD/DISC/GTIN/GTOT/PICK/DROP/STUF/STRP/INSP/RSEA/RMVD/AVPU/CUS* (equipment), shipment codes. */
  code: string;
  /** ACT actual, EST estimated, PLN planned. Only ACT makes a milestone. */
  classifier: 'ACT' | 'EST' | 'PLN';
  /** When it happened (or is expected to): DCSA eventDateTime. */
  occurredAt: Date;
  /** The UTC offset the carrier wrote, e.g. "+01:00" or "Z" (null when it gave none). */
  utcOffset: string | null;
  /** When the carrier published the record: DCSA eventCreatedDateTime (freshness). */
  publishedAt: Date;
  /** Container number for equipment events (DCSA equipmentReference). */
  equipmentReference: string | null;
  emptyIndicator: 'EMPTY' | 'LADEN' | null;
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
  /** ISO 6346 size-type code of the container (e.g. 45G1), when given. */
  isoEquipmentCode: string | null;
  seals: string[];
  /** Shipment event document type (BKG, TRD…), for SHIPMENT events. */
  documentType: string | null;
  documentReferences: { type: string; value: string }[];
  /** The event exactly as the carrier sent it, for raw_events. */
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
  /** When we asked. */
  fetchedAt: Date;
}

export interface LookupRequest {
  scac: string;
  numberType: NumberType;
  number: string;
  /** Only events published after this instant are needed (incremental refresh); the snapshot may still contain older ones. */
  since?: Date;
  /**
   * Containers svc already tracks on this shipment. An incremental refresh names only the
   * containers with new events, yet terminal data (holds released, availability) changes while a
   * box sits at the terminal with no carrier event; the connector reports terminal status for
   * these too.
   */
  knownContainers?: string[];
}

export type LookupOutcome =
  | { kind: 'found'; snapshot: CarrierSnapshot }
  /**
   * `temporary`: worth retrying (unreachable, unparsable answer, our own error); otherwise final.
   * For not_found, temporary means "no data yet" (a bill of lading not manifested yet), final means
   * the carrier says the number does not exist.
   */
  | { kind: 'failed'; reason: FailedReason; temporary: boolean; detail: string };

export interface SubscribeRequest extends Omit<LookupRequest, 'since' | 'knownContainers'> {
  /** Where the carrier should POST new events. */
  callbackUrl: string;
  /** Key of the HMAC-SHA256 that signs each callback. */
  secret: Buffer;
}

export interface CarrierConnector {
  lookup(request: LookupRequest): Promise<LookupOutcome>;
  /** Asks the carrier to push new events for the number; resolves to its subscription id. Optional: polling always works. */
  subscribe?(request: SubscribeRequest): Promise<string>;
}
