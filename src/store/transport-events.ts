// Reads of recorded events.
import type { Queryable } from './db.ts';
import { findOfAccount } from './account-rows.ts';
import { METRO_AREA } from './reference.ts';
import { byIds, isUuid } from './uuid.ts';

/** The columns an actual (transport) and an expected (estimated) event share: what, where, on which voyage, from whom. */
interface ObservedEventRow {
  id: string;
  shipment_id: string;
  event: string;
  timezone: string | null;
  location_locode: string | null;
  vessel_imo: string | null;
  vessel_name: string | null;
  voyage_number: string | null;
  data_source: string;
  published_at: Date | null;
  created_at: Date;
}

export interface TransportEventRow extends ObservedEventRow {
  container_id: string;
  timestamp: Date | null;
  terminal_code: string | null;
  /** The terminal `terminal_code` names, when svc knows it (resolved when the event is recorded). */
  terminal_id?: string | null;
  /** What kind of place `location_locode` is, as its relationship is typed; null for a place svc does not know. */
  location_type: 'port' | 'metro_area' | null;
}

/** The moves that end a journey inland: their place is the inland destination, a metro area, even where it has a port too (Chicago). */
export const INLAND_ARRIVALS: readonly string[] = ['rail_arrived', 'rail_unloaded', 'arrived_at_inland_destination', 'estimated.arrived_at_inland_destination'].map(
  (m) => `container.transport.${m}`,
);

/**
 * A transport event with the kind of its place, as its location relationship is typed: a metro
 * area (an inland hub, rail or ICD location that is no seaport, or the place of an inland arrival),
 * else a port; neither for a place svc does not know. GET /v2/ports/{id} and /v2/metro_areas/{id}
 * find each as typed.
 */
export const EVENTS_WITH_PLACES = `SELECT e.*,
         CASE WHEN ${METRO_AREA} AND (NOT l.is_seaport OR e.event IN (${INLAND_ARRIVALS.map((name) => `'${name}'`).join(', ')})) THEN 'metro_area' WHEN l.is_seaport THEN 'port' END AS location_type
    FROM transport_events e LEFT JOIN locations l ON l.locode = e.location_locode`;

const eventsOfContainers = byIds(1, (match) => `${EVENTS_WITH_PLACES} WHERE e.container_id ${match} ORDER BY e.timestamp NULLS LAST, e.created_at, e.id`);
const eventsOfAccount = byIds(2, (match) => `${EVENTS_WITH_PLACES} WHERE e.account_id = $1 AND e.id ${match}`);

export async function transportEventsOfContainers(db: Queryable, containerIds: string[]): Promise<TransportEventRow[]> {
  if (containerIds.length === 0) return [];
  const { text, ids } = eventsOfContainers(containerIds);
  const { rows } = await db.query<TransportEventRow>(text, [ids]);
  return rows;
}

export async function findTransportEvents(db: Queryable, accountId: string, ids: string[]): Promise<TransportEventRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { text, ids: idsValue } = eventsOfAccount(valid);
  const { rows } = await db.query<TransportEventRow>(text, [accountId, idsValue]);
  return rows;
}

export interface RawEventRow {
  id: string;
  container_number: string | null;
  source_event_id: string;
  event_type: string;
  code: string;
  classifier: string;
  occurred_at: Date;
  location_locode: string | null;
  payload: unknown;
  published_at: Date;
  received_at: Date;
}

export async function rawEventsOfContainer(db: Queryable, shipmentId: string, number: string): Promise<RawEventRow[]> {
  const { rows } = await db.query<RawEventRow>(
    `SELECT * FROM raw_events WHERE shipment_id = $1 AND (container_number = $2 OR container_number IS NULL)
      ORDER BY occurred_at, id`,
    [shipmentId, number],
  );
  return rows;
}

/** The transport event each of a container's raw events became, by the raw event's source id. */
export async function eventNamesBySourceEvent(db: Queryable, containerId: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ source_event_id: string; event: string }>(
    'SELECT source_event_id, event FROM transport_events WHERE container_id = $1 AND source_event_id IS NOT NULL',
    [containerId],
  );
  return new Map(rows.map((r) => [r.source_event_id, r.event]));
}

export interface EstimatedEventRow extends ObservedEventRow {
  estimated_timestamp: Date;
  previous_timestamp: Date | null;
}

export const findEstimatedEvents = (db: Queryable, accountId: string, ids: string[]): Promise<EstimatedEventRow[]> =>
  findOfAccount(db, 'estimated_events', accountId, ids);

export interface ContainerUpdatedEventRow {
  id: string;
  container_id: string;
  shipment_id: string;
  changeset: Record<string, [unknown, unknown]>;
  terminal_code: string | null;
  /** The container's POD terminal, the source of terminal data. */
  terminal_id: string | null;
  timestamp: Date;
  timezone: string | null;
  data_source: string;
  created_at: Date;
}

export async function findContainerUpdatedEvents(db: Queryable, accountId: string, ids: string[]): Promise<ContainerUpdatedEventRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<ContainerUpdatedEventRow>(
    `SELECT e.*, c.shipment_id, c.state->>'pod_terminal_id' AS terminal_id FROM container_updated_events e JOIN containers c ON c.id = e.container_id
      WHERE e.account_id = $1 AND e.id = ANY($2::uuid[])`,
    [accountId, valid],
  );
  return rows;
}
