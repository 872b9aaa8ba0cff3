// Which AIS positions of a vessel are physically possible. A position is judged against the last
// one accepted for the same vessel: one that would need the vessel to have gone faster than any
// merchant ship can, or to have been in two places at once, is rejected. Such positions come from
// garbled reports, GPS faults, spoofing, and two transmitters sending under one identity; drawn,
// they are straight lines across continents.
import { haversineKm, KM_PER_NM } from '../geo/distance.ts';

/**
 * The fastest a merchant ship goes over ground. Container ships sail 14–25 knots and the fastest
 * ever built made some 33; high-speed ferries reach about 40. Above that a track is not a ship's.
 */
export const MAX_PLAUSIBLE_KNOTS = 40;
/** AIS positions are given to 1/10,000 minute, but GPS and antenna placement wander by tens of metres; reports seconds apart may jump by this much. */
export const POSITION_NOISE_KM = 1;
/** Two reports this close in time yet farther apart than POSITION_NOISE_KM plus the distance at full speed are the ship in two places. */
export const SAME_INSTANT_MS = 60_000;
/**
 * When the accepted track has said nothing for this long while the rejected reports agree among
 * themselves, those are taken as the vessel: the position accepted last was itself the wrong one
 * (the first report heard after a restart, say), and a filter that never lets go would blind the
 * map for good.
 */
export const RECOVER_AFTER_MS = 60 * 60_000;
/** How many agreeing rejected reports it takes to recover (see RECOVER_AFTER_MS). */
const RECOVER_REPORTS = 3;

export type RejectReason = 'impossible_speed' | 'two_places';

export interface Fix {
  lon: number;
  lat: number;
  atMs: number;
}

export type Verdict = 'accepted' | RejectReason;

/** Whether `b` can follow `a` (either may be the earlier), and if not why. */
export function plausibility(a: Fix, b: Fix): Verdict {
  const km = haversineKm([a.lon, a.lat], [b.lon, b.lat]);
  const gapMs = Math.abs(b.atMs - a.atMs);
  const reachKm = (MAX_PLAUSIBLE_KNOTS * KM_PER_NM * gapMs) / 3_600_000 + POSITION_NOISE_KM;
  if (km <= reachKm) return 'accepted';
  return gapMs < SAME_INSTANT_MS ? 'two_places' : 'impossible_speed';
}

interface VesselState {
  last: Fix;
  /** Rejected reports that agree with one another since the last accepted one, oldest first. */
  rival: Fix[];
}

/** Judges the positions of many vessels, each by its key, remembering the last accepted position of each. */
export class PositionGate {
  readonly #vessels = new Map<string, VesselState>();

  judge(key: string, fix: Fix): Verdict {
    const state = this.#vessels.get(key);
    if (!state) {
      this.#vessels.set(key, { last: fix, rival: [] });
      return 'accepted';
    }
    const verdict = plausibility(state.last, fix);
    if (verdict === 'accepted') {
      if (fix.atMs >= state.last.atMs) state.last = fix;
      return verdict;
    }
    const rival = state.rival;
    if (rival.length > 0 && plausibility(rival[rival.length - 1], fix) !== 'accepted') rival.length = 0;
    rival.push(fix);
    // Only a rival that began after the accepted track fell silent may replace it: two transmitters
    // taking turns keep the first one heard.
    if (rival.length >= RECOVER_REPORTS && rival[0].atMs > state.last.atMs && fix.atMs - state.last.atMs >= RECOVER_AFTER_MS) {
      this.#vessels.set(key, { last: fix, rival: [] });
      return 'accepted';
    }
    return verdict;
  }

  /** Forgets vessels whose last accepted position is older than `beforeMs`. */
  forgetBefore(beforeMs: number): void {
    for (const [key, state] of this.#vessels) if (state.last.atMs < beforeMs) this.#vessels.delete(key);
  }
}

/** The positions of one vessel's track that pass the gate, in the order given. */
export function plausibleTrack<T extends Fix>(track: readonly T[]): T[] {
  const gate = new PositionGate();
  return track.filter((fix) => gate.judge('', fix) === 'accepted');
}

/** Knots over ground from the first to the last fix along the track (oldest first); null over less than `minMs`. */
export function overGroundKnots(track: readonly Fix[], minMs: number): number | null {
  if (track.length < 2) return null;
  const ms = track[track.length - 1].atMs - track[0].atMs;
  if (ms < minMs) return null;
  let km = 0;
  for (let i = 1; i < track.length; i++) km += haversineKm([track[i - 1].lon, track[i - 1].lat], [track[i].lon, track[i].lat]);
  return km / KM_PER_NM / (ms / 3_600_000);
}
