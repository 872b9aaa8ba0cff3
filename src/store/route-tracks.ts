// The track a vessel sailed, for drawing: only coordinates, in time order. A month of AIS reports
// is thousands of rows; as rows, node-postgres spends ~10 µs parsing each (a Date and six numbers),
// which made the route map take 100 ms and more. One aggregated text value parses in about 1 ms.
import type { Queryable } from './db.ts';

export interface TrackLine {
  /** [longitude, latitude] of each report with a usable position, oldest first. */
  coordinates: [number, number][];
  first: Date;
  last: Date;
}

/**
 * The track of the vessel with this IMO number from `from` to `to` (both included), or null when
 * it has no usable report then. AIS marks "not available" with latitude 91 and longitude 181;
 * such reports are left out here.
 */
export async function trackLineOfImo(db: Queryable, imo: string, from: Date, to: Date): Promise<TrackLine | null> {
  const { rows } = await db.query<{ points: string | null; first: Date | null; last: Date | null }>(
    `SELECT string_agg(longitude::text || ' ' || latitude::text, ',' ORDER BY at) AS points, min(at) AS first, max(at) AS last
       FROM vessel_positions
      WHERE mmsi = coalesce(
              (SELECT mmsi FROM ais_vessels WHERE imo = $1 ORDER BY updated_at DESC LIMIT 1),
              (SELECT mmsi::integer FROM vessels WHERE imo = $1 AND mmsi ~ '^[0-9]{9}$'))
        AND at BETWEEN $2 AND $3
        AND latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180`,
    [imo, from, to],
  );
  const { points, first, last } = rows[0] ?? {};
  if (!points || !first || !last) return null;
  const coordinates = points.split(',').map((p): [number, number] => {
    const space = p.indexOf(' ');
    return [Number(p.slice(0, space)), Number(p.slice(space + 1))];
  });
  return { coordinates, first, last };
}
