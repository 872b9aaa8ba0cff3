// Read queries over the reference tables loaded by src/refdata/seed.ts.
import type { LocationRow, RailTerminalRow, ShippingLineRow, TerminalRow, VesselRow } from '../refdata/types.ts';
import type { Queryable } from './db.ts';
// Path parameters may be a UUID or a code; only a UUID may meet a uuid column, since
// Postgres raises an error for anything else. Each lookup branches on this first.
import { byIds, isUuid } from './uuid.ts';

const LOCATION_COLUMNS = `id, locode, name, country_code, state_abbr, city, latitude, longitude, time_zone,
  is_seaport, is_rail, is_icd, is_inland_hub, alias_of`;
const SHIPPING_LINE_COLUMNS = `id, scac, name, short_name, alternative_scacs, bill_of_lading_tracking_support,
  booking_number_tracking_support, container_number_tracking_support, carrier_group, smdg_code, bl_prefixes,
  container_prefixes`;
const TERMINAL_COLUMNS = `id, name, nickname, firms_code, smdg_code, city, state_abbr, country, port_id, latitude, longitude`;
const RAIL_TERMINAL_COLUMNS = `id, name, nickname, firms_code, port_id, metro_area_id`;
const VESSEL_COLUMNS = `id, name, imo, mmsi, operator`;

/** Same rule as isMetroArea in src/refdata/locations.ts. */
/** A location that is a metro area (an inland hub, rail or ICD location), as a condition on its columns. */
export const METRO_AREA = '(is_inland_hub OR is_rail OR is_icd)';

/**
 * All shipping lines by name. `search` keeps lines whose name contains it (ignoring case, and
 * also ignoring spaces and punctuation), or whose SCAC or an alternative SCAC equals it.
 */
export async function listShippingLines(db: Queryable, search?: string): Promise<ShippingLineRow[]> {
  const term = search?.trim() || null;
  const { rows } = await db.query<ShippingLineRow>(
    `SELECT ${SHIPPING_LINE_COLUMNS} FROM shipping_lines
      WHERE $1::text IS NULL
         OR strpos(lower(name), lower($1)) > 0
         -- "hapag lloyd" finds Hapag-Lloyd: letters and digits alone compared too.
         OR (regexp_replace(lower($1), '[^a-z0-9]', '', 'g') <> ''
             AND strpos(regexp_replace(lower(name), '[^a-z0-9]', '', 'g'), regexp_replace(lower($1), '[^a-z0-9]', '', 'g')) > 0)
         OR scac = upper($1)
         OR upper($1) = ANY (alternative_scacs)
      ORDER BY lower(name), scac`,
    [term],
  );
  return rows;
}

/** Names of the shipping lines with these SCACs, by SCAC. */
export async function shippingLineNamesOf(db: Queryable, scacs: string[]): Promise<Map<string, { name: string; short_name: string }>> {
  if (scacs.length === 0) return new Map();
  const { rows } = await db.query<{ scac: string; name: string; short_name: string }>('SELECT scac, name, short_name FROM shipping_lines WHERE scac = ANY($1)', [scacs]);
  return new Map(rows.map((l) => [l.scac, l]));
}

/**
 * The SCACs shipments carry for these: each as given, and for an alternative SCAC its line's own
 * (a tracking request by MEDU is recorded as MSC's MSCU). Resolved before a list query rather
 * than inside it, so its planner sees the SCACs themselves and can tell how many rows they match.
 */
export async function recordedScacs(db: Queryable, scacs: string[]): Promise<string[]> {
  const { rows } = await db.query<{ scac: string }>('SELECT scac FROM shipping_lines WHERE alternative_scacs && $1::text[]', [scacs]);
  return [...new Set([...scacs, ...rows.map((r) => r.scac)])];
}

/** By id, SCAC or alternative SCAC (as a tracking request may name a carrier); a primary SCAC wins. */
export async function findShippingLine(db: Queryable, idOrScac: string): Promise<ShippingLineRow | null> {
  const { rows } = isUuid(idOrScac)
    ? await db.query<ShippingLineRow>(`SELECT ${SHIPPING_LINE_COLUMNS} FROM shipping_lines WHERE id = $1`, [idOrScac])
    : await db.query<ShippingLineRow>(
        `SELECT ${SHIPPING_LINE_COLUMNS} FROM shipping_lines
          WHERE scac = upper($1) OR upper($1) = ANY (alternative_scacs)
          ORDER BY scac = upper($1) DESC, scac
          LIMIT 1`,
        [idOrScac.trim()],
      );
  return rows[0] ?? null;
}

async function findLocation(db: Queryable, idOrLocode: string, kind: string): Promise<LocationRow | null> {
  const [column, value] = isUuid(idOrLocode) ? ['id', idOrLocode] : ['locode', idOrLocode.trim().toUpperCase()];
  const { rows } = await db.query<LocationRow>(
    `SELECT ${LOCATION_COLUMNS} FROM locations WHERE ${column} = $1 AND ${kind}`,
    [value],
  );
  return rows[0] ?? null;
}

/** A seaport by id or UN/LOCODE. */
export const findPort = (db: Queryable, idOrLocode: string): Promise<LocationRow | null> =>
  findLocation(db, idOrLocode, 'is_seaport');

/** A metro area (inland hub, rail or ICD location) by id or UN/LOCODE. */
export const findMetroArea = (db: Queryable, idOrLocode: string): Promise<LocationRow | null> =>
  findLocation(db, idOrLocode, METRO_AREA);

const locationsById = byIds(1, (match) => `SELECT ${LOCATION_COLUMNS} FROM locations WHERE id ${match}`);

/** Locations for `included`, in no particular order; ids that are not UUIDs are ignored. */
export async function findLocationsByIds(db: Queryable, ids: string[]): Promise<LocationRow[]> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (valid.length === 0) return [];
  const { text, ids: idsValue } = locationsById(valid);
  const { rows } = await db.query<LocationRow>(text, [idsValue]);
  return rows;
}

/**
 * A terminal by id, FIRMS code, SMDG code, or port LOCODE + SMDG code (the form of
 * Terminal49 terminal ids, e.g. DEHAMCTA). SMDG codes repeat across ports (APMT is at
 * Los Angeles, Mobile, Salalah, ...): a code that names several terminals equally
 * well finds none, rather than an arbitrary one.
 */
export async function findTerminal(db: Queryable, idOrCode: string): Promise<TerminalRow | null> {
  if (isUuid(idOrCode)) {
    const { rows } = await db.query<TerminalRow>(`SELECT ${TERMINAL_COLUMNS} FROM terminals WHERE id = $1`, [idOrCode]);
    return rows[0] ?? null;
  }
  const { rows } = await db.query<TerminalRow & { rank: number }>(
    `SELECT ${TERMINAL_COLUMNS.split(', ').map((c) => `t.${c}`).join(', ')},
            CASE WHEN t.firms_code = $1 THEN 1 WHEN (l.locode || t.smdg_code) = $1 THEN 2 ELSE 3 END AS rank
       FROM terminals t JOIN locations l ON l.id = t.port_id
      WHERE t.firms_code = $1 OR t.smdg_code = $1 OR (l.locode || t.smdg_code) = $1
      ORDER BY rank
      LIMIT 2`,
    [idOrCode.trim().toUpperCase()],
  );
  if (rows.length === 0 || (rows.length === 2 && rows[0].rank === rows[1].rank)) return null;
  const { rank: _rank, ...terminal } = rows[0];
  return terminal;
}

export async function findRailTerminal(db: Queryable, id: string): Promise<RailTerminalRow | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<RailTerminalRow>(`SELECT ${RAIL_TERMINAL_COLUMNS} FROM rail_terminals WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** By id or IMO number. */
export async function findVessel(db: Queryable, idOrImo: string): Promise<VesselRow | null> {
  const [column, value] = isUuid(idOrImo) ? ['id', idOrImo] : ['imo', idOrImo.trim()];
  const { rows } = await db.query<VesselRow>(`SELECT ${VESSEL_COLUMNS} FROM vessels WHERE ${column} = $1`, [value]);
  return rows[0] ?? null;
}

const terminalsById = byIds(1, (match) => `SELECT ${TERMINAL_COLUMNS} FROM terminals WHERE id ${match}`);

/** Terminals for `included`; ids that are not UUIDs are ignored. */
export async function findTerminalsByIds(db: Queryable, ids: string[]): Promise<TerminalRow[]> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (valid.length === 0) return [];
  const { text, ids: idsValue } = terminalsById(valid);
  const { rows } = await db.query<TerminalRow>(text, [idsValue]);
  return rows;
}

const vesselsById = byIds(1, (match) => `SELECT ${VESSEL_COLUMNS} FROM vessels WHERE id ${match}`);

/** Vessels for `included`; ids that are not UUIDs are ignored. */
export async function findVesselsByIds(db: Queryable, ids: string[]): Promise<VesselRow[]> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (valid.length === 0) return [];
  const { text, ids: idsValue } = vesselsById(valid);
  const { rows } = await db.query<VesselRow>(text, [idsValue]);
  return rows;
}

/**
 * Locations by UN/LOCODE (what carriers name ports by), keyed by it. An old code that is an alias
 * (CNSHA for CNSGH) has its own row, a copy of the canonical place.
 */
export async function locationsByLocodes(db: Queryable, locodes: readonly string[]): Promise<Map<string, LocationRow>> {
  if (locodes.length === 0) return new Map();
  const { rows } = await db.query<LocationRow>(`SELECT ${LOCATION_COLUMNS} FROM locations WHERE locode = ANY ($1::text[])`, [[...new Set(locodes)]]);
  return new Map(rows.map((r) => [r.locode, r]));
}

/** [longitude, latitude] of each location among the UN/LOCODEs that has coordinates, keyed by UN/LOCODE. */
export async function portPositions(db: Queryable, locodes: readonly string[]): Promise<Map<string, [number, number]>> {
  const positions = new Map<string, [number, number]>();
  for (const [locode, p] of await locationsByLocodes(db, locodes)) if (p.longitude !== null && p.latitude !== null) positions.set(locode, [p.longitude, p.latitude]);
  return positions;
}

/** Reference vessels by IMO number (what carriers name vessels by), keyed by it. */
export async function vesselsByImos(db: Queryable, imos: readonly string[]): Promise<Map<string, VesselRow>> {
  if (imos.length === 0) return new Map();
  const { rows } = await db.query<VesselRow>(`SELECT ${VESSEL_COLUMNS} FROM vessels WHERE imo = ANY ($1::text[])`, [[...new Set(imos)]]);
  return new Map(rows.map((r) => [r.imo, r]));
}

/** Name and time zone of each known location among the UN/LOCODEs, keyed by UN/LOCODE. */
export async function placesByLocode(db: Queryable, locodes: string[]): Promise<Map<string, { name: string; time_zone: string | null }>> {
  const { rows } = await db.query<{ locode: string; name: string; time_zone: string | null }>('SELECT locode, name, time_zone FROM locations WHERE locode = ANY($1)', [locodes]);
  return new Map(rows.map((r) => [r.locode, r]));
}

/** Terminal ids for the codes containers report (a FIRMS code, or an SMDG code at the port of discharge: terminal_id_of, migration 007). */
export async function terminalIdsOfCodes(db: Queryable, codes: string[], podLocode: string | null): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const { rows } = await db.query<{ code: string; id: string | null }>('SELECT c.code, terminal_id_of(c.code, $2) AS id FROM unnest($1::text[]) AS c(code)', [codes, podLocode]);
  return new Map(rows.flatMap((r) => (r.id ? [[r.code, r.id] as const] : [])));
}
