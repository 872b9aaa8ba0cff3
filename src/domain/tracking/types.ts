// The diff engine's vocabulary: the stored state of a shipment and its containers, and what one
// carrier snapshot changes in it (new milestones, a moved estimate, terminal attribute changes).
//
// State is JSON-safe on purpose: it is stored as JSON and handed back as-is on the next diff, so
// instants are ISO 8601 text in UTC rather than Date objects that would not survive the round trip.
import type { TerminalStatus } from './carrier-events.ts';

/** An instant in UTC as ISO 8601 text, e.g. "2026-03-01T14:05:00Z". */
export type IsoInstant = string;

export type TerminalHold = TerminalStatus['holds'][number];
export type TerminalFee = TerminalStatus['fees'][number];

export interface ShipmentState {
  bill_of_lading_number: string | null;
  booking_number: string | null;
  shipping_line_scac: string;
  port_of_lading_locode: string | null;
  port_of_discharge_locode: string | null;
  /** The inland place where the rail or truck move after discharge ends; null when the journey ends at the port of discharge. */
  destination_locode: string | null;
  /** Ports where the cargo changed vessel, in journey order (the route map's TS1, TS2…). */
  transshipment_locodes: string[];
  pod_vessel_name: string | null;
  pod_vessel_imo: string | null;
  pod_voyage_number: string | null;
  pol_etd_at: IsoInstant | null;
  pol_atd_at: IsoInstant | null;
  pod_eta_at: IsoInstant | null;
  /** The first port-of-discharge ETA ever seen; never overwritten. */
  pod_original_eta_at: IsoInstant | null;
  pod_ata_at: IsoInstant | null;
  destination_eta_at: IsoInstant | null;
  destination_ata_at: IsoInstant | null;
  pol_timezone: string | null;
  pod_timezone: string | null;
  destination_timezone: string | null;
}

/**
 * The reference service's container statuses; the engine sets all but off_dock, delivered (a
 * user's mark), dropped and loaded. One list for the type, the API schema and the status filter.
 */
export const CONTAINER_STATUSES = [
  'new',
  'on_ship',
  'grounded',
  'available',
  'not_available',
  'awaiting_inland_transfer',
  'on_rail',
  'off_dock',
  'picked_up',
  'delivered',
  'dropped',
  'loaded',
  'empty_returned',
] as const;
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];

export type EquipmentType = 'dry' | 'reefer' | 'open top' | 'flat rack' | 'bulk' | 'tank';
export type EquipmentHeight = 'standard' | 'high_cube';

export interface ContainerState {
  number: string;
  seal_number: string | null;
  equipment_type: EquipmentType | null;
  equipment_length: number | null;
  equipment_height: EquipmentHeight | null;
  weight_in_lbs: number | null;

  // Milestones (actual times). The first four are the reference service's live extras.
  empty_out_at: IsoInstant | null;
  pol_full_in_at: IsoInstant | null;
  pol_vessel_loaded_at: IsoInstant | null;
  pol_vessel_departed_at: IsoInstant | null;
  pod_arrived_at: IsoInstant | null;
  pod_discharged_at: IsoInstant | null;
  /** Null for inland moves: the pickup then happens at the destination. */
  pod_full_out_at: IsoInstant | null;
  final_destination_full_out_at: IsoInstant | null;
  empty_terminated_at: IsoInstant | null;
  pod_rail_loaded_at: IsoInstant | null;
  pod_rail_departed_at: IsoInstant | null;
  /** Estimated arrival of the rail move at the inland destination. */
  ind_eta_at: IsoInstant | null;
  ind_ata_at: IsoInstant | null;
  ind_rail_unloaded_at: IsoInstant | null;
  /** The railroad that took the box from the port of discharge, and the one that brought it to the inland destination. */
  pod_rail_carrier_scac: string | null;
  ind_rail_carrier_scac: string | null;
  pod_timezone: string | null;
  final_destination_timezone: string | null;
  empty_terminated_timezone: string | null;

  // Terminal data.
  availability_known: boolean;
  available_for_pickup: boolean | null;
  holds_at_pod_terminal: TerminalHold[];
  fees_at_pod_terminal: TerminalFee[];
  /** The last free day where the box is picked up, as the instant it begins there (local midnight). */
  pickup_lfd: IsoInstant | null;
  /** The port terminal's last free day, as the instant it begins there. */
  pickup_lfd_terminal: IsoInstant | null;
  /** The inland ramp's last free day, as the instant it begins at the ramp (local midnight in its zone). */
  pickup_lfd_rail: IsoInstant | null;
  pickup_appointment_at: IsoInstant | null;
  /** Code of the discharge terminal (FIRMS from terminal data, else the carrier's SMDG code). */
  pod_terminal: string | null;
  /** When terminal data about this container was last observed; null while no terminal reports it. */
  terminal_checked_at: IsoInstant | null;
  /** Code of the inland ramp that reports the box once the train has brought it there. */
  ind_terminal: string | null;
  /** Whether the newest terminal data came from the inland ramp rather than the port terminal. */
  terminal_reported_inland: boolean;

  /** The newest ocean or rail move, for where the box is between the stored milestones. */
  last_move: LastMove | null;
  /** Where the empty was returned. */
  empty_depot_locode: string | null;

  current_status: ContainerStatus;
}

/** The milestones of the reference service's `container.transport.*` events that carrier or terminal data can establish. */
export type MilestoneName =
  | 'empty_out'
  | 'full_in'
  | 'vessel_loaded'
  | 'vessel_departed'
  | 'transshipment_arrived'
  | 'transshipment_discharged'
  | 'transshipment_loaded'
  | 'transshipment_departed'
  | 'feeder_arrived'
  | 'feeder_discharged'
  | 'feeder_loaded'
  | 'feeder_departed'
  | 'vessel_arrived'
  | 'vessel_discharged'
  | 'available'
  | 'rail_loaded'
  | 'rail_departed'
  | 'rail_arrived'
  | 'rail_unloaded'
  | 'arrived_at_inland_destination'
  | 'full_out'
  | 'empty_in';

export type TransportEventName = `container.transport.${MilestoneName}` | 'container.transport.estimated.arrived_at_inland_destination';

/** The last ocean or rail move of the container, as its milestones give it. */
export interface LastMove {
  name: MilestoneName;
  locode: string | null;
  occurred_at: IsoInstant;
  vessel: { name: string | null; imo: string | null } | null;
  voyage_number: string | null;
}

export interface VesselRef {
  imo: string | null;
  name: string | null;
}

export interface NewTransportEvent {
  containerNumber: string;
  event: TransportEventName;
  /** When it happened (for the estimated event: when it is expected). */
  timestamp: Date;
  /** The UTC offset as the carrier wrote it, null when it gave none (or for terminal data). */
  utcOffset: string | null;
  /** IANA zone of the location. */
  timezone: string | null;
  locode: string | null;
  terminalCode: string | null;
  vessel: VesselRef | null;
  voyageNumber: string | null;
  dataSource: 'shipping_line' | 'terminal';
  /** The carrier event it comes from; null for terminal data. */
  sourceEventId: string | null;
  /** When the source published it; for the store's freshness columns. */
  publishedAt: Date | null;
  /** Identity of the milestone (see milestoneKey); the caller keeps it in emittedKeys. */
  key: string;
  /**
   * Present only on a correction: the event name the milestone was recorded under before (from
   * PreviousState.emittedEvents). The milestone keeps its key, so the record stored under it is
   * renamed, not duplicated: a vessel's load and departure at the port of lading first read as
   * vessel_loaded / vessel_departed become feeder_loaded / feeder_departed once the leg is known
   * to be a feeder.
   */
  correctionOf?: string;
}

export interface NewEstimatedEvent {
  event: 'shipment.estimated.arrival';
  estimatedTimestamp: Date;
  /** The ETA it replaces; null when the shipment had none yet. */
  previousTimestamp: Date | null;
  timezone: string | null;
  locode: string | null;
  voyageNumber: string | null;
  vessel: VesselRef | null;
  dataSource: 'shipping_line';
  publishedAt: Date | null;
}

/** The attributes a container_updated_event reports: the alertable ones of the spec and the reference service. */
export type ChangedAttribute = 'available_for_pickup' | 'pickup_lfd' | 'fees_at_pod_terminal' | 'holds_at_pod_terminal' | 'pickup_appointment_at' | 'pod_terminal';

export type Changeset = { [A in ChangedAttribute]?: [ContainerState[A], ContainerState[A]] };

export interface ContainerChange {
  containerNumber: string;
  changeset: Changeset;
  /** When the change was observed: the terminal's report, else the carrier lookup. */
  timestamp: Date;
  timezone: string | null;
  terminalCode: string | null;
}

export interface PreviousState {
  shipment: ShipmentState | null;
  containers: ContainerState[];
  /** Keys of every transport event already recorded for the shipment. */
  emittedKeys: ReadonlySet<string>;
  /**
   * The event name each of those keys is recorded under (`container.transport.vessel_loaded`…).
   * With it, a recorded milestone whose name the fuller route changes (a feeder recognised once
   * its arrival or the mother vessel's leg is known) is emitted again under its key, with
   * `correctionOf`; without it, a recorded milestone keeps its first name.
   */
  emittedEvents?: ReadonlyMap<string, string>;
}

export interface DiffContext {
  /** IANA zone of a UN/LOCODE, null when unknown. */
  timezoneOf(locode: string): string | null;
}

export interface Diff {
  shipment: ShipmentState;
  containers: { state: ContainerState; isNew: boolean }[];
  transportEvents: NewTransportEvent[];
  estimatedEvents: NewEstimatedEvent[];
  containerChanges: ContainerChange[];
}
