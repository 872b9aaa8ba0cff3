// The past tracks a route map draws, kept between requests. Reading a month of AIS reports and
// drawing them (antimeridian cuts, Douglas–Peucker) was most of a map's time (npm run bench:map),
// yet a track only grows: a vessel at sea adds a report every few minutes, and a finished leg adds
// none. So each track is kept with the reports it was drawn from; a request asks the database only
// for reports newer than the newest kept, plus a count of the older ones, and draws the line again
// only when something was added. The count catches a report stored late inside what is kept (a
// satellite AIS batch, a restarted ingester): then the track is read whole again.
import { LRUCache } from 'lru-cache';
import type { LonLat } from '../geo/distance.ts';
import { DAY } from '../domain/time-units.ts';
import type { Queryable } from '../store/db.ts';
import { trackSince } from '../store/route-tracks.ts';
import { displayLine, type Position } from './route-map-features.ts';

/**
 * How long after a leg's arrival its reports may still come in late. Past that, a track checked
 * against the database after the settling is taken as final: the map stops asking for it.
 */
export const ARRIVED_TRACK_SETTLES_MS = DAY;

/**
 * How many points the kept tracks hold in all (reports and drawn vertices), per database pool:
 * 16 bytes a report, ~50 a vertex, so at most some 50 MB; a 30-day voyage is ~15,000 reports.
 */
const TRACK_POINTS_KEPT = 1_000_000;

export interface DrawnTrack {
  /** The line as the map shows it (displayLine); fewer than two points when the vessel did not move. */
  line: Position[];
  /** The newest report on the track. */
  last: Date;
}

interface KeptTrack extends DrawnTrack {
  /** Every report drawn, longitude and latitude in turn (a flat array of doubles is the smallest); empty once settled. */
  reports: number[];
  /** How many reports the track holds (they may be dropped once settled, the count is kept). */
  count: number;
  /** When the database last confirmed the track. */
  checkedAt: Date;
}

// Per pool, so tests and benchmarks with several databases in one process never share tracks.
const keptByDb = new WeakMap<Queryable, LRUCache<string, KeptTrack>>();

function keptTracks(db: Queryable): LRUCache<string, KeptTrack> {
  let kept = keptByDb.get(db);
  if (!kept) {
    kept = new LRUCache<string, KeptTrack>({ maxSize: TRACK_POINTS_KEPT, sizeCalculation: (t) => 1 + t.reports.length / 2 + t.line.length });
    keptByDb.set(db, kept);
  }
  return kept;
}

function draw(reports: readonly number[]): Position[] {
  const coords: LonLat[] = [];
  for (let i = 0; i < reports.length; i += 2) coords.push([reports[i], reports[i + 1]]);
  return displayLine(coords);
}

/**
 * The drawn track of the vessel with this IMO number from its departure to its arrival (`arrivedAt`,
 * both included), or to `now` while it is at sea; null when it sent no usable report then.
 */
export async function drawnTrack(db: Queryable, now: Date, imo: string, departedAt: Date, arrivedAt: Date | null): Promise<DrawnTrack | null> {
  const until = arrivedAt ?? now;
  if (departedAt >= until) return null;
  const tracks = keptTracks(db);
  // A corrected departure or arrival time is another track; one at sea is keyed apart from the
  // same leg arrived, which ends at the arrival rather than at `now`.
  const key = `${imo}|${departedAt.toISOString()}|${arrivedAt?.toISOString() ?? 'at sea'}`;
  let kept = tracks.get(key);
  if (kept && arrivedAt && kept.checkedAt.getTime() - arrivedAt.getTime() >= ARRIVED_TRACK_SETTLES_MS) return kept;

  let since = await trackSince(db, imo, departedAt, until, kept?.last ?? null);
  if (kept && since.known !== kept.count) {
    kept = undefined;
    since = await trackSince(db, imo, departedAt, until, null);
  }
  if (!since.last) {
    tracks.delete(key);
    return null;
  }
  const settled = arrivedAt !== null && now.getTime() - arrivedAt.getTime() >= ARRIVED_TRACK_SETTLES_MS;
  if (kept && since.coordinates.length === 0) {
    // Nothing new: the same line, confirmed now. A settled track no longer needs its reports.
    const confirmed: KeptTrack = { ...kept, checkedAt: now, reports: settled ? [] : kept.reports };
    tracks.set(key, confirmed);
    return confirmed;
  }
  // A new array, not a push onto the kept one: a concurrent request may be extending it too.
  const reports = kept ? kept.reports.slice() : [];
  for (const [lon, lat] of since.coordinates) reports.push(lon, lat);
  const drawn: KeptTrack = { line: draw(reports), last: since.last, reports: settled ? [] : reports, count: (kept?.count ?? 0) + since.coordinates.length, checkedAt: now };
  tracks.set(key, drawn);
  return drawn;
}
