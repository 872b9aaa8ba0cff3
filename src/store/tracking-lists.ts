// SQL for the lists of shipments and containers and their filters. Shipment and container share
// the filters on a journey (status, ports, line, updated_at): a shipment matches on its own
// columns and its containers' statuses (kept on it), a container on its own status and updated_at
// and on its shipment's ports and line. Migrations 008, 015, 017 and 026 index each of them beside account_id
// (015 and 017: followed by the lists' order, so a page on one value is read off the index in
// order, and a range's page is sorted from index entries alone).
import { ACCOUNT, pageOfAccount, type CountPath } from './account-rows.ts';
import { customFieldConditions, type CustomFieldMatch } from './custom-field-filters.ts';
import type { Conditions, TimeRange } from './conditions.ts';
import type { Queryable } from './db.ts';
import { recordedScacs } from './reference.ts';
import { bare, containerNumbers, holdsNumber, searchText, shipmentNumbers } from './search.ts';
import type { ContainerRow, ShipmentRow } from './shipments.ts';
import { isUuid } from './uuid.ts';

/** Lists mean "any of"; codes arrive in capitals, as stored. */
export interface JourneyFilters {
  /** Containers' current_status. */
  status?: string[];
  /** The port of lading, of discharge or the destination. */
  port?: string[];
  /** The port of lading. */
  pol_locode?: string[];
  /** The port of discharge. */
  pod_locode?: string[];
  /** The shipping line, by SCAC or alternative SCAC. */
  line_scac?: string[];
  /** The listed record's own updated_at. */
  updated?: TimeRange;
}

export interface ShipmentFilters extends JourneyFilters, CustomFieldMatch {
  /** Part of a number: the shipment's, a reference number or a container's (or its reference number). */
  q?: string;
  /** The tracked, B/L or booking number, exactly. */
  number?: string;
  tracking_stopped?: boolean;
  /** At least one container has a hold at the port of discharge's terminal (true), or none has (false). */
  on_hold?: boolean;
  /** The carrier's estimate of the arrival at the port of discharge. */
  pod_eta?: TimeRange;
}

/**
 * The orders a page of shipments may be sorted in, by the API's names, each an expression on the
 * shipments table. Times are stored in the state as ISO 8601 text; the arrival (the actual one
 * once there is one, else the estimate: what a list of arrivals shows) and the estimate are kept
 * beside it as instants, in indexed columns (migration 017).
 */
const SHIPMENT_ORDERS = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  bill_of_lading_number: 'coalesce(bill_of_lading_number, request_number)',
  shipping_line_scac: 'scac',
  port_of_lading_name: "state->>'port_of_lading_name'",
  port_of_discharge_name: "state->>'port_of_discharge_name'",
  pod_arrival_at: 'pod_arrival_instant',
  line_tracking_last_succeeded_at: 'line_tracking_last_succeeded_at',
} as const;

export type ShipmentOrderField = keyof typeof SHIPMENT_ORDERS;
export const SHIPMENT_ORDER_FIELDS = Object.keys(SHIPMENT_ORDERS) as ShipmentOrderField[];
/** The orders whose expression always has a value (its columns are NOT NULL). */
const NEVER_NULL = new Set<ShipmentOrderField>(['created_at', 'updated_at', 'bill_of_lading_number', 'shipping_line_scac']);

/** A field and its direction; records without a value come last either way. */
export interface ShipmentOrder {
  field: ShipmentOrderField;
  descending: boolean;
}

export interface ContainerFilters extends JourneyFilters, CustomFieldMatch {
  number?: string;
  shipment_id?: string;
}

/**
 * A container's status as the API reports it: the stored one, else new. The expression is the
 * one migration 008 indexes, so write it exactly so.
 */
const containerStatus = (c: string) => `coalesce(${c}.state->>'current_status', 'new')`;

/** What a shipment answers for its ports and line, `s` naming the shipments table. */
function onShipment(where: Conditions, s: string, f: JourneyFilters): Conditions {
  return where
    // The three legs' ports kept as one array on the shipment (migration 026).
    .when(f.port, (p) => `${s}.port_locodes && ${p}::text[]`)
    // The ports of lading and discharge kept as columns (migration 031): a total is counted from
    // their index's entries alone.
    .oneOf(`${s}.pol_locode`, f.pol_locode)
    .oneOf(`${s}.pod_locode`, f.pod_locode)
    .oneOf(`${s}.scac`, f.line_scac);
}

/**
 * The total of a list filtered by a range alone (filter[updated_at], filter[pod_eta_at]): counted
 * walking the range's index in its own order, which stops at the bound, rather than in the list's
 * order, which first sorts every match in the range (a day of a large account's updates: thousands
 * of index entries). A count's order changes nothing but the reading.
 */
const countInRangeOrder = (table: string, where: Conditions, column: string): CountPath => ({ from: `FROM ${table} WHERE ${where.sql}`, order: `${column} DESC` });

/** The filters with line_scac as shipments record it (an alternative SCAC becomes its line's own). */
async function resolved<F extends JourneyFilters>(db: Queryable, f: F): Promise<F> {
  return f.line_scac ? { ...f, line_scac: await recordedScacs(db, f.line_scac) } : f;
}

export async function listShipments(
  db: Queryable,
  accountId: string,
  filters: ShipmentFilters,
  limit: number,
  offset: number,
  order: ShipmentOrder = { field: 'created_at', descending: true },
): Promise<{ rows: ShipmentRow[]; total: number }> {
  const f = await resolved(db, filters);
  const q = searchText(f.q);
  // Equals (and records without a value) stay newest first among themselves.
  const direction = order.descending ? 'DESC' : 'ASC';
  // NULLS LAST only where a value may be missing: an index (read either way) answers the orders of
  // the fields that always have one (migrations 003, 008, 015), and says nothing of nulls.
  const orderBy = `${SHIPMENT_ORDERS[order.field]} ${direction}${NEVER_NULL.has(order.field) ? '' : ' NULLS LAST'}${order.field === 'created_at' ? '' : ', created_at DESC'}`;
  return pageOfAccount(
    db,
    'shipments',
    accountId,
    limit,
    offset,
    (where) => {
      where
        // The shipment's own numbers or one of its containers': two lookups through the number
        // indexes (search.ts), as a semi-join the planner may also answer by walking the list's
        // order (a common part).
        .when(q?.value, (p) => `id IN (SELECT m.id FROM shipments m WHERE m.account_id = ${ACCOUNT} AND ${q?.holds(shipmentNumbers('m'), p)}
                               UNION ALL
                               SELECT c.shipment_id FROM containers c WHERE c.account_id = ${ACCOUNT} AND ${q?.holds(containerNumbers('c'), p)})`)
        .when(f.number, (p) =>
          holdsNumber(shipmentNumbers('shipments'), p, `upper(${p}) IN (upper(request_number), upper(bill_of_lading_number), upper(booking_number))`),
        )
        .either(f.tracking_stopped, 'line_tracking_stopped_at IS NOT NULL', 'line_tracking_stopped_at IS NULL')
        // Kept on the shipment from its containers' holds (migration 017's triggers).
        .either(f.on_hold, 'on_hold', 'NOT on_hold')
        // Its containers' statuses, kept on the shipment as on_hold is (migration 026).
        .when(f.status, (p) => `container_statuses && ${p}::text[]`)
        .within('updated_at', f.updated)
        .within('pod_eta_instant', f.pod_eta);
      onShipment(where, 'shipments', f);
      customFieldConditions(where, 'shipments', f);
      if (where.size === 2 && (f.updated || f.pod_eta)) return countInRangeOrder('shipments', where, f.updated ? 'updated_at' : 'pod_eta_instant');
    },
    orderBy,
  );
}

export async function listContainers(db: Queryable, accountId: string, filters: ContainerFilters, limit: number, offset: number): Promise<{ rows: ContainerRow[]; total: number }> {
  // A shipment id that is not a uuid names no shipment; a uuid is compared as one, so the index on shipment_id serves it.
  if (filters.shipment_id !== undefined && !isUuid(filters.shipment_id)) return { rows: [], total: 0 };
  const f = await resolved(db, filters);
  return pageOfAccount(db, 'containers', accountId, limit, offset, (where) => {
    where
      // Container numbers are stored bare (the diff engine writes them so).
      .when(f.number, (p) => `number = ${bare(p)}`)
      .when(f.shipment_id, (p) => `shipment_id = ${p}`)
      .oneOf(containerStatus('containers'), f.status)
      .within('updated_at', f.updated);
    customFieldConditions(where, 'containers', f);
    const own = where.size;
    const shipment = onShipment(where.nested(), 's', f);
    if (own === 2 && f.updated && shipment.isEmpty) return countInRangeOrder('containers', where, 'updated_at');
    where.whenAny(shipment, (sql) => `shipment_id IN (SELECT s.id FROM shipments s WHERE s.account_id = ${ACCOUNT} AND ${sql})`);
    // Filtered by the shipment alone: the count walks the matching shipments newest first (off
    // their filter's index when it has one, migration 015) and takes their containers, rather
    // than probing the shipment of every container of the account until enough match.
    if (own === 1 && !shipment.isEmpty) {
      return {
        from: `FROM shipments s JOIN containers ON containers.shipment_id = s.id WHERE s.account_id = ${ACCOUNT} AND ${shipment.sql} AND containers.account_id = ${ACCOUNT}`,
        order: 's.created_at DESC',
      };
    }
  });
}
