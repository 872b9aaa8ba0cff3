// How fresh what svc shows of a shipment or container is, per source: when svc last heard from
// the shipping line, the terminal and AIS about it (checked) and when what it heard last changed
// what svc shows (changed). Read from what the tracking engine records anyway, never written on
// its own: a check writes nothing new for it, so the throughput of lookups is untouched.
//
//   shipping_line  checked: the line's last answer about the shipment (a lookup that wrote it,
//                  or a later check that found the same answer: lineLastAnsweredAt).
//                  changed: the last milestone or estimate from the line svc recorded, or the
//                  box first learned from it.
//   terminal       checked: the terminal's last report on the box (terminal_checked_at).
//                  changed: the last change of terminal data svc recorded (a container_updated
//                  event, or `available` from the terminal).
//   ais            checked: the last position of the vessel the box is on (its last milestone
//                  naming a vessel; once discharged from it, positions up to the discharge).
//                  changed: the last arrival AIS saw first, or AIS's arrival estimate for that
//                  vessel at the port of discharge while the box is aboard.
//
// A shipment's terminal and AIS times are the latest of its containers'. Null: never.
import type { Queryable } from './db.ts';
import { isUuid } from './uuid.ts';
import { mmsiOfImoSql } from './vessel-positions.ts';

export interface SourceFreshness {
  checked_at: Date | null;
  changed_at: Date | null;
}

export const FRESHNESS_SOURCES = ['shipping_line', 'terminal', 'ais'] as const;
export type FreshnessSource = (typeof FRESHNESS_SOURCES)[number];

export type DataFreshness = Record<FreshnessSource, SourceFreshness>;

/** When the line last answered about the shipment `sh` names. */
const lineCheckedAt = (sh: string) => `greatest(${sh}.line_tracking_last_succeeded_at, (SELECT last_checked_at FROM shipment_refreshes WHERE shipment_id = ${sh}.id))`;

/** The last estimate from the line about the shipment `sh` names. */
const lineEstimatedAt = (sh: string) => `(SELECT max(created_at) FROM estimated_events WHERE shipment_id = ${sh}.id AND data_source = 'shipping_line')`;

/**
 * The container `c` names' own times (its shipment is `sh`), as the columns line_changed,
 * terminal_checked, terminal_changed, ais_checked and ais_changed of a lateral subquery. Its
 * milestones are read once, by source.
 */
const containerTimes = (c: string, sh: string) => `SELECT
    greatest(${c}.created_at, m.line) AS line_changed,
    (${c}.state->>'terminal_checked_at')::timestamptz AS terminal_checked,
    greatest((SELECT max(created_at) FROM container_updated_events WHERE container_id = ${c}.id), m.terminal) AS terminal_changed,
    (SELECT max(p.at) FROM vessel_positions p WHERE p.mmsi = ${mmsiOfImoSql('v.vessel_imo')} AND p.at <= coalesce(v.left_at, 'infinity')) AS ais_checked,
    greatest(m.ais, (SELECT e.computed_at FROM ais_port_etas e WHERE v.left_at IS NULL AND e.vessel_imo = v.vessel_imo AND e.port_locode = ${sh}.state->>'port_of_discharge_locode')) AS ais_changed
  FROM (
    SELECT max(created_at) FILTER (WHERE data_source = 'shipping_line') AS line, max(created_at) FILTER (WHERE data_source = 'terminal') AS terminal,
           max(created_at) FILTER (WHERE data_source = 'ais') AS ais
      FROM transport_events WHERE container_id = ${c}.id
  ) AS m
  LEFT JOIN LATERAL (
    SELECT t.vessel_imo, CASE WHEN t.event LIKE '%discharged' THEN t.timestamp END AS left_at
      FROM transport_events t WHERE t.container_id = ${c}.id AND t.vessel_imo IS NOT NULL
     ORDER BY t.timestamp DESC NULLS LAST, t.created_at DESC LIMIT 1
  ) AS v ON true`;

const asJson = (lineChecked: string, lineChanged: string, t: (column: string) => string) => `json_build_object(
    'shipping_line', json_build_object('checked_at', ${lineChecked}, 'changed_at', ${lineChanged}),
    'terminal', json_build_object('checked_at', ${t('terminal_checked')}, 'changed_at', ${t('terminal_changed')}),
    'ais', json_build_object('checked_at', ${t('ais_checked')}, 'changed_at', ${t('ais_changed')}))`;

/** The freshness of the container a statement reads as `c`, as a json column (read it with freshnessOf). */
export const containerFreshnessColumn = (c: string) => `(SELECT ${asJson(lineCheckedAt('fsh'), `greatest(f.line_changed, ${lineEstimatedAt('fsh')})`, (column) => `f.${column}`)}
   FROM shipments fsh CROSS JOIN LATERAL (${containerTimes(c, 'fsh')}) AS f WHERE fsh.id = ${c}.shipment_id)`;

/** The freshness of the shipment a statement reads as `sh`, as a json column (read it with freshnessOf). */
export const shipmentFreshnessColumn = (sh: string) => `(SELECT ${asJson(lineCheckedAt(sh), `greatest(max(f.line_changed), ${lineEstimatedAt(sh)})`, (column) => `max(f.${column})`)}
   FROM containers fc CROSS JOIN LATERAL (${containerTimes('fc', sh)}) AS f WHERE fc.shipment_id = ${sh}.id)`;

type Stored = Record<FreshnessSource, { checked_at: string | null; changed_at: string | null }>;

const dateOrNull = (s: string | null) => (s === null ? null : new Date(s));

/** A freshness column as read (instants as json text) made of Dates. */
export function freshnessOf(stored: unknown): DataFreshness {
  const s = stored as Stored;
  const of = (source: FreshnessSource): SourceFreshness => ({ checked_at: dateOrNull(s[source].checked_at), changed_at: dateOrNull(s[source].changed_at) });
  return { shipping_line: of('shipping_line'), terminal: of('terminal'), ais: of('ais') };
}

const SHIPMENTS = `SELECT s.id, ${shipmentFreshnessColumn('s')} AS freshness FROM shipments s WHERE s.id = ANY($1::uuid[])`;
const CONTAINERS = `SELECT c.id, ${containerFreshnessColumn('c')} AS freshness FROM containers c WHERE c.id = ANY($1::uuid[])`;

async function freshnessById(db: Queryable, sql: string, ids: readonly string[]): Promise<Map<string, DataFreshness>> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; freshness: unknown }>(sql, [valid]);
  return new Map(rows.map((r) => [r.id, freshnessOf(r.freshness)]));
}

/** The freshness of these shipments, by id (callers have found them in the account already). */
export const freshnessOfShipments = (db: Queryable, ids: readonly string[]) => freshnessById(db, SHIPMENTS, ids);

/** The freshness of these containers, by id (callers have found them in the account already). */
export const freshnessOfContainers = (db: Queryable, ids: readonly string[]) => freshnessById(db, CONTAINERS, ids);
