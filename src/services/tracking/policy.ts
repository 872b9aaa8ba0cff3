// The tracking engine's timing rules, as pure functions of configurable intervals.
import { DAY, HOUR, SECOND } from '../../domain/time-units.ts';

export interface TrackingPolicy {
  /** First retry delay after a temporary failure; each next one doubles. */
  retryBaseMs: number;
  /** Temporary failures tolerated before a request fails with retries_exhausted. */
  maxRetries: number;
  /** How often a bill of lading or booking awaiting its manifest is looked up again. */
  awaitingRecheckMs: number;
  /** How long a request may await its manifest before it fails as expired. */
  awaitingExpiryMs: number;
  /** Tracking stops this long after the shipment arrived at its port of discharge. */
  stopAfterArrivalMs: number;
  /** Tracking stops when the carrier has published nothing new for this long. */
  stopAfterSilenceMs: number;
  /** Refresh cadence by phase of the journey. */
  refresh: { beforeDeparture: number; atSea: number; nearArrival: number; atDestination: number; afterPickup: number; afterFailure: number };
  /** A worker's claim on a job lapses after this, so a crashed worker's jobs are picked up again. */
  leaseMs: number;
}

// 14 retries doubling from 5.3 s add up to about 24 hours (5.3 s × (2^14 − 1) ≈ 86,800 s).
export const defaultPolicy: TrackingPolicy = {
  retryBaseMs: 5_300,
  maxRetries: 14,
  awaitingRecheckMs: DAY,
  awaitingExpiryMs: 7 * DAY,
  stopAfterArrivalMs: 56 * DAY,
  stopAfterSilenceMs: 56 * DAY,
  refresh: {
    beforeDeparture: 6 * HOUR,
    atSea: 12 * HOUR,
    nearArrival: 2 * HOUR,
    atDestination: HOUR,
    afterPickup: 6 * HOUR,
    afterFailure: HOUR,
  },
  leaseMs: 2 * 60 * SECOND,
};

/** Delay before retry number `retry` (1-based). */
export const retryDelay = (policy: TrackingPolicy, retry: number): number => policy.retryBaseMs * 2 ** (retry - 1);

export interface JourneyPhase {
  departedAt: Date | null;
  podEtaAt: Date | null;
  podArrivedAt: Date | null;
  allPickedUp: boolean;
}

/** When to look again: often while things happen (near arrival, at the terminal), rarely at sea. */
export function nextRefreshDelay(policy: TrackingPolicy, phase: JourneyPhase, now: Date): number {
  const r = policy.refresh;
  if (phase.allPickedUp) return r.afterPickup;
  if (phase.podArrivedAt) return r.atDestination;
  if (!phase.departedAt) return r.beforeDeparture;
  if (phase.podEtaAt && phase.podEtaAt.getTime() - now.getTime() < 2 * DAY) return r.nearArrival;
  return r.atSea;
}
