// How long AIS positions are kept: at full (downsampled) resolution for a while, then one per
// vessel per hour, then not at all. Run periodically by the AIS worker; each run thins only the
// hours that came of age since the last run (the store remembers how far it got).
import { DAY, HOUR } from '../domain/time-units.ts';
import type { Queryable } from '../store/db.ts';
import { deleteVesselPositionsBefore, setVesselPositionsThinnedUntil, thinVesselPositions, vesselPositionsThinnedUntil } from '../store/vessel-positions.ts';

export interface RetentionRule {
  /** Positions younger than this stay as stored. */
  fullResolutionMs: number;
  /** Positions older than this are deleted; null keeps them for ever (thinned). */
  keepMs: number | null;
}

const hourFloor = (ms: number) => ms - (((ms % HOUR) + HOUR) % HOUR);

/** Thins and deletes what `rule` says is due at `now`; returns how many positions went. */
export async function applyRetention(db: Queryable, now: Date, rule: RetentionRule): Promise<{ thinned: number; deleted: number }> {
  const deleteBefore = rule.keepMs === null ? null : now.getTime() - rule.keepMs;
  const deleted = deleteBefore === null ? 0 : await deleteVesselPositionsBefore(db, new Date(deleteBefore));
  // Whole hours only, so an hour is never thinned in two parts that would each keep a position.
  const thinTo = hourFloor(now.getTime() - rule.fullResolutionMs);
  const since = await vesselPositionsThinnedUntil(db);
  let from = hourFloor(Math.max(since?.getTime() ?? thinTo, deleteBefore ?? -Infinity));
  let thinned = 0;
  // A day per statement: a first run over years of positions stays a series of short deletes.
  while (from < thinTo) {
    const to = Math.min(from + DAY, thinTo);
    thinned += await thinVesselPositions(db, new Date(from), new Date(to));
    await setVesselPositionsThinnedUntil(db, new Date(to));
    from = to;
  }
  return { thinned, deleted };
}
