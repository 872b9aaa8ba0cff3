// SQL for the lists of shipments and containers and their filters. Shipment and container share
// the filters on a journey (status, ports, line, updated_at): a shipment matches on its own
// columns and its containers' statuses (kept on it), a container on its own status and updated_at
// and on its shipment's ports and line. Migrations 008, 015, 017, 026 and 037 index each of them beside account_id
// (015, 017 and 037: followed by the lists' order, so a page on one value is read off the index
// in order, and a range's page is read a day at a time or sorted from index entries alone).
import { ACCOUNT, pageOfAccount, type CountPath, type ListPaths } from './account-rows.ts';
import { customFieldConditions, type CustomFieldMatch } from './custom-field-filters.ts';
import type { Conditions, TimeRange } from './conditions.ts';
import type { Queryable } from './db.ts';
import { recordedScacs } from './reference.ts';
import { bare, containerNumbers, holdsNumber, searchText, shipmentNumbers } from './search.ts';
import { lastSucceededExpression } from './shipment-refreshes.ts';
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
  // Its check recorded on the schedule row alone counts (migration 039); no index covers either.
  line_tracking_last_succeeded_at: lastSucceededExpression('shipments'),
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

/** A range's page is read a day at a time when the range spans at most this many days (rangeAlone). */
const DAYS_READ_APART = 92;

/**
 * The paths of a list filtered by a range alone (filter[updated_at], filter[pod_eta_at]). Its
 * total is counted walking the range's index in its own order, which stops at the bound, rather
 * than in the list's order, which first sorts every match in the range (a day of a large
 * account's updates: thousands of index entries); a count's order changes nothing but the reading.
 * Its page, in the list's order, of a range with both ends and at most DAYS_READ_APART days, is
 * read a day (UTC) at a time: a day the range covers whole from migration 037's index of the
 * day and then the list's order, stopping at the page's end; a day it covers in part (at either
 * end) from the range's own index, its matches sorted. Sorting the whole range's entries instead
 * reads all of them for every page (a day of a 1M-container account's updates: 4,557 containers,
 * against 68 at 10k). The pages hold the same rows either way: every match lies in one day, and
 * the page's rows are among the first of their day.
 */
function rangeAlone(table: 'shipments' | 'containers', where: Conditions, column: string, range: TimeRange, listOrder: boolean): ListPaths {
  const count = { from: `FROM ${table} WHERE ${where.sql}`, order: `${column} DESC` };
  const { start, end } = range;
  if (!listOrder || !start || !end || end.getTime() - start.getTime() > DAYS_READ_APART * 86_400_000) return { count };
  // The range's own values, already among the conditions' (within() passes the Dates given).
  const [s, e] = [start, end].map((v) => `$${where.params.indexOf(v) + 1}::timestamptz`);
  const day = (instant: string) => `date_trunc('day', ${instant} AT TIME ZONE 'UTC')`;
  const [dayStarts, dayEnds] = ["(day.d AT TIME ZONE 'UTC')", "((day.d + interval '1 day') AT TIME ZONE 'UTC')"];
  // Written on the day alone, so it gates a branch as a whole (a one-time filter per day).
  const whole = `${dayStarts} >= ${s} AND ${dayEnds} <= ${e}`;
  const walk = (condition: string, n: string) => `(SELECT id, created_at FROM ${table} WHERE ${where.sql} AND ${condition} ORDER BY created_at DESC, id DESC LIMIT ${n})`;
  return {
    count,
    ids: (limit, offset) => {
      const n = `${limit}::bigint + ${offset}::bigint`;
      // The days counted in whole numbers, which PostgreSQL works out while planning: a series
      // of timestamps it would guess at a thousand, and a statement costed so high is compiled
      // (JIT) first, about 8 ms.
      const days = `((${e}) AT TIME ZONE 'UTC')::date - ((${s}) AT TIME ZONE 'UTC')::date`;
      return `SELECT id FROM (SELECT ${day(s)} + i * interval '1 day' AS d FROM generate_series(0, ${days}) i) day,
        LATERAL (${walk(`${day(column)} = day.d AND ${whole}`, n)}
                 UNION ALL ${walk(`${column} >= ${dayStarts} AND ${column} < ${dayEnds} AND NOT (${whole})`, n)}) kept
        ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`;
    },
  };
}

/** The conditions a range writes (conditions.ts: one per bound given). */
const boundsOf = (range: TimeRange | undefined) => (range?.start ? 1 : 0) + (range?.end ? 1 : 0);

/**
 * The total of shipments filtered by their ports alone (filter[port]): the shipments with each
 * port as their port of lading, of discharge or destination, each leg walked newest first off its
 * own index and stopped at the count's limit, their ids made distinct. Walking the list's order
 * instead (migration 026's index holding the ports) reads every shipment until enough match: for
 * a port on one shipment in sixteen, 16,000 index entries to count 1,000. Each leg stopped at the
 * limit still tells the bound: if any leg reaches it, so do the distinct ids. The ports of lading
 * and discharge are columns (migration 031), counted from index entries alone; the destination is
 * read from the state (migration 037's index), a row visited per match.
 */
function countByPortLegs(ports: string): CountPath {
  const leg = (column: string, limit: string) =>
    `(SELECT id FROM shipments WHERE account_id = ${ACCOUNT} AND ${column} = port.locode ORDER BY created_at DESC, id DESC LIMIT ${limit})`;
  return {
    from: (limit) => `FROM (SELECT DISTINCT leg.id FROM unnest(${ports}::text[]) AS port(locode),
      LATERAL (${leg('pol_locode', limit)} UNION ALL ${leg('pod_locode', limit)} UNION ALL ${leg("(state->>'destination_locode')", limit)}) leg) matched`,
    order: 'id',
  };
}

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
      // Filtered by one range alone (a range writes a condition per bound).
      const range = f.updated ?? f.pod_eta;
      if (range && !(f.updated && f.pod_eta) && where.size === 1 + boundsOf(range)) {
        return rangeAlone('shipments', where, f.updated ? 'updated_at' : 'pod_eta_instant', range, order.field === 'created_at' && order.descending);
      }
      if (f.port && where.size === 2) return { count: countByPortLegs(`$${where.params.indexOf(f.port) + 1}`) };
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
    if (f.updated && own === 1 + boundsOf(f.updated) && shipment.isEmpty) return rangeAlone('containers', where, 'updated_at', f.updated, true);
    where.whenAny(shipment, (sql) => `shipment_id IN (SELECT s.id FROM shipments s WHERE s.account_id = ${ACCOUNT} AND ${sql})`);
    // Filtered by the shipment alone: the count walks the matching shipments newest first (off
    // their filter's index when it has one, migration 015) and takes their containers, rather
    // than probing the shipment of every container of the account until enough match.
    if (own === 1 && !shipment.isEmpty) {
      return {
        count: {
          from: `FROM shipments s JOIN containers ON containers.shipment_id = s.id WHERE s.account_id = ${ACCOUNT} AND ${shipment.sql} AND containers.account_id = ${ACCOUNT}`,
          order: 's.created_at DESC',
        },
      };
    }
  });
}
