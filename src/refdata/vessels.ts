// vessels.csv → vessels. These are demo ships; positions come later from AIS.
import { parseCsv, textOrNull } from './csv.ts';
import { stableId } from './ids.ts';
import type { VesselRow } from './types.ts';

export function parseVessels(vesselsCsv: string): VesselRow[] {
  return parseCsv(vesselsCsv).map((r) => ({
    id: stableId('vessel', r.imo),
    name: r.name,
    imo: r.imo,
    mmsi: null,
    operator: textOrNull(r.operator),
  }));
}
