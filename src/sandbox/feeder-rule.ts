// Which sea legs of a journey are feeders: the physical rule a real network follows, and the one
// svc infers from carrier data (src/domain/tracking/route.ts, withFeeders). A feeder is a short hop
// at an end of the sea journey — from the port of loading to the hub where the mother vessel takes
// the box, or from the hub to the port of discharge — beside a mother leg at least twice as long.
// The planner labels legs with it and picks the vessel to fit (a feeder ship or a barge), so the
// ground truth's feeder_* milestones, the published vessel and mode, and svc's reading agree.
import { DAY } from '../domain/time-units.ts';

/** The longest a feeder leg takes, departure to arrival (feeder services reach 1,300–1,500 nm). */
export const FEEDER_MAX_MS = 4 * DAY;
/** The mother vessel's leg takes at least this many times as long as a feeder's. */
export const MOTHER_MIN_RATIO = 2;

export interface TimedSeaLeg {
  mode: 'VESSEL' | 'BARGE' | string;
  departAt: Date;
  arriveAt: Date;
}

const durationMs = (l: TimedSeaLeg) => l.arriveAt.getTime() - l.departAt.getTime();

/**
 * For each sea leg (in journey order, rail left out): whether it is a feeder. Only the first or the
 * last of two or more legs can be; it must take at most FEEDER_MAX_MS and at most 1/MOTHER_MIN_RATIO
 * of the mother leg, the longest of the other vessel legs (a barge is never a mother). A leg between
 * two others runs hub to hub: a relay between mainline services, never a feeder.
 */
export function feederLegs(legs: readonly TimedSeaLeg[]): boolean[] {
  return legs.map((leg, i) => {
    if (legs.length < 2 || (i !== 0 && i !== legs.length - 1)) return false;
    const d = durationMs(leg);
    if (d > FEEDER_MAX_MS) return false;
    const mother = Math.max(0, ...legs.filter((o, j) => j !== i && o.mode === 'VESSEL').map(durationMs));
    return mother > 0 && MOTHER_MIN_RATIO * d <= mother;
  });
}
