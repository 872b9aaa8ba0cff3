// The port-of-discharge ETA as AIS suggests it: distance still to sail along the sea route,
// divided by the speed the vessel has been keeping. Pure; the sea route's length comes from the
// caller. The speed is an average over hours, not the last report: a single report catches a ship
// slowing for traffic or a pilot and would swing the estimate by days on an ocean crossing.
import type { AisFix, DistanceNm } from './ais-arrival.ts';
import { HOUR } from '../time-units.ts';

export interface EtaRule {
  /** The stretch of track the average speed is taken over. */
  speedWindowMs: number;
  /** Less track than this in the window and there is no average worth using. */
  minSpanMs: number;
  /** Below this average the vessel is waiting or drifting, not sailing: no estimate. */
  minSpeedKnots: number;
  /** A newest position older than this says nothing about where the vessel is now. */
  maxPositionAgeMs: number;
}

export const DEFAULT_ETA_RULE: EtaRule = { speedWindowMs: 6 * HOUR, minSpanMs: HOUR, minSpeedKnots: 3, maxPositionAgeMs: 6 * HOUR };

/**
 * Time-weighted average speed over ground over the last `speedWindowMs` of the track (oldest
 * first): each stretch between two fixes counts with its duration, at the mean of the two
 * reported speeds, or at the distance it covers when a report lacks one. Null when the window
 * spans less than `minSpanMs`.
 */
export function averageSpeedKnots(track: readonly AisFix[], distanceNm: DistanceNm, rule: EtaRule = DEFAULT_ETA_RULE): number | null {
  if (track.length < 2) return null;
  const end = track[track.length - 1].at.getTime();
  const recent = track.filter((f) => f.at.getTime() >= end - rule.speedWindowMs);
  let weighted = 0;
  let span = 0;
  for (let i = 1; i < recent.length; i++) {
    const [a, b] = [recent[i - 1], recent[i]];
    const ms = b.at.getTime() - a.at.getTime();
    if (ms <= 0) continue;
    const knots = a.speedKnots !== null && b.speedKnots !== null ? (a.speedKnots + b.speedKnots) / 2 : distanceNm([a.lon, a.lat], [b.lon, b.lat]) / (ms / HOUR);
    weighted += knots * ms;
    span += ms;
  }
  return span >= rule.minSpanMs ? weighted / span : null;
}

export interface AisEta {
  etaAt: Date;
  distanceNm: number;
  speedKnots: number;
  from: AisFix;
}

/** The estimate from the newest fix, or null when the track is stale or the vessel is not under way. */
export function aisEta(track: readonly AisFix[], distanceToGoNm: number, distanceNm: DistanceNm, now: Date, rule: EtaRule = DEFAULT_ETA_RULE): AisEta | null {
  const from = track[track.length - 1];
  if (!from || now.getTime() - from.at.getTime() > rule.maxPositionAgeMs) return null;
  const speed = averageSpeedKnots(track, distanceNm, rule);
  if (speed === null || speed < rule.minSpeedKnots) return null;
  return { etaAt: new Date(from.at.getTime() + (distanceToGoNm / speed) * HOUR), distanceNm: distanceToGoNm, speedKnots: speed, from };
}
