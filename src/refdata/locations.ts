// ports.csv → locations. Every row is kept, with or without coordinates: a port
// without a position is still a valid port of loading or discharge.
import { isTrue, numberOrNull, parseCsvTable, textOrNull } from './csv.ts';
import { stableId } from './ids.ts';
import type { LocationRow } from './types.ts';

// Only North American addresses carry a state abbreviation in the API; elsewhere the
// UN/LOCODE subdivision is not what a user would call a state.
const STATE_COUNTRIES = new Set(['US', 'CA', 'MX']);

export function parseLocations(portsCsv: string): LocationRow[] {
  const { columns, rows } = parseCsvTable(portsCsv);
  const index = (name: string): number => {
    const i = columns[name];
    if (i === undefined) throw new Error(`ports.csv has no ${name} column`);
    return i;
  };
  const [locode, name, country, subdivision, lat, lon, timeZone, seaport, rail, icd, hub, aliasOf] = [
    'unlocode', 'name', 'country', 'subdivision', 'lat', 'lon', 'time_zone',
    'is_seaport', 'is_rail', 'is_icd', 'inland_rail_hub', 'alias_of',
  ].map(index);

  return rows.map((r) => {
    const code = r[locode].trim();
    const countryCode = r[country].trim();
    return {
      id: stableId('location', code),
      locode: code,
      name: r[name].trim(),
      country_code: countryCode,
      state_abbr: STATE_COUNTRIES.has(countryCode) ? textOrNull(r[subdivision].trim()) : null,
      city: r[name].trim(),
      latitude: numberOrNull(r[lat]),
      longitude: numberOrNull(r[lon]),
      time_zone: textOrNull(r[timeZone].trim()),
      is_seaport: isTrue(r[seaport]),
      is_rail: isTrue(r[rail]),
      is_icd: isTrue(r[icd]),
      is_inland_hub: isTrue(r[hub]),
      alias_of: textOrNull(r[aliasOf].trim()),
    };
  });
}

/** Metro areas are the inland points containers move to by rail: curated hubs, rail and ICD locations. */
export const isMetroArea = (l: LocationRow): boolean => l.is_inland_hub || l.is_rail || l.is_icd;
