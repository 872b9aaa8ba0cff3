// Applies a carrier snapshot to a stored shipment: runs the pure diff engine against what is
// stored, then writes the new state, the new events and their outbox records in the caller's
// transaction, so an event is recorded exactly when the change it describes is.
import type { CarrierEvent, CarrierSnapshot } from '../../domain/tracking/carrier-events.ts';
import { diffSnapshot } from '../../domain/tracking/diff.ts';
import type { ContainerState, ShipmentState } from '../../domain/tracking/types.ts';
import type { Tx } from '../../store/db.ts';
import { domainEvent, type DomainEvent } from '../../domain/events/domain-event.ts';
import { recordEvents } from '../../store/domain-events.ts';
import { insertTrackingEvents, storedCarrierEvents } from '../../store/events.ts';
import { placesByLocode, terminalIdsOfCodes } from '../../store/reference.ts';
import { containersOfShipments, saveShipmentState, upsertContainer, type ShipmentRow } from '../../store/shipments.ts';
import { emittedEventKeys } from '../../store/transport-events.ts';
import { learnVessels } from '../../store/learned-vessels.ts';
import { vesselsNamed } from '../../domain/tracking/ais-vessels.ts';

export interface ApplyResult {
  /** Anything new from the carrier: a milestone, an estimate, a terminal change. */
  changed: boolean;
  shipmentState: ShipmentState;
  containerStates: ContainerState[];
}

const places = (tx: Tx, snapshot: CarrierSnapshot) => placesByLocode(tx, [...new Set(snapshot.events.map((e) => e.locode).filter((l): l is string => !!l))]);

/**
 * An incremental refresh brings only events published since the last one; the diff engine
 * needs the whole story (the port of lading is the first vessel load…), so the stored events are
 * merged in, a newer version of the same carrier event replacing the older.
 */
async function withStoredEvents(tx: Tx, shipmentId: string, snapshot: CarrierSnapshot): Promise<{ merged: CarrierSnapshot; fresh: CarrierEvent[] }> {
  const byId = new Map((await storedCarrierEvents(tx, shipmentId)).map((e) => [e.id, e]));
  const fresh: CarrierEvent[] = [];
  for (const e of snapshot.events) {
    const old = byId.get(e.id);
    if (old && old.publishedAt >= e.publishedAt) continue;
    byId.set(e.id, e);
    fresh.push(e);
  }
  return { merged: { ...snapshot, events: [...byId.values()] }, fresh };
}

export async function applySnapshot(tx: Tx, shipment: ShipmentRow, fetched: CarrierSnapshot, now: Date): Promise<ApplyResult> {
  const { merged: snapshot, fresh } = await withStoredEvents(tx, shipment.id, fetched);
  const stored = await containersOfShipments(tx, [shipment.id]);
  const keys = await emittedEventKeys(tx, shipment.id);
  const known = await places(tx, snapshot);
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
  for (const { state, isNew } of diff.containers) {
    const stored = { ...state, pod_terminal_id: state.pod_terminal ? (terminals.get(state.pod_terminal) ?? null) : null };
    const { row, inserted } = await upsertContainer(tx, { ...base, number: state.number, ref_numbers: shipment.ref_numbers, state: stored, at: now });
    containerIds.set(row.number, row.id);
    if (isNew && inserted) events.push(domainEvent('container.created', { ...base, reference_id: row.id, container_id: row.id }));
  }

  const inserted = await insertTrackingEvents(tx, { ...base, containerIds, diff, rawEvents: fresh, now });
  events.push(...inserted);
  await learnVessels(tx, vesselsNamed(diff, previousShipment), now);

  await saveShipmentState(tx, shipment.id, { state: shipmentState, billOfLadingNumber: snapshot.billOfLadingNumber, bookingNumber: snapshot.bookingNumber, at: now });
  await recordEvents(tx, events, now);
  return {
    changed: events.length > 0,
    shipmentState: diff.shipment,
    containerStates: diff.containers.map((c) => c.state),
  };
}
