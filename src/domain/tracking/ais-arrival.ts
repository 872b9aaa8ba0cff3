// Arrival at the port of discharge as AIS shows it: the vessel stopped inside the port's area.
// Pure: distances come from the caller (the geo module), so the rule is testable on its own.
//
// "Stopped" is speed over ground below a threshold for a sustained time, not one slow report: a
// ship slows to a few knots to take the pilot aboard and may pass through the area on its way to
// another port. Anchorage waits count as arrival (large ports keep ships at anchor 5–15 nm out
// for hours or days): the vessel is there, the carrier's berth-arrival time replaces it later.
import { DAY, MINUTE } from '../time-units.ts';
import { isoInstant } from './time.ts';
import type { ContainerState, ShipmentState } from './types.ts';

/** One AIS position, as the detection and the ETA read it. */
export interface AisFix {
  at: Date;
  lon: number;
  lat: number;
  /** Speed over ground as reported; null when the report had none (derived from the track then). */
  speedKnots: number | null;
}

export interface StopRule {
  /** Radius of the port area around the port's reference point, in nautical miles. */
  radiusNm: number;
  /** Below this speed over ground a vessel counts as stopped (moored or at anchor). */
  maxSpeedKnots: number;
  /** How long it must stay stopped inside the area before the arrival counts. */
  minStopMs: number;
}

/**
 * 15 nm reaches the anchorages of the large ports (Los Angeles/Long Beach, Rotterdam, Singapore's
 * eastern anchorages) from their reference point; 1 kn is above the drift of a ship at anchor and
 * well below the pace of one manoeuvring in; 30 minutes rules out pilot boarding and slow turns.
 */
export const DEFAULT_STOP_RULE: StopRule = { radiusNm: 15, maxSpeedKnots: 1, minStopMs: 30 * MINUTE };

export interface AisArrival {
  /** The first report of the stop: when the vessel arrived in the area. */
  arrivedAt: Date;
  /** The report at which the stop had lasted long enough to count. */
  confirmedAt: Date;
  lon: number;
  lat: number;
}

export type DistanceNm = (a: readonly [number, number], b: readonly [number, number]) => number;

/** Speed over ground at each fix: as reported, else from the distance covered since the previous fix. */
export function speedsOf(track: readonly AisFix[], distanceNm: DistanceNm): (number | null)[] {
  return track.map((f, i) => {
    if (f.speedKnots !== null) return f.speedKnots;
    const prev = track[i - 1];
    const hours = prev ? (f.at.getTime() - prev.at.getTime()) / 3_600_000 : 0;
    return hours > 0 ? distanceNm([prev.lon, prev.lat], [f.lon, f.lat]) / hours : null;
  });
}

/**
 * The first sustained stop of the track inside the port area, or null. `track` is oldest first.
 * A fix outside the area or moving again ends a stop, so a ship that waits, moves on and stops
 * again is timed from the stop that lasted.
 */
export function arrivalInPortArea(track: readonly AisFix[], port: readonly [number, number], distanceNm: DistanceNm, rule: StopRule = DEFAULT_STOP_RULE): AisArrival | null {
  const sog = speedsOf(track, distanceNm);
  let start: AisFix | null = null;
  for (let i = 0; i < track.length; i++) {
    const f = track[i];
    const stopped = sog[i] !== null && sog[i]! < rule.maxSpeedKnots && distanceNm([f.lon, f.lat], port) <= rule.radiusNm;
    if (!stopped) {
      start = null;
      continue;
    }
    start ??= f;
    if (f.at.getTime() - start.at.getTime() >= rule.minStopMs) return { arrivedAt: start.at, confirmedAt: f.at, lon: start.lon, lat: start.lat };
  }
  return null;
}

/**
 * Whether a stop of the shipment's port-of-discharge vessel at that port is this shipment's
 * arrival. The vessel may call at the port on an earlier rotation while the cargo is still on its
 * first leg (or waiting to be transshipped), so the stop must come no earlier than a few days
 * before the carrier's ETA. Without an ETA only a direct journey is trusted: then the vessel is
 * the one that left the port of lading with the cargo, and only stops after that departure count.
 */
export function arrivalIsThisVoyage(state: Pick<ShipmentState, 'pod_eta_at' | 'pol_atd_at' | 'transshipment_locodes'>, arrivedAt: Date, earlyMs = EARLIEST_BEFORE_ETA_MS): boolean {
  if (state.pol_atd_at && arrivedAt.getTime() <= new Date(state.pol_atd_at).getTime()) return false;
  if (state.pod_eta_at) return arrivedAt.getTime() >= new Date(state.pod_eta_at).getTime() - earlyMs;
  return state.transshipment_locodes.length === 0;
}

/** Vessels rarely arrive more than this ahead of the carrier's ETA; a rotation comes back weeks apart. */
export const EARLIEST_BEFORE_ETA_MS = 3 * DAY;

/** The shipment and container states once the arrival is recorded (the carrier's later times replace these). */
export function withAisArrival(shipment: ShipmentState, containers: readonly ContainerState[], arrivedAt: Date): { shipment: ShipmentState; containers: ContainerState[] } {
  const at = isoInstant(arrivedAt);
  return {
    shipment: { ...shipment, pod_ata_at: shipment.pod_ata_at ?? at },
    containers: containers.filter(awaitsArrival).map((c) => ({ ...c, pod_arrived_at: at })),
  };
}

/** A box still aboard on its way to the port of discharge. */
export function awaitsArrival(c: ContainerState): boolean {
  return c.current_status === 'on_ship' && c.pod_arrived_at === null && c.pod_discharged_at === null;
}
