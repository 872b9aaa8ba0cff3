// Applies a carrier snapshot to a stored shipment: runs the pure diff engine against what is
// stored, then writes the containers and the new events in the caller's transaction; the caller
// writes the shipment row and the outbox records in the same one, so an event is recorded exactly
// when the change it describes is.
import type { CarrierEvent, CarrierSnapshot } from '../../domain/tracking/carrier-events.ts';
import { diffSnapshot } from '../../domain/tracking/diff.ts';
import type { ContainerState, ShipmentState } from '../../domain/tracking/types.ts';
import type { Tx } from '../../store/db.ts';
import { domainEvent, type DomainEvent } from '../../domain/events/domain-event.ts';
import { insertTrackingEvents } from '../../store/events.ts';
import { terminalIdsOfCodes } from '../../store/reference.ts';
import { upsertContainers, type ShipmentRow } from '../../store/shipments.ts';
import { storedTrackingOf } from '../../store/tracking-state.ts';
import { learnNewVessels, type NamedVessel } from '../../store/learned-vessels.ts';
import { vesselsNamed } from '../../domain/tracking/ais-vessels.ts';

export interface ApplyResult {
  /** Anything new from the carrier: a milestone, an estimate, a terminal change. */
  changed: boolean;
  shipmentState: ShipmentState;
  containerStates: ContainerState[];
  /** The outbox records of what changed, for the caller to record with its own in one statement (recordEvents). */
  events: DomainEvent[];
  /** What the shipment row takes (saveLookup), written by the caller with the lookup's schedule. */
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

/**
 * Runs the diff against what is stored and writes the containers and new events; the shipment row
 * and the outbox records are left to the caller, which writes them with its own in one statement each.
 */
export async function applySnapshot(tx: Tx, shipment: ShipmentRow, fetched: CarrierSnapshot, now: Date): Promise<ApplyResult> {
  const locodes = [...new Set(fetched.events.map((e) => e.locode).filter((l): l is string => !!l))];
  const { carrierEvents, containers: stored, milestones: keys, places: known } = await storedTrackingOf(tx, shipment.id, locodes);
  const { merged: snapshot, fresh } = withStoredEvents(carrierEvents, fetched);
  const previousShipment = Object.keys(shipment.state).length > 0 ? (shipment.state as unknown as ShipmentState) : null;
  const diff = diffSnapshot(
    {
      shipment: previousShipment,
      containers: stored.map((c) => c.state as unknown as ContainerState),
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
  const terminals = await terminalIdsOfCodes(tx, [...new Set(diff.containers.map((c) => c.state.pod_terminal).filter((c): c is string => !!c))], diff.shipment.port_of_discharge_locode);
  const podTerminalId = diff.containers.map((c) => (c.state.pod_terminal ? terminals.get(c.state.pod_terminal) : undefined)).find(Boolean) ?? null;
  const shipmentState = {
    ...diff.shipment,
    port_of_lading_name: nameOf(diff.shipment.port_of_lading_locode),
    port_of_discharge_name: nameOf(diff.shipment.port_of_discharge_locode),
    destination_name: nameOf(diff.shipment.destination_locode),
    pod_terminal_id: podTerminalId,
  };

  const containerIds = new Map(stored.map((c) => [c.number, c.id]));
  const events: DomainEvent[] = [];
  const base = { account_id: shipment.account_id, shipment_id: shipment.id };
  const upserted = await upsertContainers(tx, {
    ...base,
    ref_numbers: shipment.ref_numbers,
    at: now,
    containers: diff.containers.map(({ state }) => ({ number: state.number, state: { ...state, pod_terminal_id: state.pod_terminal ? (terminals.get(state.pod_terminal) ?? null) : null } })),
  });
  for (const { state, isNew } of diff.containers) {
    const row = upserted.get(state.number)!;
    containerIds.set(state.number, row.id);
    if (isNew && row.inserted) events.push(domainEvent('container.created', { ...base, reference_id: row.id, container_id: row.id }));
  }

  const inserted = await insertTrackingEvents(tx, { ...base, containerIds, diff, rawEvents: fresh, now });
  events.push(...inserted);
  const vessels = vesselsNamed(diff, previousShipment);
  const sightings = (await learnNewVessels(tx, vessels, now)) ? vessels : [];

  return {
    changed: events.length > 0,
    shipmentState: diff.shipment,
    containerStates: diff.containers.map((c) => c.state),
    events,
    saved: { state: shipmentState, billOfLadingNumber: snapshot.billOfLadingNumber, bookingNumber: snapshot.bookingNumber },
    sightings,
  };
}
