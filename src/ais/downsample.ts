// Which positions to keep: AIS repeats a moving ship's position every 2–10 seconds and a moored
// one's every 3 minutes; a track needs far fewer. In memory, per MMSI, the last kept position.

export interface SamplingRule {
  /** Keep a moving vessel's position once this long has passed since the last kept one. */
  intervalMs: number;
  /** Keep a stopped vessel's position (under STOPPED_KNOTS) this much less often. */
  stoppedFactor: number;
  /** Keep sooner than `intervalMs` when the course turned by at least this many degrees… */
  turnDegrees: number;
  /** …or the vessel stopped or got under way, but never sooner than this after the last kept one. */
  minGapMs: number;
}

/** Under this speed a vessel counts as stopped (at anchor, moored, drifting). */
export const STOPPED_KNOTS = 0.5;

export function samplingRule(intervalMs: number): SamplingRule {
  return { intervalMs, stoppedFactor: 6, turnDegrees: 20, minGapMs: Math.min(30_000, intervalMs) };
}

interface Kept {
  atMs: number;
  course: number | null;
  stopped: boolean;
}

const turn = (a: number, b: number) => {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
};

export class PositionSampler {
  readonly #last = new Map<number, Kept>();

  constructor(private readonly rule: SamplingRule) {}

  /**
   * Whether to keep this position, and if so remember it. Positions at or before the last kept
   * one of the same vessel (late, repeated or out of order) are never kept.
   */
  keep(mmsi: number, atMs: number, speedKnots: number | null, courseDegrees: number | null): boolean {
    const stopped = speedKnots !== null && speedKnots < STOPPED_KNOTS;
    const last = this.#last.get(mmsi);
    if (last) {
      const gap = atMs - last.atMs;
      if (gap <= 0) return false;
      const interval = stopped && last.stopped ? this.rule.intervalMs * this.rule.stoppedFactor : this.rule.intervalMs;
      const changed =
        stopped !== last.stopped ||
        (!stopped && courseDegrees !== null && last.course !== null && turn(courseDegrees, last.course) >= this.rule.turnDegrees);
      if (gap < interval && !(changed && gap >= this.rule.minGapMs)) return false;
    }
    this.#last.set(mmsi, { atMs, course: courseDegrees, stopped });
    return true;
  }

  /** Forgets vessels not kept since `beforeMs`, so the map holds only vessels heard lately. */
  forgetBefore(beforeMs: number): void {
    for (const [mmsi, kept] of this.#last) if (kept.atMs < beforeMs) this.#last.delete(mmsi);
  }
}
