// The vessel moves AIS can show before the carrier reports them, besides the arrival at the port of
// discharge (ais-arrival.ts): a box's vessel leaving the port of lading or a transshipment port,
// and reaching a transshipment port. Pure: the route comes from the carrier's stored events, the
// distances and the ports' positions from the caller.
//
// Which vessel and which port are the carrier's: the vessel a box was loaded onto (an actual LOAD
// names it) and the ports of that leg (actual, estimated or planned calls). AIS only says when. A
// box never reported loaded is not known to be aboard, so no move of its vessel is recorded for
// it; a port the carrier's route does not name for the leg is not watched (the vessel's own AIS
// destination may be a call of another rotation the box never makes).
import { DEFAULT_ETA_RULE } from './ais-eta.ts';
import { DEFAULT_STOP_RULE, EARLIEST_BEFORE_ETA_MS, speedsOf, type AisFix, type DistanceNm, type StopRule } from './ais-arrival.ts';
import type { CarrierEvent } from './carrier-events.ts';
import { believedTime } from './facts.ts';
import { deriveRoute } from './route.ts';
import { milestoneKey } from './milestones.ts';
import type { Leg, Route } from './route.ts';
import type { MilestoneName } from './types.ts';

export interface DepartureRule extends StopRule {
  /** A vessel outside the port area at this speed over ground or more has left. */
  underWayKnots: number;
}

/**
 * The arrival's own area and stop (DEFAULT_STOP_RULE): a vessel that would count as arrived counts
 * as moored before it leaves, so both moves read the port the same way, and the area reaches the
 * anchorages, so a shift from berth to anchor is not a departure. Under way is the speed below
 * which the ETA rule takes a vessel for waiting or drifting: well above a moored ship's jitter,
 * well below a ship leaving for sea.
 */
export const DEFAULT_DEPARTURE_RULE: DepartureRule = { ...DEFAULT_STOP_RULE, underWayKnots: DEFAULT_ETA_RULE.minSpeedKnots };

export interface AisDeparture {
  /** The first report under way after the last sustained stop in the area: when the vessel left its berth or anchorage. */
  departedAt: Date;
  /** The first report outside the area at sea speed: when the departure counts. */
  confirmedAt: Date;
  /** Where the vessel lay. */
  lon: number;
  lat: number;
}

/**
 * The vessel's departure from the port area in `track` (oldest first), or null: a stop of at
 * least `minStopMs` inside the area, then a report outside it at `underWayKnots` or more. A
 * later sustained stop inside the area (moved to the anchorage) starts the count again. Only a
 * departure under way after `after` counts: an earlier call of the vessel at the same port (its
 * previous rotation, before the box was loaded) is passed over.
 */
export function departureFromPortArea(
  track: readonly AisFix[],
  port: readonly [number, number],
  distanceNm: DistanceNm,
  after: Date,
  rule: DepartureRule = DEFAULT_DEPARTURE_RULE,
): AisDeparture | null {
  const sog = speedsOf(track, distanceNm);
  let stopStart: AisFix | null = null;
  let lay: AisFix | null = null;
  let underWay: AisFix | null = null;
  for (let i = 0; i < track.length; i++) {
    const f = track[i];
    const inside = distanceNm([f.lon, f.lat], port) <= rule.radiusNm;
    const stopped = sog[i] !== null && sog[i]! < rule.maxSpeedKnots && inside;
    if (stopped) {
      stopStart ??= f;
      if (f.at.getTime() - stopStart.at.getTime() >= rule.minStopMs) {
        lay = f;
        underWay = null;
      }
      continue;
    }
    stopStart = null;
    if (lay === null) continue;
    underWay ??= f;
    if (inside || sog[i] === null || sog[i]! < rule.underWayKnots) continue;
    if (underWay.at.getTime() > after.getTime()) return { departedAt: underWay.at, confirmedAt: f.at, lon: lay.lon, lat: lay.lat };
    lay = null;
    underWay = null;
  }
  return null;
}

/** A move of one vessel at one port that AIS may record for some boxes of a shipment. */
export interface AisWatch {
  kind: 'departure' | 'arrival';
  vesselImo: string;
  voyageNumber: string | null;
  vesselName: string | null;
  port: string;
  name: MilestoneName;
  containers: string[];
  /** The move must come after this (the box's load; for an arrival, the departure from the leg's first port). */
  after: Date;
  /** For an arrival whose leg's departure is not known yet: the leg's first port, which the stop must come after leaving. */
  from: string | null;
  /** The carrier's estimate of an arrival at `port`, when it gave one. */
  etaAt: Date | null;
}

const imoOfLeg = (leg: Leg) => leg.events.map((e) => e.vessel?.imo?.trim()).find((imo) => !!imo && /^\d{7}$/.test(imo)) ?? null;

/** The milestone name the carrier's own event will have (milestones.ts oceanMilestone), so replacing it renames nothing. */
function nameOf(leg: Leg, route: Route, kind: AisWatch['kind']): MilestoneName {
  const verb = kind === 'departure' ? 'departed' : 'arrived';
  if (leg.feeder) return `feeder_${verb}`;
  return kind === 'departure' && leg.from === route.pol ? 'vessel_departed' : `transshipment_${verb}`;
}

/**
 * What AIS may still record of a shipment's journey: for each leg whose vessel has boxes loaded
 * aboard (an actual LOAD), its departure from the port they were loaded at, and, for a leg that
 * does not end at the port of discharge (that arrival is ais-arrival.ts's), its arrival at the
 * leg's end. Moves already recorded under their milestone key (by the carrier or by AIS) are left out.
 */
export function aisWatches(route: Route, recorded: ReadonlyMap<string, Date>): AisWatch[] {
  const watches: AisWatch[] = [];
  for (const [i, leg] of route.legs.entries()) {
    const imo = imoOfLeg(leg);
    if (!imo || leg.mode !== 'VESSEL' || leg.from === null) continue;
    const actual = (code: string, locode: string | null) => leg.events.filter((e) => e.classifier === 'ACT' && e.code === code && e.locode === locode);
    const loads = actual('LOAD', leg.from).filter((e) => e.equipmentReference);
    if (loads.length === 0) continue;
    const discharged = new Set(leg.events.filter((e) => e.classifier === 'ACT' && e.code === 'DISC').map((e) => e.equipmentReference));
    const aboard = [...new Set(loads.map((e) => e.equipmentReference!))].filter((c) => !discharged.has(c));
    const loadedAt = new Date(Math.max(...loads.map((e) => e.occurredAt.getTime())));
    const common = { vesselImo: imo, voyageNumber: loads[0].voyageNumber, vesselName: loads[0].vessel?.name ?? null };
    const open = (name: MilestoneName, port: string) => aboard.filter((c) => !recorded.has(milestoneKey(c, name, port)));

    const departed = actual('DEPA', leg.from);
    const departure = nameOf(leg, route, 'departure');
    const waiting = departed.length > 0 ? [] : open(departure, leg.from);
    if (waiting.length > 0) watches.push({ ...common, kind: 'departure', port: leg.from, from: null, name: departure, containers: waiting, after: loadedAt, etaAt: null });

    // The last leg, or one that ends at the port of discharge, is the arrival ais-arrival.ts records;
    // a leg whose end the carrier has not named is not watched.
    const last = i === route.legs.length - 1;
    if (last || leg.to === null || leg.to === route.pod) continue;
    const arrival = nameOf(leg, route, 'arrival');
    if (actual('ARRI', leg.to).length > 0) continue;
    const onBoard = open(arrival, leg.to);
    if (onBoard.length === 0) continue;
    // The leg's departure: the carrier's, else the one AIS recorded, else at least the load.
    const aisLeft = aboard.map((c) => recorded.get(milestoneKey(c, departure, leg.from!))?.getTime()).filter((t) => t !== undefined);
    const leftAt = believedTime(departed) ?? (aisLeft.length > 0 ? new Date(Math.max(...aisLeft)) : null);
    const etaAt = believedTime(leg.events.filter((e: CarrierEvent) => e.classifier !== 'ACT' && e.code === 'ARRI' && e.locode === leg.to));
    watches.push({ ...common, kind: 'arrival', port: leg.to, from: leftAt ? null : leg.from, name: arrival, containers: onBoard, after: leftAt ?? loadedAt, etaAt });
  }
  return watches;
}

/** Whether a stop at the watched port is this leg's arrival: after the leg's departure and, given an ETA, no earlier than a few days before it. */
export function stopIsThisLeg(watch: Pick<AisWatch, 'after' | 'etaAt'>, arrivedAt: Date): boolean {
  if (arrivedAt.getTime() <= watch.after.getTime()) return false;
  return watch.etaAt === null || arrivedAt.getTime() >= watch.etaAt.getTime() - EARLIEST_BEFORE_ETA_MS;
}

/**
 * The name the carrier's own event for this move will most likely have: the route re-read with
 * what AIS saw as if the carrier had reported it. Whether a leg is a feeder depends on its length,
 * known only once its arrival is, so naming a feeder's arrival from the route before would
 * record it as a transshipment and the carrier's event would rename it, announcing it again.
 */
export function aisMilestoneName(events: readonly CarrierEvent[], watch: Pick<AisWatch, 'kind' | 'vesselImo' | 'vesselName' | 'voyageNumber' | 'name'>, port: string, at: Date): MilestoneName {
  const seen: CarrierEvent = {
    id: `ais:${watch.kind}:${port}`,
    type: 'TRANSPORT',
    code: watch.kind === 'departure' ? 'DEPA' : 'ARRI',
    classifier: 'ACT',
    occurredAt: at,
    publishedAt: at,
    utcOffset: null,
    equipmentReference: null,
    emptyIndicator: null,
    locode: port,
    facilitySmdgCode: null,
    facilityType: null,
    modeOfTransport: 'VESSEL',
    vessel: { imo: watch.vesselImo, name: watch.vesselName },
    voyageNumber: watch.voyageNumber,
    transportCallSequence: null,
    isoEquipmentCode: null,
    seals: [],
    documentType: null,
    documentReferences: [],
    raw: null,
  };
  const route = deriveRoute([...events, seen]);
  const leg = route.legOf(seen);
  return leg && leg.mode === 'VESSEL' ? nameOf(leg, route, watch.kind) : watch.name;
}
