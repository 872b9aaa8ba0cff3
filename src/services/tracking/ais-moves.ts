// The part of the AIS pass that records, before the carrier reports them, the departures of a
// box's vessel from the port of lading and from transshipment ports, and its arrivals at
// transshipment ports (the arrival at the port of discharge is ais-arrivals.ts's). The rules are
// the arrival's: data_source 'ais', the milestone key and name the carrier's event will have, so
// that event later corrects the record in place without a second announcement (apply.ts).
import { aisMilestoneName, aisWatches, departureFromPortArea, stopIsThisLeg, type AisWatch } from '../../domain/tracking/ais-moves.ts';
import { arrivalInPortArea, DEFAULT_STOP_RULE, type AisFix, type DistanceNm } from '../../domain/tracking/ais-arrival.ts';
import { haversineNm } from '../../geo/distance.ts';
import { withLocalTimes } from '../../domain/tracking/facts.ts';
import { milestoneKey } from '../../domain/tracking/milestones.ts';
import { deriveRoute } from '../../domain/tracking/route.ts';
import { isoInstant } from '../../domain/tracking/time.ts';
import type { CarrierEvent } from '../../domain/tracking/carrier-events.ts';
import type { ShipmentState } from '../../domain/tracking/types.ts';
import { domainEvent } from '../../domain/events/domain-event.ts';
import type { EventName } from '../../domain/events/vocabulary.ts';
import { insertAisMilestones, insertAisMove, lockShipmentsUnderWay, shipmentsUnderWay, type ShipmentAtSea } from '../../store/ais-arrivals.ts';
import { withTransaction, type Db } from '../../store/db.ts';
import { recordEvents } from '../../store/domain-events.ts';
import { portPositions } from '../../store/reference.ts';
import { containersOfShipments, makeDueNow, saveShipmentState } from '../../store/shipments.ts';
import { storedTrackingOfShipments } from '../../store/tracking-state.ts';
import { vesselTracksOfImos, type VesselPosition } from '../../store/vessel-positions.ts';

interface Watched extends AisWatch {
  shipment: ShipmentAtSea;
  /** The carrier's events, local times read (what the route is derived from). */
  events: CarrierEvent[];
  timezone: string | null;
}

interface Seen {
  at: Date;
  confirmedAt: Date;
  lon: number;
  lat: number;
}

export const distance: DistanceNm = (a, b) => haversineNm([a[0], a[1]], [b[0], b[1]]);
export const toFix = (p: Pick<VesselPosition, 'at' | 'longitude' | 'latitude' | 'speedKnots'>): AisFix => ({ at: p.at, lon: p.longitude, lat: p.latitude, speedKnots: p.speedKnots });
export const stateOf = (s: { state: Record<string, unknown> }) => s.state as unknown as ShipmentState;

/** Shipments read at once for their stored carrier events. */
const SHIPMENTS_AT_ONCE = 200;

/**
 * One pass over the shipments under way: the moves each may still show (aisWatches, from the
 * carrier's stored events), grouped by vessel so each vessel's track is read once, and each move
 * the track shows recorded. Returns the number of moves recorded.
 */
export async function recordAisMoves(db: Db, now: Date, lookbackMs: number): Promise<number> {
  const shipments = await shipmentsUnderWay(db);
  const watched: Watched[] = [];
  for (let first = 0; first < shipments.length; first += SHIPMENTS_AT_ONCE) {
    const part = shipments.slice(first, first + SHIPMENTS_AT_ONCE);
    const stored = await storedTrackingOfShipments(db, part.map((s) => s.id));
    for (const [i, { stored: s }] of stored.entries()) {
      const timezoneOf = (locode: string) => s.places.get(locode)?.time_zone ?? null;
      const events = withLocalTimes(s.carrierEvents, timezoneOf);
      for (const w of aisWatches(deriveRoute(events), new Map(s.milestones.map((m) => [m.key, new Date(m.timestamp)])))) watched.push({ ...w, shipment: part[i], events, timezone: timezoneOf(w.port) });
    }
  }
  if (watched.length === 0) return 0;
  const ports = await portPositions(db, [...new Set(watched.flatMap((w) => (w.from ? [w.port, w.from] : [w.port])))]);
  const byVessel = new Map<string, Watched[]>();
  for (const w of watched) if (ports.has(w.port)) byVessel.set(w.vesselImo, [...(byVessel.get(w.vesselImo) ?? []), w]);
  const imos = [...byVessel.keys()];
  const tracks = await vesselTracksOfImos(db, imos.map((imo) => ({ imo, from: new Date(now.getTime() - lookbackMs) })), now);
  let recorded = 0;
  for (const [i, imo] of imos.entries()) {
    const track = tracks[i].map(toFix);
    if (track.length === 0) continue;
    for (const w of byVessel.get(imo)!) {
      const seen = seenIn(w, track, ports.get(w.port)!, (w.from && ports.get(w.from)) || null, distance);
      if (!seen) continue;
      recorded += await record(db, { ...w, name: aisMilestoneName(w.events, w, w.port, seen.at) }, seen, now);
    }
  }
  return recorded;
}


function seenIn(w: Watched, track: AisFix[], port: [number, number], from: [number, number] | null, distance: DistanceNm): Seen | null {
  if (w.kind === 'departure') {
    const d = departureFromPortArea(track, port, distance, w.after);
    return d && { at: d.departedAt, confirmedAt: d.confirmedAt, lon: d.lon, lat: d.lat };
  }
  // With neither the carrier's departure nor one AIS recorded, the track must show the vessel leaving
  // the leg's first port after the load: a stop at the leg's end before that is another rotation's.
  const left = from && departureFromPortArea(track, from, distance, w.after);
  if (w.from && !left) return null;
  let after = left ? left.departedAt : w.after;
  // The first stop after the departure that is this leg's: a stop the window refuses is passed over whole.
  for (;;) {
    const a = arrivalInPortArea(track.filter((f) => f.at > after), port, distance);
    if (!a) return null;
    if (stopIsThisLeg(w, a.arrivedAt)) return { at: a.arrivedAt, confirmedAt: a.confirmedAt, lon: a.lon, lat: a.lat };
    const leaves = track.find((f) => f.at > a.confirmedAt && distance([f.lon, f.lat], port) > DEFAULT_STOP_RULE.radiusNm);
    if (!leaves) return null;
    after = leaves.at;
  }
}

/** Records one move for the boxes aboard, unless a worker is refreshing the shipment now (the next pass tries again). */
async function record(db: Db, w: Watched, seen: Seen, now: Date): Promise<number> {
  return withTransaction(db, async (tx) => {
    const [shipment] = await lockShipmentsUnderWay(tx, [w.shipment.id], now);
    if (!shipment) return 0;
    const owner = { account_id: shipment.account_id, shipment_id: shipment.id };
    const ids = new Map((await containersOfShipments(tx, [shipment.id])).map((c) => [c.number, c.id]));
    const event = `container.transport.${w.name}` as EventName;
    const inserted = await insertAisMilestones(
      tx,
      owner,
      w.containers.filter((c) => ids.has(c)).map((c) => ({
        container_id: ids.get(c)!,
        event,
        key: milestoneKey(c, w.name, w.port),
        timestamp: seen.at,
        timezone: w.timezone,
        location_locode: w.port,
        vessel_imo: w.vesselImo,
        vessel_name: w.vesselName,
        voyage_number: w.voyageNumber,
        published_at: seen.confirmedAt,
      })),
      now,
    );
    const state = shipment.state as unknown as ShipmentState;
    // The departure from the port of lading is the shipment's too (the carrier's DEPA replaces it,
    // shipment.ts); it also puts the shipment at sea for the arrival at the port of discharge.
    if (w.kind === 'departure' && w.port === state.port_of_lading_locode && state.pol_atd_at === null) {
      await saveShipmentState(tx, shipment.id, { state: { ...state, pol_atd_at: isoInstant(seen.at) }, billOfLadingNumber: null, bookingNumber: null, at: now });
    }
    await insertAisMove(tx, { ...owner, kind: w.kind, port_locode: w.port, vessel_imo: w.vesselImo, event, occurred_at: seen.at, detected_at: now, latitude: seen.lat, longitude: seen.lon });
    // The same announcement the carrier's event makes, once per box; the carrier's own event later corrects the record silently.
    await recordEvents(tx, inserted.map((r) => domainEvent(event, { ...owner, reference_id: r.id, container_id: r.container_id })), now);
    await makeDueNow(tx, shipment.id, now);
    return inserted.length > 0 ? 1 : 0;
  });
}
