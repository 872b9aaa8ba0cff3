// North American rail and ICD locations → rail terminals. Container journeys end at
// these ramps after the rail leg, and the API relates each ramp to its metro area.
import { stableId } from './ids.ts';
import type { LocationRow, RailTerminalRow } from './types.ts';

// The Class I railroads whose ramps svc tracks serve only these countries.
const RAIL_COUNTRIES = new Set(['US', 'CA', 'MX']);

export function railTerminalsFrom(locations: LocationRow[]): RailTerminalRow[] {
  return locations
    .filter((l) => (l.is_rail || l.is_icd) && RAIL_COUNTRIES.has(l.country_code))
    .map((l) => ({
      id: stableId('rail_terminal', l.locode),
      name: l.name,
      nickname: null,
      firms_code: null,
      port_id: l.is_seaport ? l.id : null,
      metro_area_id: l.id,
    }));
}
