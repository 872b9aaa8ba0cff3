// Applies a carrier snapshot to a stored shipment: runs the pure diff engine against what is
// stored, then writes the containers and the new events, with the shipment row and the outbox
// records in the same statement or the caller's transaction, so an event is recorded exactly when
// the change it describes is.
import { isDeepStrictEqual } from 'node:util';
import type { CarrierEvent, CarrierSnapshot } from '../../domain/tracking/carrier-events.ts';
import { diffSnapshot } from '../../domain/tracking/diff.ts';
import { containerSituation } from '../../domain/tracking/situation.ts';
import type { ContainerState, Diff, ShipmentState } from '../../domain/tracking/types.ts';
import type { Queryable } from '../../store/db.ts';
import type { DomainEvent } from '../../domain/events/domain-event.ts';
import { placesByLocode, terminalIdsOfCodes } from '../../store/reference.ts';
import type { ShipmentRow } from '../../store/shipments.ts';
import { saveTrackingChanges, storedTrackingOf, type LookupRow, type StoredTracking } from '../../store/tracking-state.ts';
import type { NamedVessel } from '../../store/learned-vessels.ts';
import { vesselsNamed } from '../../domain/tracking/ais-vessels.ts';

export interface ApplyResult {
  /** Anything new from the carrier: a milestone, an estimate, a terminal change. */
  changed: boolean;
  shipmentState: ShipmentState;
  containerStates: ContainerState[];
  /** The outbox records of what changed, for the caller to record with its own in one statement (recordEvents). */
  events: DomainEvent[];
  /** What the shipment row takes (saveLookups), written by the caller with the lookup's schedule. */
  saved: { state: object; billOfLadingNumber: string | null; bookingNumber: string | null };
  /** Vessels named that svc knew already: their sighting is recorded after the commit (learnVessels). */
  sightings: NamedVessel[];
}

/**
 * An incremental refresh brings only events published since the last one; the diff engine
 * needs the whole story (the port of lading is the first vessel load…), so the stored events are
 * merged in, a newer version of the same carrier event replacing the older.
 */
function withStoredEvents(stored: CarrierEvent[], snapshot: CarrierSnapshot): { merged: CarrierSnapshot; fresh: CarrierEvent[] } {
  const byId = new Map(stored.map((e) => [e.id, e]));
  const fresh: CarrierEvent[] = [];
  for (const e of snapshot.events) {
    const old = byId.get(e.id);
    if (old && old.publishedAt >= e.publishedAt) continue;
    byId.set(e.id, e);
    fresh.push(e);
  }
  return { merged: { ...snapshot, events: [...byId.values()] }, fresh };
}

/** What a lookup's diff and writes read of the shipment row. */
export type PlannedShipment = Pick<ShipmentRow, 'id' | 'account_id' | 'ref_numbers' | 'state' | 'line_tracking_last_changed_at'>;

/** What a lookup's diff made of a shipment, before anything is written. */
export interface Plan {
  shipment: PlannedShipment;
  diff: Diff;
  /** Carrier events to store: new ones, or newer versions of stored ones. */
  fresh: CarrierEvent[];
  shipmentState: object;
  billOfLadingNumber: string | null;
  bookingNumber: string | null;
  /** Container ids by number, of those stored. */
  containerIds: Map<string, string>;
  /** The containers whose state is new or changed, as they are stored. */
  containerWrites: { number: string; state: object; isNew: boolean }[];
  vessels: NamedVessel[];
  /** Nothing to write but the shipment row: no event, no container change, nothing to store. */
  quiet: boolean;
}

/** The boxes the terminal may still hold: not picked up at the port of discharge or the final destination, nor returned empty. */
export const containersStillOut = (containers: { number: string; state: Pick<ContainerState, 'pod_full_out_at' | 'final_destination_full_out_at' | 'empty_terminated_at'> }[]): string[] =>
  containers.filter(({ state: s }) => s.pod_full_out_at == null && s.final_destination_full_out_at == null && s.empty_terminated_at == null).map((c) => c.number);

/** As it reads back from the jsonb column: Dates as strings, undefined members gone. */
const asStored = (value: object): unknown => JSON.parse(JSON.stringify(value));

/**
 * Runs the diff against what is stored (`stored`, read while the shipment is leased; read here
 * when null). Reads only: places the answer names that the stored events did
 * not, and terminal ids the stored containers do not already carry.
 */
export async function planSnapshot(db: Queryable, shipment: PlannedShipment, fetched: CarrierSnapshot, stored: StoredTracking | null): Promise<Plan> {
  const locodes = [...new Set(fetched.events.map((e) => e.locode).filter((l): l is string => !!l))];
  if (stored) {
    const asked = new Set(stored.carrierEvents.map((e) => e.locode));
    const missing = locodes.filter((l) => !asked.has(l));
    if (missing.length > 0) for (const [locode, place] of await placesByLocode(db, missing)) stored.places.set(locode, place);
  }
  const { carrierEvents, containers, milestones: keys, places: known } = stored ?? (await storedTrackingOf(db, shipment.id, locodes));
  const { merged: snapshot, fresh } = withStoredEvents(carrierEvents, fetched);
  const previousShipment = Object.keys(shipment.state).length > 0 ? (shipment.state as unknown as ShipmentState) : null;
  const diff = diffSnapshot(
    {
      shipment: previousShipment,
      containers: containers.map((c) => c.state as unknown as ContainerState),
      // An arrival AIS saw first (data_source 'ais') waits for the carrier's own record: left out here,
      // the carrier's milestone is written over it under the same key, not announced a second time.
      emittedKeys: new Set(keys.filter((k) => k.data_source !== 'ais').map((k) => k.key)),
      // The names they are recorded under: a milestone the fuller route renames (a feeder recognised late) is corrected in place.
      emittedEvents: new Map(keys.map((k) => [k.key, k.event])),
    },
    snapshot,
    { timezoneOf: (locode) => known.get(locode)?.time_zone ?? null },
  );
  // Names and record ids beside the codes, for the API's *_name attributes and relationships.
  const nameOf = (locode: string | null) => (locode ? (known.get(locode)?.name ?? null) : null);
  const placeFacts = (locode: string) => {
    const place = known.get(locode);
    return place ? { name: place.name, timezone: place.time_zone } : null;
  };
  const terminals = await terminalIds(db, containers, diff, previousShipment);
  const podTerminalId = diff.containers.map((c) => (c.state.pod_terminal ? terminals.get(c.state.pod_terminal) : undefined)).find(Boolean) ?? null;
  const shipmentState = {
    ...diff.shipment,
    port_of_lading_name: nameOf(diff.shipment.port_of_lading_locode),
    port_of_discharge_name: nameOf(diff.shipment.port_of_discharge_locode),
    destination_name: nameOf(diff.shipment.destination_locode),
    pod_terminal_id: podTerminalId,
  };
  // An unchanged container is not written again: the same state would only make a new row version.
  const before = new Map(containers.map((c) => [c.number, c.state]));
  const containerWrites = diff.containers.flatMap(({ state, isNew }) => {
    const situation = containerSituation({ container: state, shipment: diff.shipment, lastMove: state.last_move, depotLocode: state.empty_depot_locode, place: placeFacts });
    const next = { ...state, pod_terminal_id: state.pod_terminal ? (terminals.get(state.pod_terminal) ?? null) : null, situation };
    const old = before.get(state.number);
    return old && isDeepStrictEqual(asStored(next), old) ? [] : [{ number: state.number, state: next, isNew }];
  });
  const vessels = vesselsNamed(diff, previousShipment);
  const quiet =
    fresh.length === 0 && containerWrites.length === 0 && vessels.length === 0 &&
    diff.transportEvents.length === 0 && diff.estimatedEvents.length === 0 && diff.containerChanges.length === 0;
  return {
    shipment,
    diff,
    fresh,
    shipmentState,
    billOfLadingNumber: snapshot.billOfLadingNumber,
    bookingNumber: snapshot.bookingNumber,
    containerIds: new Map(containers.map((c) => [c.number, c.id])),
    containerWrites,
    vessels,
    quiet,
  };
}

/**
 * Terminal ids for the codes the containers report at the port of discharge. A stored container
 * that reports the same code at the same port carries its id already; the rest are looked up.
 */
async function terminalIds(db: Queryable, stored: StoredTracking['containers'], diff: Diff, previous: ShipmentState | null): Promise<Map<string, string>> {
  const pod = diff.shipment.port_of_discharge_locode;
  const known = new Map<string, string>();
  if (previous?.port_of_discharge_locode === pod) {
    for (const { state: s } of stored) if (typeof s.pod_terminal === 'string' && typeof s.pod_terminal_id === 'string') known.set(s.pod_terminal, s.pod_terminal_id);
  }
  const codes = [...new Set(diff.containers.map((c) => c.state.pod_terminal).filter((c): c is string => !!c && !known.has(c)))];
  for (const [code, id] of await terminalIdsOfCodes(db, codes, pod)) known.set(code, id);
  return known;
}

/**
 * Writes what the plan found in one statement (saveTrackingChanges): the containers, the new
 * events and vessels. With `finish`, the statement also writes the shipment row and records the
 * outbox (the lookup's records, then `finish.later`); without it, the caller records `events`.
 */
export async function writePlan(db: Queryable, plan: Plan, now: Date, finish?: { lookup: LookupRow; later: DomainEvent[] }): Promise<ApplyResult> {
  const { shipment, diff } = plan;
  const saved = await saveTrackingChanges(
    db,
    {
      account_id: shipment.account_id,
      shipment_id: shipment.id,
      ref_numbers: shipment.ref_numbers,
      now,
      containerIds: plan.containerIds,
      containerWrites: plan.containerWrites,
      diff,
      rawEvents: plan.fresh,
      vessels: plan.vessels,
      containerStatuses: plan.containerWrites.length > 0 ? diff.containers.map((c) => c.state.current_status ?? 'new') : null,
    },
    finish,
  );
  return { ...resultOf(plan), changed: saved.changed, events: saved.events, sightings: saved.knownVessels ? plan.vessels : [] };
}

/** The result of a quiet plan, which writes nothing but the shipment row. */
export const quietResult = (plan: Plan): ApplyResult => ({ ...resultOf(plan), changed: false, events: [], sightings: [] });

const resultOf = (plan: Plan) => ({
  shipmentState: plan.diff.shipment,
  containerStates: plan.diff.containers.map((c) => c.state),
  saved: { state: plan.shipmentState, billOfLadingNumber: plan.billOfLadingNumber, bookingNumber: plan.bookingNumber },
});
