// The shape of a planned journey: everything that will happen to one shipment, and when the
// carrier will tell. The planner fills it; the DCSA server, the terminal endpoint, the push
// subscriptions and the ground truth all read from it, so they can never disagree.
import type { NumberType } from '../carriers/types.ts';
import type { DcsaEventCore, ModeOfTransport } from '../domain/tracking/carrier-events.ts';
import type { Place } from './world.ts';

/** How a carrier garbles an event on the wire; dirt.ts chooses and applies them. */
export type Quirk = 'repeated' | 'respelt' | 'swapped' | 'offset-none' | 'offset-utc' | 'offset-compact' | 'placeless' | 'bad-imo';

export type FacilityType = 'POTE' | 'DEPO' | 'INTE' | 'RAMP' | 'CLOC';

/** A facility at a place: a port terminal (with its SMDG code when known), a depot, a rail ramp. */
export interface Facility {
  place: Place;
  type: FacilityType;
  smdgCode: string | null;
  /** US terminals' CBP FIRMS code; the terminal endpoint reports under it when there is no SMDG code. */
  firmsCode: string | null;
  /** Free-text name for facilities without a code (DCSA otherFacility). */
  otherFacility: string | null;
}

export interface Vessel {
  imo: string;
  name: string;
}

export type LegKind = 'mainline' | 'feeder' | 'rail';

export interface Leg {
  index: number;
  kind: LegKind;
  mode: ModeOfTransport;
  /** Null for barges and trains. */
  vessel: Vessel | null;
  /** The railroad running a rail leg (its SCAC); absent for legs on the water. */
  railOperator?: string;
  voyage: string | null;
  serviceCode: string | null;
  from: Facility;
  to: Facility;
  fromCallId: string;
  toCallId: string;
  fromCallSequence: number;
  toCallSequence: number;
  /** Sea miles for vessels and barges, rail kilometres for trains. */
  distance: number;
  /** Knots on the water; null for rail. */
  speedKnots: number | null;
  plannedDepartAt: Date;
  plannedArriveAt: Date;
  departAt: Date;
  arriveAt: Date;
}

export interface JourneyContainer {
  number: string;
  /** ISO 6346 size-type code: 22G1, 42G1, 45G1, 45R1. */
  isoEquipmentCode: string;
  seals: string[];
  weightKg: number;
}

/**
 * A DCSA event the sandbox plays: its id is a UUID derived from the journey and the event (stable
 * across restarts); its code is ARRI/DEPA, LOAD/DISC/GTIN/GTOT, or a shipment code (CONF, ISSU,
 * RELS, CANC); publishedAt is when the carrier makes it visible.
 */
export interface JourneyEvent extends DcsaEventCore {
  /** svc milestones this actual event stands for (anchors §2.7); usually one, none for shipment events. */
  milestones: string[];
  /** For EST/PLN events: the estimate they update (shipment.estimated.arrival…). */
  estimate: string | null;
  /** Equipment events: the box. */
  container: string | null;
  /** Transport events: the boxes on board (sent as EQ references). */
  containers: string[];
  facility: Facility | null;
  /** The vessel, barge or train call the event belongs to; null for gate moves by truck. */
  leg: Leg | null;
  legEnd: 'from' | 'to' | null;
  emptyIndicator: 'EMPTY' | 'LADEN' | null;
  /** Shipment events: the document they concern. */
  document: { type: 'BKG' | 'TRD' | 'SRM'; id: string } | null;
  delayReasonCode: string | null;
  changeRemark: string | null;
  /** How the carrier garbles this event on the wire (dirt.ts); empty for a clean one. */
  quirks: Quirk[];
  /** A copy the carrier sends again under a new id: the id of the event it repeats. */
  reissueOf: string | null;
}

export type HoldName = 'customs' | 'freight' | 'TMF' | 'USDA' | 'VACIS' | 'other';

export interface HoldPlan {
  name: HoldName;
  description: string;
  /** Announced as expected (status pending) from here; null when it appears directly as a hold. */
  pendingFrom: Date | null;
  holdFrom: Date;
  releasedAt: Date;
}

/** What the pickup terminal reports about one box over time (not DCSA; see terminal-status.ts). */
export interface TerminalPlan {
  container: string;
  /** Rail moves: the port terminal reports the box from discharge until the train leaves. */
  portStay: { from: Date; until: Date; terminalCode: string | null } | null;
  /** From when the pickup facility (POD terminal, or the inland ramp) reports the box. */
  reportedFrom: Date;
  terminalCode: string | null;
  timeZone: string;
  holds: HoldPlan[];
  availableAt: Date;
  fullOutAt: Date;
  /** Last free day (YYYY-MM-DD, local), with each value from the time the terminal shows it. */
  lastFreeDays: { from: Date; value: string }[];
  appointment: { bookedAt: Date; at: Date } | null;
  demurragePerDay: number;
  currency: string;
  examFee: { from: Date; amount: number } | null;
}

export interface Route {
  origin: Place | null;
  pol: Place;
  transshipments: Place[];
  pod: Place;
  destination: Place | null;
}

export interface Journey {
  scac: string;
  numberType: NumberType;
  number: string;
  startAt: Date;
  billOfLading: string;
  bookingNumber: string;
  containers: JourneyContainer[];
  /** Null for a booking cancelled before any box moved. */
  route: Route | null;
  legs: Leg[];
  /** Every event the carrier will ever publish for this shipment, ordered by publication time. */
  events: JourneyEvent[];
  terminal: TerminalPlan[];
}
