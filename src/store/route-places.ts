// The reference rows a route map names: its ports (with coordinates) and its vessels, each found
// by the code carriers use (UN/LOCODE, IMO number) in one query per kind.
import type { LocationRow, VesselRow } from '../refdata/types.ts';
import type { Queryable } from './db.ts';

/** Ports by UN/LOCODE. An old code that is an alias (CNSHA for CNSGH) has its own row, a copy of the canonical place. */
export async function portsByLocodes(db: Queryable, locodes: readonly string[]): Promise<Map<string, LocationRow>> {
  if (locodes.length === 0) return new Map();
  const { rows } = await db.query<LocationRow>(
    `SELECT id, locode, name, country_code, state_abbr, city, latitude, longitude, time_zone,
            is_seaport, is_rail, is_icd, is_inland_hub, alias_of
       FROM locations WHERE locode = ANY($1::text[])`,
    [[...new Set(locodes)]],
  );
  return new Map(rows.map((r) => [r.locode, r]));
}

/** Reference vessels by IMO number. */
export async function vesselsByImos(db: Queryable, imos: readonly string[]): Promise<Map<string, VesselRow>> {
  if (imos.length === 0) return new Map();
  const { rows } = await db.query<VesselRow>('SELECT id, name, imo, mmsi, operator FROM vessels WHERE imo = ANY($1::text[])', [[...new Set(imos)]]);
  return new Map(rows.map((r) => [r.imo, r]));
}
