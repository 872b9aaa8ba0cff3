// A container's route: its journey (src/domain/route/legs.ts) with the ports and vessels it names,
// and the route map drawn from it (spec "Route map (the service)"): ports, the track each vessel
// sailed (stored AIS positions), where the vessel is now, and sea routes for what is still ahead.
import { DAY } from '../domain/time-units.ts';
import { NotFound } from '../domain/errors.ts';
import { journeyOf, legPhase, type Journey, type Leg, type LegPhase } from '../domain/route/legs.ts';
import type { ShipmentState } from '../domain/tracking/types.ts';
import { LRUCache } from 'lru-cache';
import { seaRoute } from '../geo/searoute.ts';
import type { LonLat } from '../geo/distance.ts';
import { stableId } from '../refdata/ids.ts';
import type { LocationRow, VesselRow } from '../refdata/types.ts';
import type { Queryable } from '../store/db.ts';
import { storedCarrierEvents } from '../store/events.ts';
import { locationsByLocodes, vesselsByImos } from '../store/reference.ts';
import { findContainers, findShipments, type ContainerRow, type ShipmentRow } from '../store/shipments.ts';
import { transportEventsOfContainers } from '../store/transport-events.ts';
import { latestPositionOfImo, type VesselPosition } from '../store/vessel-positions.ts';
import {
  currentVesselFeature,
  displayLine,
  estimatedFullLegFeature,
  estimatedPartialLegFeature,
  isValidPosition,
  lonLatOf,
  pastVesselLocationsFeature,
  portFeature,
  type Feature,
  type FeatureCollection,
  type LegPorts,
  type Position,
} from './route-map-features.ts';
import { drawnTrack, type DrawnTrack } from './route-map-tracks.ts';

/**
 * The oldest AIS position still shown as where the vessel is now. Terrestrial AIS loses ships in
 * mid-ocean for a day or more; past three days a vessel at 20 knots may be 1,400 nm on, and a
 * marker there would mislead more than no marker.
 */
export const CURRENT_POSITION_MAX_AGE_MS = 3 * DAY;

export interface ContainerRoute {
  container: ContainerRow;
  shipment: ShipmentRow;
  journey: Journey;
  /** Reference rows of the journey's ports, by UN/LOCODE (a port svc does not know is absent). */
  ports: Map<string, LocationRow>;
  /** The vessel of every leg that names an IMO number, by IMO (see vesselRowOf). */
  vessels: Map<string, VesselRow>;
}

/**
 * The reference vessel with this IMO number, else one made up with the id reference data would
 * give it (the same name-based UUID), so a vessel keeps its id once it is added there.
 */
function vesselRowOf(known: Map<string, VesselRow>, imo: string, name: string | null): VesselRow {
  return known.get(imo) ?? { id: stableId('vessel', imo), imo, name: name ?? imo, mmsi: null, operator: null };
}

type JourneyOfContainer = Pick<ContainerRoute, 'container' | 'shipment' | 'journey'>;

/** The account's container with its journey; NotFound for an unknown id or another account's container. */
async function loadJourney(db: Queryable, accountId: string, containerId: string): Promise<JourneyOfContainer> {
  const [container] = await findContainers(db, accountId, [containerId]);
  if (!container) throw new NotFound();
  // The container names its shipment, so the shipment and both kinds of events are read together.
  const [[shipment], events, carrierEvents] = await Promise.all([
    findShipments(db, accountId, [container.shipment_id]),
    transportEventsOfContainers(db, [container.id]),
    storedCarrierEvents(db, container.shipment_id),
  ]);
  if (!shipment) throw new NotFound();
  const milestones = events.map((e) => ({
    event: e.event,
    timestamp: e.timestamp,
    locode: e.location_locode,
    vesselImo: e.vessel_imo,
    vesselName: e.vessel_name,
    voyageNumber: e.voyage_number,
  }));
  return { container, shipment, journey: journeyOf(shipment.state as Partial<ShipmentState>, milestones, carrierEvents) };
}

/** The journey with the reference rows of its ports and vessels. */
async function withPlaces(db: Queryable, loaded: JourneyOfContainer): Promise<ContainerRoute> {
  const { calls, legs } = loaded.journey;
  const legVessels = legs.flatMap((l) => (l.vessel?.imo ? [l.vessel] : []));
  const [ports, knownVessels] = await Promise.all([locationsByLocodes(db, calls.map((c) => c.locode)), vesselsByImos(db, legVessels.map((v) => v.imo!))]);
  const vessels = new Map(legVessels.map((v) => [v.imo!, vesselRowOf(knownVessels, v.imo!, v.name)]));
  return { ...loaded, ports, vessels };
}

/** The account's container with its journey, ports and vessels; NotFound for an unknown id or another account's container. */
export async function loadContainerRoute(db: Queryable, accountId: string, containerId: string): Promise<ContainerRoute> {
  return withPlaces(db, await loadJourney(db, accountId, containerId));
}

/**
 * Sea routes already drawn, by their two ends, least recently used first. The A* search takes
 * 10 to 30 ms, most of a route map's time (npm run bench:map); its answer for two fixed points
 * never changes, and a vessel's latest position stays the same between AIS reports, so every
 * client polling a container between reports asks for the same lines.
 */
const seaLines = new LRUCache<string, Position[]>({ max: 2000 });

function seaLine(from: LonLat, to: LonLat): Position[] {
  const key = `${from[0]},${from[1]}|${to[0]},${to[1]}`;
  let line = seaLines.get(key);
  if (!line) {
    // A port MARNET cannot reach (an inland river port) still gets a line: the straight one.
    line = displayLine(seaRoute(from, to)?.coordinates ?? [from, to]);
    seaLines.set(key, line);
  }
  // A copy: the caller may pin the first point to the vessel.
  return line.map((p): Position => [p[0], p[1]]);
}

/** What the vessel of a leg sailed, and while at sea where it is now. */
interface Sailed {
  phase: LegPhase;
  departedAt: Date;
  track: DrawnTrack | null;
  latest: VesselPosition | null;
}

/** Null for a leg not started or one whose vessel or departure is unknown: nothing to read. */
async function sailedOn(db: Queryable, now: Date, journey: Journey, leg: Leg): Promise<Sailed | null> {
  const phase = legPhase(journey, leg);
  const departedAt = leg.from.outboundAtd;
  const imo = leg.vessel?.imo;
  if (phase === 'not_started' || !departedAt || !imo) return null;
  // A leg known to be done without its own arrival time (a later port reached) is drawn up to now.
  const [track, latest] = await Promise.all([
    drawnTrack(db, now, imo, departedAt, phase === 'arrived' ? leg.to.inboundAta : null),
    phase === 'at_sea' ? latestPositionOfImo(db, imo, now) : null,
  ]);
  return { phase, departedAt, track, latest };
}

interface LegContext {
  now: Date;
  route: ContainerRoute;
  leg: Leg;
  sailed: Sailed | null;
  ports: LegPorts;
  from: Position;
  to: Position;
}

/** The lines (and vessel marker) of one leg, in the order a map draws them: what was sailed, then what is ahead. */
function legFeatures({ now, route, leg, sailed, ports, from, to }: LegContext): Feature[] {
  if (legPhase(route.journey, leg) === 'not_started') return [estimatedFullLegFeature(leg, ports, seaLine(from, to))];
  const vessel = leg.vessel?.imo ? route.vessels.get(leg.vessel.imo) : undefined;
  if (!sailed || !vessel) return [];
  const { phase, departedAt, track, latest } = sailed;
  const features: Feature[] = [];
  if (track && track.line.length >= 2) {
    const endTime = phase === 'arrived' ? (leg.to.inboundAta ?? now) : track.last;
    features.push(pastVesselLocationsFeature(leg, vessel.id, track.line, departedAt, endTime));
  }

  // The vessel marker: only at sea, from a position sent since departure and fresh enough.
  if (!track || !latest || latest.at < departedAt || !isValidPosition(latest) || now.getTime() - latest.at.getTime() > CURRENT_POSITION_MAX_AGE_MS) return features;
  const here = lonLat(latest);
  const ahead = seaLine(here, to);
  // The partial leg starts exactly at the marker (spec rule 3), whatever node the sea route snapped to.
  ahead[0] = here;
  features.push(
    currentVesselFeature(leg, ports, { id: vessel.id, imo: vessel.imo, name: leg.vessel?.name ?? vessel.name }, latest),
    estimatedPartialLegFeature(leg, ports, ahead),
  );
  return features;
}

const lonLat = (p: VesselPosition): Position => [p.longitude, p.latitude];

/**
 * The route map of the account's container at `now`: an empty FeatureCollection when the shipment
 * does not name its ports yet (spec rule 6). Throws NotFound as loadContainerRoute does.
 */
export async function containerRouteMap(db: Queryable, now: Date, accountId: string, containerId: string): Promise<FeatureCollection> {
  const loaded = await loadJourney(db, accountId, containerId);
  const { calls, legs } = loaded.journey;
  // The tracks need only the journey: they are read while the ports and vessels are.
  const [route, sailed] = await Promise.all([withPlaces(db, loaded), Promise.all(legs.map((leg) => sailedOn(db, now, loaded.journey, leg)))]);
  const features = calls.flatMap((call): Feature[] => {
    const port = route.ports.get(call.locode);
    const at = port ? lonLatOf(port) : null;
    const features = port && at ? [portFeature(call, calls.length, port, at, route.shipment.updated_at)] : [];
    const index = legs.findIndex((l) => l.sequence === call.sequence);
    const leg = legs[index];
    const next = leg && route.ports.get(leg.to.locode);
    const to = next ? lonLatOf(next) : null;
    if (!leg || !port || !at || !next || !to) return features;
    return [...features, ...legFeatures({ now, route, leg, sailed: sailed[index], ports: { from: port, to: next }, from: at, to })];
  });
  return { type: 'FeatureCollection', features };
}
