// The track a vessel sailed, for drawing: only coordinates, in time order, and only those the
// caller does not hold yet. A month of AIS reports is thousands of rows; as rows, node-postgres
// spends ~10 µs parsing each (a Date and six numbers), so they come as one aggregated text value.
// The route map keeps what it has drawn (src/services/route-map-tracks.ts) and asks here for the
// reports after its newest one, with a count that tells it whether anything older changed.
import type { Queryable } from './db.ts';
import { MMSI_OF_IMO } from './vessel-positions.ts';

export interface TrackSince {
  /** Usable reports in the range at or before `after`: the caller compares it with how many it holds. */
  known: number;
  /** [longitude, latitude] of each usable report after `after`, oldest first. */
  coordinates: [number, number][];
  /** The newest usable report in the whole range; null when there is none. */
  last: Date | null;
}

/**
 * The track of the vessel with this IMO number from `from` to `to` (both included) after `after`
 * (null: all of it). AIS marks "not available" with latitude 91 and longitude 181; such reports
 * are left out here, and from the count.
 *
 * Timestamps round-trip through JavaScript Dates (milliseconds); the ingester stores Dates too.
 * A stored instant with microseconds would only make `known` disagree, so the caller reads the
 * whole track again: slower, never wrong.
 */
export async function trackSince(db: Queryable, imo: string, from: Date, to: Date, after: Date | null): Promise<TrackSince> {
  // The (mmsi, at) primary key bounds the scan to the range; counting the older rows costs
  // ~1 µs each, converting a report to text and parsing it ~1 µs more plus its transfer.
  const { rows } = await db.query<{ known: number; points: string | null; last: Date | null }>(
    `SELECT count(*) FILTER (WHERE at <= $4) AS known,
            string_agg(longitude::text || ' ' || latitude::text, ',' ORDER BY at) FILTER (WHERE at > $4) AS points,
            max(at) AS last
       FROM vessel_positions
      WHERE mmsi = ${MMSI_OF_IMO}
        AND at BETWEEN $2 AND $3
        AND latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180`,
    [imo, from, to, after ?? '-infinity'],
  );
  const { known = 0, points = null, last = null } = rows[0] ?? {};
  const coordinates = points
    ? points.split(',').map((p): [number, number] => {
        const space = p.indexOf(' ');
        return [Number(p.slice(0, space)), Number(p.slice(space + 1))];
      })
    : [];
  return { known, coordinates, last };
}
