// Reads of recorded events.
import type { Queryable } from './db.ts';
import { findOfAccount } from './account-rows.ts';
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
}

const eventsOfContainers = byIds(1, (match) => `SELECT * FROM transport_events WHERE container_id ${match} ORDER BY timestamp NULLS LAST, created_at, id`);

export async function transportEventsOfContainers(db: Queryable, containerIds: string[]): Promise<TransportEventRow[]> {
  if (containerIds.length === 0) return [];
  const { text, ids } = eventsOfContainers(containerIds);
  const { rows } = await db.query<TransportEventRow>(text, [ids]);
  return rows;
}

export const findTransportEvents = (db: Queryable, accountId: string, ids: string[]): Promise<TransportEventRow[]> =>
  findOfAccount(db, 'transport_events', accountId, ids);

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
