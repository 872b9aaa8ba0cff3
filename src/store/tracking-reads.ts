// Shipments and containers read to be shown: each row with what its resource names beside it
// (a shipment's line, customer, containers and AIS estimate; a container's transport events),
// joined in one statement instead of one statement per related table.
import type { Queryable } from './db.ts';
import type { ContainerRow, ShipmentRow } from './shipments.ts';
import { containerFreshnessColumn, shipmentFreshnessColumn } from './freshness.ts';
import { lastCheckedColumn } from './shipment-refreshes.ts';
import { byIds, isUuid } from './uuid.ts';

/** The order a container's transport events are listed in (as transportEventsOfContainers lists them). */
export const TRANSPORT_EVENT_ORDER = 'timestamp NULLS LAST, created_at, id';

export interface ShownContainerRow extends ContainerRow {
  /** Its transport events' ids, in TRANSPORT_EVENT_ORDER. */
  transport_event_ids: string[];
  /** Its freshness as read (freshness.ts: read it with freshnessOf). */
  data_freshness: unknown;
}

// Statement texts are made once: the pool names each prepared statement by its text. Lists of
// ids come back as JSON, which JSON.parse reads about fifteen times faster than node-postgres
// parses a uuid[] (measured: 3 µs against 45 µs for twelve ids).
const shownContainersById = byIds(
  2,
  (match) => `SELECT c.*,
    coalesce((SELECT json_agg(e.id ORDER BY ${TRANSPORT_EVENT_ORDER}) FROM transport_events e WHERE e.container_id = c.id), '[]') AS transport_event_ids,
    ${containerFreshnessColumn('c')} AS data_freshness
  FROM containers c WHERE c.account_id = $1 AND c.id ${match}`,
);
const EVENT_IDS_OF = `SELECT container_id, json_agg(id ORDER BY ${TRANSPORT_EVENT_ORDER}) AS ids FROM transport_events
  WHERE container_id = ANY($1::uuid[]) GROUP BY container_id`;

/** The account's containers with these ids and their events' ids; ids that are not uuids find nothing. */
export async function shownContainers(db: Queryable, accountId: string, ids: string[]): Promise<ShownContainerRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { text, ids: idsValue } = shownContainersById(valid);
  const { rows } = await db.query<ShownContainerRow>(text, [accountId, idsValue]);
  return rows;
}

/** The ids of these containers' transport events, by container, in TRANSPORT_EVENT_ORDER. */
export async function transportEventIdsOf(db: Queryable, containerIds: string[]): Promise<Map<string, string[]>> {
  if (containerIds.length === 0) return new Map();
  const { rows } = await db.query<{ container_id: string; ids: string[] }>(EVENT_IDS_OF, [containerIds]);
  return new Map(rows.map((r) => [r.container_id, r.ids]));
}

export interface ShownShipmentRow extends ShipmentRow {
  line_name: string | null;
  line_short_name: string | null;
  customer_name: string | null;
  /** Its containers' ids, by container number. */
  container_ids: string[];
  /**
   * The estimate for the vessel and port the shipment's state names, computed at or after the
   * date given (both null without one); whether the shipment shows it (only while at sea) is the
   * caller's to judge.
   */
  ais_eta_at: Date | null;
  ais_computed_at: Date | null;
  /** Its freshness as read (freshness.ts: read it with freshnessOf). */
  data_freshness: unknown;
}

const shownShipmentsById = byIds(
  2,
  (match) => `SELECT s.*, ${lastCheckedColumn('s')}, l.name AS line_name, l.short_name AS line_short_name, p.company_name AS customer_name,
            coalesce((SELECT json_agg(c.id ORDER BY c.number) FROM containers c WHERE c.shipment_id = s.id), '[]') AS container_ids,
            e.eta_at AS ais_eta_at, e.computed_at AS ais_computed_at, ${shipmentFreshnessColumn('s')} AS data_freshness
       FROM shipments s
       LEFT JOIN shipping_lines l ON l.scac = s.scac
       LEFT JOIN parties p ON p.id = s.customer_id
       LEFT JOIN ais_port_etas e ON e.vessel_imo = s.state->>'pod_vessel_imo' AND e.port_locode = s.state->>'port_of_discharge_locode'
                                AND e.computed_at >= $3
      WHERE s.account_id = $1 AND s.id ${match}`,
);

/** The account's shipments with these ids, joined to what they show; ids that are not uuids find nothing. */
export async function shownShipments(db: Queryable, accountId: string, ids: string[], aisComputedSince: Date): Promise<ShownShipmentRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { text, ids: idsValue } = shownShipmentsById(valid);
  // The date as text: node-postgres formats a Date parameter field by field, in local time (a few µs).
  const { rows } = await db.query<ShownShipmentRow>(text, [accountId, idsValue, aisComputedSince.toISOString()]);
  return rows;
}
