// Vessel positions from AIS, and which MMSI belongs to which IMO number. The AIS ingester writes;
// the route map, the vessel endpoints and AIS arrivals read, always by IMO (the number carriers
// name vessels by).
import type { Queryable } from './db.ts';

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
export const MMSI_OF_IMO = `coalesce(
  (SELECT mmsi FROM ais_vessels WHERE imo = $1 ORDER BY updated_at DESC LIMIT 1),
  (SELECT mmsi::integer FROM vessels WHERE imo = $1 AND mmsi ~ '^[0-9]{9}$'))`;

/** Stores positions; one already stored for the same MMSI and instant is kept. Returns how many were new. */
export async function insertVesselPositions(db: Queryable, positions: readonly VesselPosition[]): Promise<number> {
  if (positions.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO vessel_positions (mmsi, at, latitude, longitude, speed_knots, course_degrees, heading_degrees)
     SELECT * FROM unnest($1::integer[], $2::timestamptz[], $3::real[], $4::real[], $5::real[], $6::real[], $7::smallint[])
     ON CONFLICT (mmsi, at) DO NOTHING`,
    [
      positions.map((p) => p.mmsi),
      positions.map((p) => p.at),
      positions.map((p) => p.latitude),
      positions.map((p) => p.longitude),
      positions.map((p) => p.speedKnots),
      positions.map((p) => p.courseDegrees),
      positions.map((p) => p.headingDegrees),
    ],
  );
  return rowCount ?? 0;
}

/** Records what a static report says about an MMSI (the newest report wins). */
export async function upsertAisIdentity(db: Queryable, identity: AisIdentity): Promise<void> {
  await db.query(
    `INSERT INTO ais_vessels (mmsi, imo, name, call_sign, ship_type, destination, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (mmsi) DO UPDATE SET
       imo = coalesce(EXCLUDED.imo, ais_vessels.imo), name = coalesce(EXCLUDED.name, ais_vessels.name),
       call_sign = coalesce(EXCLUDED.call_sign, ais_vessels.call_sign), ship_type = coalesce(EXCLUDED.ship_type, ais_vessels.ship_type),
       destination = coalesce(EXCLUDED.destination, ais_vessels.destination), updated_at = EXCLUDED.updated_at
     WHERE ais_vessels.updated_at <= EXCLUDED.updated_at`,
    [identity.mmsi, identity.imo, identity.name, identity.callSign, identity.shipType, identity.destination, identity.at],
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

/** The newest position of the vessel with this IMO number at or before `at`, or null. */
export async function latestPositionOfImo(db: Queryable, imo: string, at: Date): Promise<VesselPosition | null> {
  const { rows } = await db.query<VesselPosition>(
    `SELECT ${POSITION_COLUMNS} FROM vessel_positions WHERE mmsi = ${MMSI_OF_IMO} AND at <= $2 ORDER BY at DESC LIMIT 1`,
    [imo, at],
  );
  return rows[0] ?? null;
}
