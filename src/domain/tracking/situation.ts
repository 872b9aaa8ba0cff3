// The container's situation now: where it is, what it waits for, and what stands between it and a
// pickup at the place the pickup happens. Every face (REST, webhooks, MCP, CLI, web) shows this
// one answer, so a box that went on by rail is placed at the inland ramp everywhere, not at the
// port terminal it left days before.
//
// A canal passage is not a situation here: carriers publish no canal events, and the vessel
// positions AIS gives are not part of the container's state, so a box in a canal is on_vessel.
import type { ContainerState, IsoInstant, LastMove, ShipmentState, TerminalFee, TerminalHold } from './types.ts';

export type { LastMove } from './types.ts';

export const SITUATION_KINDS = [
  'awaiting_empty_out',
  'at_origin',
  'at_port_terminal',
  'on_vessel',
  'at_transshipment_port',
  'on_rail',
  'at_inland_ramp',
  'picked_up',
  'empty_returned',
] as const;
export type SituationKind = (typeof SITUATION_KINDS)[number];

export const PLACE_ROLES = ['port_of_lading', 'transshipment_port', 'port_of_discharge', 'inland_destination', 'empty_depot'] as const;
export type PlaceRole = (typeof PLACE_ROLES)[number];

export const WAITING_FOR = ['empty_out', 'full_in', 'vessel_departure', 'vessel_arrival', 'discharge', 'onward_vessel', 'rail_departure', 'rail_arrival', 'release', 'pickup', 'empty_return'] as const;
export type WaitingFor = (typeof WAITING_FOR)[number];

export const AVAILABILITIES = ['available', 'not_available', 'unknown'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

export interface SituationPlace {
  role: PlaceRole;
  locode: string | null;
  name: string | null;
  /** IANA zone of the place. */
  timezone: string | null;
  /** FIRMS or SMDG code of the terminal or ramp, when known. */
  terminal_code: string | null;
}

export interface SituationVessel {
  name: string | null;
  imo: string | null;
  voyage_number: string | null;
}

export interface LastFreeDay {
  /** The calendar day at the place (YYYY-MM-DD). */
  date: string;
  timezone: string | null;
  /** Who set it: the port terminal, or the railroad's ramp inland (import_deadlines.pickup_lfd_rail). */
  source: 'terminal' | 'rail';
}

/** Where the box is picked up, and what stands in the way there. */
export interface SituationPickup {
  place: SituationPlace;
  availability: Availability;
  /** Holds and fees the terminal or ramp at `place` reports; empty when it reports none. */
  holds: TerminalHold[];
  fees: TerminalFee[];
  last_free_day: LastFreeDay | null;
  appointment_at: IsoInstant | null;
}

export interface ContainerSituation {
  kind: SituationKind;
  /** Where the box is; null while it is on the move (on a vessel at sea, on a train). */
  place: SituationPlace | null;
  vessel: SituationVessel | null;
  /** Where the move it is on ends (the vessel's next port, the train's ramp). */
  next_place: SituationPlace | null;
  /** When it got into this situation (the milestone that put it there). */
  since: IsoInstant | null;
  waiting_for: WaitingFor | null;
  pickup: SituationPickup | null;
}

export interface PlaceFacts {
  name: string | null;
  timezone: string | null;
}

export interface SituationInput {
  container: ContainerState;
  shipment: Pick<
    ShipmentState,
    'port_of_lading_locode' | 'port_of_discharge_locode' | 'destination_locode' | 'transshipment_locodes' | 'pod_vessel_name' | 'pod_vessel_imo' | 'pod_voyage_number'
  > | null;
  /** The newest milestone of the container (journey order); null when only the stored times are known. */
  lastMove: LastMove | null;
  /** Where the empty was returned, when known. */
  depotLocode: string | null;
  place(locode: string): PlaceFacts | null;
}

const AFTER_PICKUP: ReadonlySet<SituationKind> = new Set(['picked_up', 'empty_returned']);

/** The calendar day an instant falls on in a zone (UTC when the zone is unknown). */
export function localDate(instant: IsoInstant, zone: string | null): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone ?? 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(instant));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

export function containerSituation(input: SituationInput): ContainerSituation {
  const { container: c, shipment, lastMove } = input;
  const pol = shipment?.port_of_lading_locode ?? null;
  const pod = shipment?.port_of_discharge_locode ?? null;
  const destination = shipment?.destination_locode ?? null;
  const transshipments = shipment?.transshipment_locodes ?? [];
  const inlandTerminal = c.ind_terminal ?? null; // absent from states stored before it was kept

  const placeOf = (role: PlaceRole, locode: string | null, terminal: string | null = null, zone: string | null = null): SituationPlace => {
    const facts = locode ? input.place(locode) : null;
    return { role, locode, name: facts?.name ?? null, timezone: facts?.timezone ?? zone, terminal_code: terminal };
  };
  const podPlace = () => placeOf('port_of_discharge', pod, c.pod_terminal, c.pod_timezone);
  const rampPlace = () => placeOf('inland_destination', destination, inlandTerminal, c.final_destination_timezone);
  const nextPort = (after: string | null): SituationPlace => {
    const i = after === null ? -1 : transshipments.indexOf(after);
    const next = transshipments[i + 1];
    return next === undefined ? podPlace() : placeOf('transshipment_port', next);
  };
  const shipmentVessel = (): SituationVessel | null =>
    shipment?.pod_vessel_name || shipment?.pod_vessel_imo ? { name: shipment.pod_vessel_name, imo: shipment.pod_vessel_imo, voyage_number: shipment.pod_voyage_number } : null;
  const moveVessel = (): SituationVessel | null => (lastMove?.vessel ? { ...lastMove.vessel, voyage_number: lastMove.voyage_number } : shipmentVessel());

  const base = (kind: SituationKind, since: IsoInstant | null, waiting_for: WaitingFor | null, place: SituationPlace | null, extra: Partial<ContainerSituation> = {}): Omit<ContainerSituation, 'pickup'> => ({
    kind,
    place,
    vessel: null,
    next_place: null,
    since,
    waiting_for,
    ...extra,
  });

  let found: Omit<ContainerSituation, 'pickup'>;
  // The stored times decide the stage from the latest backwards; the last move refines the ocean leg.
  const ocean = lastMove && /^(vessel|transshipment|feeder)_/.test(lastMove.name) && !(lastMove.locode !== null && lastMove.locode === pod && /_(arrived|discharged)$/.test(lastMove.name)) ? lastMove : null;
  const atTransshipment = ocean && ocean.locode !== null && ocean.locode !== pol && /_(arrived|discharged)$/.test(ocean.name);
  const onwardFromTransshipment = ocean && ocean.locode !== null && ocean.locode !== pol && /_(loaded|departed)$/.test(ocean.name);

  if (c.empty_terminated_at) {
    found = base('empty_returned', c.empty_terminated_at, null, placeOf('empty_depot', input.depotLocode, null, c.empty_terminated_timezone));
  } else if (c.final_destination_full_out_at) {
    found = base('picked_up', c.final_destination_full_out_at, 'empty_return', rampPlace());
  } else if (c.pod_full_out_at) {
    found = base('picked_up', c.pod_full_out_at, 'empty_return', podPlace());
  } else if (c.current_status === 'picked_up' || c.current_status === 'delivered' || c.current_status === 'dropped') {
    found = base('picked_up', null, 'empty_return', destination ? rampPlace() : podPlace());
  } else if (c.ind_rail_unloaded_at || c.ind_ata_at) {
    found = base('at_inland_ramp', c.ind_rail_unloaded_at ?? c.ind_ata_at, 'pickup', rampPlace());
  } else if (c.pod_rail_departed_at || c.pod_rail_loaded_at) {
    found = base('on_rail', c.pod_rail_departed_at ?? c.pod_rail_loaded_at, 'rail_arrival', null, { next_place: rampPlace() });
  } else if (c.pod_discharged_at) {
    found = base('at_port_terminal', c.pod_discharged_at, destination ? 'rail_departure' : 'pickup', podPlace());
  } else if (c.pod_arrived_at) {
    found = base('on_vessel', c.pod_arrived_at, 'discharge', podPlace(), { vessel: shipmentVessel(), next_place: podPlace() });
  } else if (atTransshipment) {
    found = base('at_transshipment_port', ocean.occurred_at, 'onward_vessel', placeOf('transshipment_port', ocean.locode));
  } else if (onwardFromTransshipment) {
    found = base('on_vessel', ocean.occurred_at, 'vessel_arrival', null, { vessel: moveVessel(), next_place: nextPort(ocean.locode) });
  } else if (c.pol_vessel_departed_at) {
    found = base('on_vessel', c.pol_vessel_departed_at, 'vessel_arrival', null, { vessel: moveVessel(), next_place: nextPort(null) });
  } else if (c.pol_vessel_loaded_at) {
    found = base('on_vessel', c.pol_vessel_loaded_at, 'vessel_departure', placeOf('port_of_lading', pol), { vessel: moveVessel(), next_place: nextPort(null) });
  } else if (c.pol_full_in_at) {
    found = base('at_port_terminal', c.pol_full_in_at, 'vessel_departure', placeOf('port_of_lading', pol));
  } else if (c.empty_out_at) {
    found = base('at_origin', c.empty_out_at, 'full_in', null);
  } else if (c.current_status === 'on_ship') {
    found = base('on_vessel', null, 'vessel_arrival', null, { vessel: shipmentVessel(), next_place: podPlace() });
  } else {
    found = base('awaiting_empty_out', null, 'empty_out', null);
  }
  return { ...found, waiting_for: waitingAtPickup(found, c), pickup: AFTER_PICKUP.has(found.kind) ? null : pickupOf(c, destination ? rampPlace() : podPlace()) };
}

function activeHolds(c: SituationInput['container']): TerminalHold[] {
  return (c.holds_at_pod_terminal ?? []).filter((h) => h.status === 'hold');
}

/** At the place of pickup a box waits for its holds to be released before it waits for the truck. */
function waitingAtPickup(found: Omit<ContainerSituation, 'pickup'>, c: SituationInput['container']): WaitingFor | null {
  if (found.waiting_for !== 'pickup') return found.waiting_for;
  return activeHolds(c).length > 0 ? 'release' : 'pickup';
}

function pickupOf(c: SituationInput['container'], place: SituationPlace): SituationPickup {
  // The terminal data speaks of the place it was reported at: before the ramp reports, an
  // inland box's availability at the port terminal ("not for truck pickup") says nothing of the ramp.
  const inland = c.terminal_reported_inland ?? false;
  const reportedHere = place.role === 'inland_destination' ? inland : !inland;
  const known = reportedHere && c.availability_known && c.available_for_pickup !== null;
  const lfd = place.role === 'inland_destination' ? (c.pickup_lfd_rail ?? null) : (c.pickup_lfd_terminal ?? c.pickup_lfd);
  return {
    place,
    availability: known ? (c.available_for_pickup ? 'available' : 'not_available') : 'unknown',
    // States stored by older versions may lack the terminal's lists: none known is none shown.
    holds: reportedHere || c.terminal_checked_at === null ? (c.holds_at_pod_terminal ?? []) : [],
    fees: reportedHere ? (c.fees_at_pod_terminal ?? []) : [],
    last_free_day: lfd ? { date: localDate(lfd, place.timezone), timezone: place.timezone, source: place.role === 'inland_destination' ? 'rail' : 'terminal' } : null,
    appointment_at: reportedHere ? (c.pickup_appointment_at ?? null) : null,
  };
}
