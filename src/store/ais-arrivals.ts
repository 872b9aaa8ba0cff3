// SQL for AIS in the tracking engine (migrations 012, 049): the shipments whose vessel is at sea or
// under way, the arrivals and other vessel moves AIS saw, and the ETAs it suggests.
import type { Queryable } from './db.ts';
import type { ShipmentRow } from './shipments.ts';

/** What the AIS pass needs of a shipment at sea; the state is the diff engine's ShipmentState. */
export interface ShipmentAtSea {
  id: string;
  account_id: string;
  state: Record<string, unknown>;
}

// The predicate of the shipments_at_sea partial index: keep the two in step.
const AT_SEA = `line_tracking_stopped_at IS NULL AND state->>'pod_ata_at' IS NULL
  AND state->>'pol_atd_at' IS NOT NULL AND state->>'pod_vessel_imo' IS NOT NULL`;

/** Tracked shipments whose port-of-discharge vessel has left the port of lading and not arrived. */
export async function shipmentsAtSea(db: Queryable): Promise<ShipmentAtSea[]> {
  const { rows } = await db.query<ShipmentAtSea>(`SELECT id, account_id, state FROM shipments WHERE ${AT_SEA}`);
  return rows;
}

// The shipments whose journey may still show a vessel move on AIS: tracked, not arrived at the
// port of discharge, with a box reported loaded onto a vessel (ais-moves.ts watches nothing else).
const UNDER_WAY = `line_tracking_stopped_at IS NULL AND state->>'pod_ata_at' IS NULL
  AND EXISTS (SELECT 1 FROM raw_events r WHERE r.shipment_id = s.id AND r.code = 'LOAD' AND r.classifier = 'ACT')`;

/** Tracked shipments not arrived at the port of discharge whose carrier reported a box loaded onto a vessel. */
export async function shipmentsUnderWay(db: Queryable): Promise<ShipmentAtSea[]> {
  const { rows } = await db.query<ShipmentAtSea>(`SELECT s.id, s.account_id, s.state FROM shipments s WHERE ${UNDER_WAY}`);
  return rows;
}

/**
 * Locks, for the rest of the transaction, those of the shipments no tracking worker holds and
 * that still match `predicate`, with their refresh rows (shipment_refreshes). A worker refreshing one
 * holds its lease (locked_until), and one about to claim it skips the locked refresh row (FOR
 * UPDATE SKIP LOCKED), so an AIS record and a carrier refresh never write one shipment's events
 * at the same time. A shipment never scheduled is given its (unscheduled) refresh row first, to lock.
 */
async function lockShipments(db: Queryable, ids: string[], now: Date, predicate: string): Promise<ShipmentRow[]> {
  await db.query('INSERT INTO shipment_refreshes (shipment_id) SELECT unnest($1::uuid[]) ON CONFLICT (shipment_id) DO NOTHING', [ids]);
  const { rows } = await db.query<ShipmentRow>(
    `SELECT s.* FROM shipments s JOIN shipment_refreshes r ON r.shipment_id = s.id
      WHERE s.id = ANY($1::uuid[]) AND (r.locked_until IS NULL OR r.locked_until <= $2) AND ${predicate}
      ORDER BY s.id FOR UPDATE OF s, r SKIP LOCKED`,
    [ids, now],
  );
  return rows;
}

/** The shipments still at sea of `ids` that no worker holds, locked (see lockShipments). */
export const lockShipmentsAtSea = (db: Queryable, ids: string[], now: Date) => lockShipments(db, ids, now, AT_SEA);

/** The shipments still under way of `ids` that no worker holds, locked (see lockShipments). */
export const lockShipmentsUnderWay = (db: Queryable, ids: string[], now: Date) => lockShipments(db, ids, now, UNDER_WAY);

export interface AisMilestone {
  container_id: string;
  /** container.transport.vessel_arrived, vessel_departed, transshipment_arrived… */
  event: string;
  key: string;
  timestamp: Date;
  timezone: string | null;
  location_locode: string;
  vessel_imo: string;
  vessel_name: string | null;
  voyage_number: string | null;
  /** The AIS report that confirmed the stop: when the source said so. */
  published_at: Date;
}

/**
 * Records each milestone with data_source 'ais'; one
 * already recorded under its key (the carrier was first after all) is left alone. Returns the
 * rows inserted, which are the ones to announce.
 */
export async function insertAisMilestones(
  db: Queryable,
  owner: { account_id: string; shipment_id: string },
  milestones: readonly AisMilestone[],
  now: Date,
): Promise<{ id: string; container_id: string; event: string }[]> {
  if (milestones.length === 0) return [];
  const { rows } = await db.query<{ id: string; container_id: string; event: string }>(
    `INSERT INTO transport_events (account_id, shipment_id, container_id, event, key, timestamp, timezone, location_locode,
                                   vessel_imo, vessel_name, voyage_number, data_source, published_at, created_at)
     SELECT $1, $2, m.container_id, m.event, m.key, m.timestamp, m.timezone, m.location_locode,
            m.vessel_imo, m.vessel_name, m.voyage_number, 'ais', m.published_at, $4
       FROM jsonb_to_recordset($3::jsonb) AS m(container_id uuid, event text, key text, timestamp timestamptz, timezone text, location_locode text,
            vessel_imo text, vessel_name text, voyage_number text, published_at timestamptz)
     ON CONFLICT (container_id, key) DO NOTHING
     RETURNING id, container_id, event`,
    [owner.account_id, owner.shipment_id, JSON.stringify(milestones), now],
  );
  return rows;
}

export interface AisArrivalRow {
  shipment_id: string;
  account_id: string;
  vessel_imo: string;
  port_locode: string;
  arrived_at: Date;
  detected_at: Date;
  latitude: number;
  longitude: number;
}

export async function insertAisArrival(db: Queryable, a: AisArrivalRow): Promise<void> {
  await db.query(
    `INSERT INTO ais_arrivals (shipment_id, account_id, vessel_imo, port_locode, arrived_at, detected_at, latitude, longitude)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (shipment_id) DO NOTHING`,
    [a.shipment_id, a.account_id, a.vessel_imo, a.port_locode, a.arrived_at, a.detected_at, a.latitude, a.longitude],
  );
}

export interface AisMoveRow {
  shipment_id: string;
  account_id: string;
  kind: 'departure' | 'arrival';
  port_locode: string;
  vessel_imo: string;
  event: string;
  occurred_at: Date;
  detected_at: Date;
  latitude: number;
  longitude: number;
}

/** What AIS saw of a move it recorded first (one row per shipment, kind and port). */
export async function insertAisMove(db: Queryable, m: AisMoveRow): Promise<void> {
  await db.query(
    `INSERT INTO ais_moves (shipment_id, account_id, kind, port_locode, vessel_imo, event, occurred_at, detected_at, latitude, longitude)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
    [m.shipment_id, m.account_id, m.kind, m.port_locode, m.vessel_imo, m.event, m.occurred_at, m.detected_at, m.latitude, m.longitude],
  );
}

export async function aisMovesOf(db: Queryable, shipmentId: string): Promise<AisMoveRow[]> {
  const { rows } = await db.query<AisMoveRow>('SELECT * FROM ais_moves WHERE shipment_id = $1 ORDER BY occurred_at', [shipmentId]);
  return rows;
}

export async function aisArrivalOf(db: Queryable, shipmentId: string): Promise<AisArrivalRow | null> {
  const { rows } = await db.query<AisArrivalRow>('SELECT * FROM ais_arrivals WHERE shipment_id = $1', [shipmentId]);
  return rows[0] ?? null;
}

export interface AisPortEta {
  vessel_imo: string;
  port_locode: string;
  eta_at: Date;
  distance_nm: number;
  speed_knots: number;
  position_at: Date;
  latitude: number;
  longitude: number;
  computed_at: Date;
}

/** The stored estimates for these vessels, by `imo|locode`. */
export async function aisPortEtasOf(db: Queryable, imos: string[]): Promise<Map<string, AisPortEta>> {
  if (imos.length === 0) return new Map();
  const { rows } = await db.query<AisPortEta>('SELECT * FROM ais_port_etas WHERE vessel_imo = ANY($1)', [imos]);
  return new Map(rows.map((r) => [`${r.vessel_imo}|${r.port_locode}`, r]));
}

export async function saveAisPortEta(db: Queryable, e: AisPortEta): Promise<void> {
  await db.query(
    `INSERT INTO ais_port_etas (vessel_imo, port_locode, eta_at, distance_nm, speed_knots, position_at, latitude, longitude, computed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (vessel_imo, port_locode) DO UPDATE SET eta_at = EXCLUDED.eta_at, distance_nm = EXCLUDED.distance_nm,
       speed_knots = EXCLUDED.speed_knots, position_at = EXCLUDED.position_at, latitude = EXCLUDED.latitude,
       longitude = EXCLUDED.longitude, computed_at = EXCLUDED.computed_at
     WHERE ais_port_etas.position_at < EXCLUDED.position_at`,
    [e.vessel_imo, e.port_locode, e.eta_at, e.distance_nm, e.speed_knots, e.position_at, e.latitude, e.longitude, e.computed_at],
  );
}

/**
 * The AIS estimate of a shipment's arrival at its port of discharge, for the vessel the carrier
 * says carries it there; null when AIS has none. For the route map (current_vessel.arrival_port_eta)
 * and anyone comparing it with the carrier's pod_eta_at.
 */
export async function aisEtaOfShipment(db: Queryable, accountId: string, shipmentId: string): Promise<AisPortEta | null> {
  const { rows } = await db.query<AisPortEta>(
    `SELECT e.* FROM shipments s
       JOIN ais_port_etas e ON e.vessel_imo = s.state->>'pod_vessel_imo' AND e.port_locode = s.state->>'port_of_discharge_locode'
      WHERE s.account_id = $1 AND s.id = $2`,
    [accountId, shipmentId],
  );
  return rows[0] ?? null;
}

/** An AIS estimate as a shipment shows it: the arrival time and when svc computed it. */
export type AisEtaShown = Pick<AisPortEta, 'eta_at' | 'computed_at'>;

/**
 * The estimates computed at or after `computedSince` for these vessel and port pairs, by
 * `imo|locode`: one primary-key lookup per distinct pair, for a whole page of shipments at once.
 */
export async function freshAisPortEtas(db: Queryable, pairs: { imo: string; locode: string }[], computedSince: Date): Promise<Map<string, AisEtaShown>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await db.query<AisEtaShown & { vessel_imo: string; port_locode: string }>(
    `SELECT e.vessel_imo, e.port_locode, e.eta_at, e.computed_at
       FROM unnest($1::text[], $2::text[]) AS p(imo, locode)
       JOIN ais_port_etas e ON e.vessel_imo = p.imo AND e.port_locode = p.locode
      WHERE e.computed_at >= $3`,
    [pairs.map((p) => p.imo), pairs.map((p) => p.locode), computedSince],
  );
  return new Map(rows.map((r) => [`${r.vessel_imo}|${r.port_locode}`, { eta_at: r.eta_at, computed_at: r.computed_at }]));
}
