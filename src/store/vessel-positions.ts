// Vessel positions from AIS, and which MMSI belongs to which IMO number. The AIS ingester writes;
// the route map, the vessel endpoints and AIS arrivals read, always by IMO (the number carriers
// name vessels by).
import type { Queryable } from './db.ts';
import { knownVesselImos } from './learned-vessels.ts';

export interface VesselPosition {
  mmsi: number;
  at: Date;
  latitude: number;
  longitude: number;
  /** Knots over ground; null when the report had none. */
  speedKnots: number | null;
  /** Course over ground, degrees from north; null when the report had none. */
  courseDegrees: number | null;
  /** True heading, 0–359; null when the report had none. */
  headingDegrees: number | null;
}

/** What a static report (type 5 or 24) says about an MMSI. */
export interface AisIdentity {
  mmsi: number;
  imo: string | null;
  name: string | null;
  callSign: string | null;
  shipType: number | null;
  destination: string | null;
  at: Date;
}

const POSITION_COLUMNS = `mmsi, at, latitude, longitude, speed_knots AS "speedKnots", course_degrees AS "courseDegrees", heading_degrees AS "headingDegrees"`;

/**
 * The MMSI the vessel with this IMO number transmits as: the newest static report naming the
 * IMO, else the MMSI the reference data gives.
 */
export const mmsiOfImoSql = (imo: string) => `coalesce(
  (SELECT mmsi FROM ais_vessels WHERE imo = ${imo} ORDER BY updated_at DESC LIMIT 1),
  (SELECT mmsi::integer FROM vessels WHERE imo = ${imo} AND mmsi ~ '^[0-9]{9}$'))`;
export const MMSI_OF_IMO = mmsiOfImoSql('$1');

/** One array per field, in order, for `INSERT … SELECT * FROM unnest(…)`: a whole batch in one statement. */
const columnsOf = <T>(rows: readonly T[], fields: readonly (keyof T)[]) => fields.map((field) => rows.map((row) => row[field]));

/** Stores positions; one already stored for the same MMSI and instant is kept. Returns how many were new. */
export async function insertVesselPositions(db: Queryable, positions: readonly VesselPosition[]): Promise<number> {
  if (positions.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO vessel_positions (mmsi, at, latitude, longitude, speed_knots, course_degrees, heading_degrees)
     SELECT * FROM unnest($1::integer[], $2::timestamptz[], $3::real[], $4::real[], $5::real[], $6::real[], $7::smallint[])
     ON CONFLICT (mmsi, at) DO NOTHING`,
    columnsOf(positions, ['mmsi', 'at', 'latitude', 'longitude', 'speedKnots', 'courseDegrees', 'headingDegrees']),
  );
  return rowCount ?? 0;
}

/** Records what a static report says about an MMSI (the newest report wins). */
export async function upsertAisIdentity(db: Queryable, identity: AisIdentity): Promise<void> {
  await upsertAisIdentities(db, [identity]);
}

/** Records several static reports in one statement; at most one per MMSI. */
export async function upsertAisIdentities(db: Queryable, identities: readonly AisIdentity[]): Promise<void> {
  if (identities.length === 0) return;
  await db.query(
    `INSERT INTO ais_vessels (mmsi, imo, name, call_sign, ship_type, destination, updated_at)
     SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::smallint[], $6::text[], $7::timestamptz[])
     ON CONFLICT (mmsi) DO UPDATE SET
       imo = coalesce(EXCLUDED.imo, ais_vessels.imo), name = coalesce(EXCLUDED.name, ais_vessels.name),
       call_sign = coalesce(EXCLUDED.call_sign, ais_vessels.call_sign), ship_type = coalesce(EXCLUDED.ship_type, ais_vessels.ship_type),
       destination = coalesce(EXCLUDED.destination, ais_vessels.destination), updated_at = EXCLUDED.updated_at
     WHERE ais_vessels.updated_at <= EXCLUDED.updated_at`,
    columnsOf(identities, ['mmsi', 'imo', 'name', 'callSign', 'shipType', 'destination', 'at']),
  );
}

/** The MMSI of the vessel with this IMO number, or null when no AIS report or reference row gives one. */
export async function mmsiOfImo(db: Queryable, imo: string): Promise<number | null> {
  const { rows } = await db.query<{ mmsi: number | null }>(`SELECT ${MMSI_OF_IMO} AS mmsi`, [imo]);
  return rows[0]?.mmsi ?? null;
}

/** Positions of the vessel with this IMO number from `from` to `to` (both included), oldest first. */
export async function vesselTrackOfImo(db: Queryable, imo: string, from: Date, to: Date): Promise<VesselPosition[]> {
  const { rows } = await db.query<VesselPosition>(
    `SELECT ${POSITION_COLUMNS} FROM vessel_positions WHERE mmsi = ${MMSI_OF_IMO} AND at BETWEEN $2 AND $3 ORDER BY at`,
    [imo, from, to],
  );
  return rows;
}

/**
 * The tracks of several vessels in one statement: for each (IMO number, from), the positions from
 * `from` to `to` (both included), oldest first, as vesselTrackOfImo gives them one at a time.
 * OFFSET 0 keeps each vessel's read a subquery of its own, run once a vessel through the primary
 * key (mmsi, at), as vesselTrackOfImo's is: pulled up into a join, the planner may hash the
 * whole positions table instead.
 */
export async function vesselTracksOfImos(db: Queryable, wanted: readonly { imo: string; from: Date }[], to: Date): Promise<VesselPosition[][]> {
  if (wanted.length === 0) return [];
  const { rows } = await db.query<VesselPosition & { ord: number }>(
    `SELECT k.ord::int AS ord, p.* FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS k(imo, from_at, ord)
     CROSS JOIN LATERAL (SELECT ${POSITION_COLUMNS} FROM vessel_positions WHERE mmsi = ${mmsiOfImoSql('k.imo')} AND at BETWEEN k.from_at AND $3 OFFSET 0) AS p
     ORDER BY k.ord, p.at`,
    [wanted.map((w) => w.imo), wanted.map((w) => w.from), to],
  );
  const tracks: VesselPosition[][] = wanted.map(() => []);
  for (const { ord, ...position } of rows) tracks[ord - 1].push(position);
  return tracks;
}

/** The newest position of the vessel with this IMO number at or before `at`, or null. */
export async function latestPositionOfImo(db: Queryable, imo: string, at: Date): Promise<VesselPosition | null> {
  const { rows } = await db.query<VesselPosition>(
    `SELECT ${POSITION_COLUMNS} FROM vessel_positions WHERE mmsi = ${MMSI_OF_IMO} AND at <= $2 ORDER BY at DESC LIMIT 1`,
    [imo, at],
  );
  return rows[0] ?? null;
}

/**
 * For each vessel the account's shipment names (in its transport events or as its vessel at the
 * port of discharge), the time of its newest position at or before `at`: "imo@time" joined by
 * commas, or '' when there are none. Open pages compare it to hear of new positions; it is only a
 * signal (a vessel named but not drawn costs a needless redraw), the map itself says what is drawn.
 */
export async function newestPositionsOfShipment(db: Queryable, accountId: string, shipmentId: string, at: Date): Promise<string> {
  const { rows } = await db.query<{ newest: string | null }>(
    `WITH named AS (
       -- Through containers (indexed by shipment), then each box's events (indexed by container).
       SELECT e.vessel_imo AS imo FROM containers c JOIN transport_events e ON e.container_id = c.id
        WHERE c.account_id = $1 AND c.shipment_id = $2 AND e.vessel_imo IS NOT NULL
       UNION
       SELECT state->>'pod_vessel_imo' FROM shipments WHERE account_id = $1 AND id = $2 AND state->>'pod_vessel_imo' IS NOT NULL
     )
     SELECT string_agg(n.imo || '@' || p.at::text, ',' ORDER BY n.imo) AS newest
       FROM named n
       CROSS JOIN LATERAL (SELECT at FROM vessel_positions WHERE mmsi = ${mmsiOfImoSql('n.imo')} AND at <= $3 ORDER BY at DESC LIMIT 1) AS p`,
    [accountId, shipmentId, at],
  );
  return rows[0]?.newest ?? '';
}

/** The vessels the AIS ingester stores positions of, and what is already known of their MMSIs. */
export interface AisMatchData {
  /** IMO numbers of the reference vessels and of vessels carriers named lately, as written there. */
  imos: string[];
  /** MMSI → IMO as the reference data gives it. */
  referenceMmsis: { mmsi: number; imo: string }[];
  /** MMSI → IMO as stored static reports gave it. */
  learnedMmsis: { mmsi: number; imo: string }[];
}

/** What the ingester matches MMSIs against; carriers' vessels count if named in an event since `carriersSince`. */
export async function aisMatchData(db: Queryable, carriersSince: Date): Promise<AisMatchData> {
  const [imos, reference, learned] = await Promise.all([
    knownVesselImos(db, carriersSince),
    db.query<{ mmsi: number; imo: string }>(`SELECT mmsi::integer AS mmsi, imo FROM vessels WHERE mmsi ~ '^[0-9]{9}$'`),
    db.query<{ mmsi: number; imo: string }>(`SELECT mmsi, imo FROM ais_vessels WHERE imo IS NOT NULL`),
  ]);
  return { imos, referenceMmsis: reference.rows, learnedMmsis: learned.rows };
}

/** Deletes positions older than `before`; returns how many. */
export async function deleteVesselPositionsBefore(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM vessel_positions WHERE at < $1`, [before]);
  return rowCount ?? 0;
}

/**
 * Keeps, of the positions from `from` (included) to `to` (excluded), only the first of each
 * vessel in each UTC hour; returns how many were deleted.
 */
export async function thinVesselPositions(db: Queryable, from: Date, to: Date): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM vessel_positions p USING (
       SELECT mmsi, at, row_number() OVER (PARTITION BY mmsi, date_trunc('hour', at AT TIME ZONE 'UTC') ORDER BY at) AS n
       FROM vessel_positions WHERE at >= $1 AND at < $2) later
     WHERE later.n > 1 AND p.mmsi = later.mmsi AND p.at = later.at`,
    [from, to],
  );
  return rowCount ?? 0;
}

/**
 * Where thinning goes on from: up to where it last went, else (never thinned) the oldest position
 * stored; null when there is neither. COALESCE evaluates the scan for the oldest only when needed.
 */
export async function vesselPositionsThinnedUntil(db: Queryable): Promise<Date | null> {
  const { rows } = await db.query<{ until: Date | null }>(
    `SELECT coalesce((SELECT until FROM vessel_positions_thinned), (SELECT min(at) FROM vessel_positions)) AS until`,
  );
  return rows[0].until;
}

export async function setVesselPositionsThinnedUntil(db: Queryable, until: Date): Promise<void> {
  await db.query(
    `INSERT INTO vessel_positions_thinned (until) VALUES ($1)
     ON CONFLICT (singleton) DO UPDATE SET until = greatest(vessel_positions_thinned.until, EXCLUDED.until)`,
    [until],
  );
}
