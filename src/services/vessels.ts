// Vessels with what AIS says of them: the latest position, the track over a window, and the path a
// vessel is predicted to sail to a port (one point a minute). Positions are routing data: with the
// feature off an account sees a vessel's name and numbers but no position, and asking for a track
// or a prediction is refused (requireFeature).
import type { Clock } from '../clock.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import { pointsAlong } from '../geo/along-route.ts';
import { KM_PER_NM, type LonLat } from '../geo/distance.ts';
import { seaRoute } from '../geo/searoute.ts';
import type { VesselRow } from '../refdata/types.ts';
import type { Queryable } from '../store/db.ts';
import { findPort, findVessel } from '../store/reference.ts';
import { latestPositionOfImo, vesselTrackOfImo, type VesselPosition } from '../store/vessel-positions.ts';
import { hasFeature, requireFeature, type FeatureHolder } from './features.ts';
import { overGroundKnots, plausibleTrack } from '../ais/plausible-positions.ts';
import { isValidPosition } from './route-map-features.ts';

/**
 * The speed a prediction assumes when the vessel's own is unknown or not a passage speed (at
 * anchor, manoeuvring in port, or a garbled report): a container ship slow-steaming.
 */
export const DEFAULT_SPEED_KNOTS = 14;
/** Reported speeds outside this range are not a passage speed (see DEFAULT_SPEED_KNOTS). */
const PASSAGE_SPEED_KNOTS = { min: 3, max: 35 } as const;
/**
 * A prediction stops after this many points (30 days at one a minute, about 4 MB of JSON): longer
 * than any ocean leg at passage speed, and a bound on what one request may cost.
 */
export const MAX_FUTURE_POSITIONS = 30 * 24 * 60;
const MINUTE_MS = 60_000;

export interface PositionPoint {
  latitude: number;
  longitude: number;
  heading: number | null;
  timestamp: Date;
  estimated: boolean;
}

export interface VesselView {
  vessel: VesselRow;
  /** The newest position at or before now; null without AIS data or without the routing feature. */
  latest: VesselPosition | null;
  /** The track or the prediction, when asked for. */
  positions?: PositionPoint[];
}

export interface Prediction extends VesselView {
  positions: PositionPoint[];
  /** What the prediction assumed and found, for the response's meta. */
  speedKnots: number;
  distanceNm: number;
  arrivalAt: Date;
  /** True when MAX_FUTURE_POSITIONS cut the path before the port. */
  truncated: boolean;
}

interface Deps {
  db: Queryable;
  clock: Clock;
  account: FeatureHolder;
}

/** The heading a position reports: the true heading, else the course over ground. */
const headingOf = (p: VesselPosition): number | null => p.headingDegrees ?? (p.courseDegrees === null ? null : Math.round(p.courseDegrees) % 360);

async function vesselOrNotFound(db: Queryable, idOrImo: string): Promise<VesselRow> {
  const vessel = await findVessel(db, idOrImo);
  if (!vessel) throw new NotFound(`No vessel with id or IMO number ${idOrImo}.`);
  return vessel;
}

/**
 * A vessel by id or IMO number with its latest position, and its track from `track.from` to
 * `track.to` when asked (which needs the routing feature). Null when there is no such vessel.
 */
export async function showVessel({ db, clock, account }: Deps, idOrImo: string, track?: { from: Date; to: Date }): Promise<VesselView | null> {
  if (track) requireFeature(account, 'routing');
  const vessel = await findVessel(db, idOrImo);
  if (!vessel) return null;
  if (!hasFeature(account, 'routing')) return { vessel, latest: null };
  const [latest, positions] = await Promise.all([
    latestPositionOfImo(db, vessel.imo, clock.now()),
    track ? vesselTrackOfImo(db, vessel.imo, track.from, track.to) : undefined,
  ]);
  return {
    vessel,
    latest,
    positions: positions?.map((p) => ({ latitude: p.latitude, longitude: p.longitude, heading: headingOf(p), timestamp: p.at, estimated: false })),
  };
}

async function portPosition(db: Queryable, id: string, parameter: string): Promise<LonLat> {
  const port = await findPort(db, id);
  if (!port) throw new NotFound(`No port with id ${id} (${parameter}).`);
  if (port.latitude === null || port.longitude === null) throw new Invalid([parameter], `The port ${port.name} (${port.locode}) has no known position to route to.`, 'no_position');
  return [port.longitude, port.latitude];
}

export interface PredictionRequest {
  vessel: string;
  portId: string;
  previousPortId: string;
  /** Where to start instead of the vessel's latest position (the start is then at now). */
  start?: { latitude: number; longitude: number };
}

/**
 * The path the vessel is predicted to sail to `portId` over the sea-route network, one point a
 * minute at its recent speed (recentSpeedKnots),
 * ending on the port. It starts at the given point at now, else at the vessel's latest position
 * at the time of that report, else (no AIS data) at the previous port at now.
 */
export async function predictPositions({ db, clock, account }: Deps, request: PredictionRequest): Promise<Prediction> {
  requireFeature(account, 'routing');
  const now = clock.now();
  const vessel = await vesselOrNotFound(db, request.vessel);
  const [to, previous, latest] = await Promise.all([
    portPosition(db, request.portId, 'port_id'),
    portPosition(db, request.previousPortId, 'previous_port_id'),
    latestPositionOfImo(db, vessel.imo, now),
  ]);
  const [from, startAt]: [LonLat, Date] = request.start
    ? [[request.start.longitude, request.start.latitude], now]
    : latest
      ? [[latest.longitude, latest.latitude], latest.at]
      : [previous, now];
  const speedKnots = await recentSpeedKnots(db, vessel.imo, latest);

  // No passage is avoided, so the network always connects the two; a straight line is the fallback all the same.
  const route = seaRoute(from, to)?.coordinates ?? [from, to];
  const { points, complete, totalKm } = pointsAlong(route, (speedKnots * KM_PER_NM) / 60, MAX_FUTURE_POSITIONS);
  const positions = points.map((p, i) => ({
    latitude: round(p.lat),
    longitude: round(p.lon),
    heading: p.heading,
    timestamp: new Date(startAt.getTime() + i * MINUTE_MS),
    estimated: true,
  }));
  const minutes = complete ? points.length - 1 : Math.ceil(totalKm / ((speedKnots * KM_PER_NM) / 60));
  return {
    vessel,
    latest,
    positions,
    speedKnots,
    distanceNm: totalKm / KM_PER_NM,
    arrivalAt: new Date(startAt.getTime() + minutes * MINUTE_MS),
    truncated: !complete,
  };
}

/** How far back a prediction looks for the vessel's recent speed: long enough to smooth a turn or a slowdown, short enough to be this passage's. */
const RECENT_SPEED_WINDOW_MS = 6 * 3_600_000;

const isPassageSpeed = (knots: number | null): knots is number => knots !== null && knots >= PASSAGE_SPEED_KNOTS.min && knots <= PASSAGE_SPEED_KNOTS.max;

/**
 * The speed a prediction assumes: over ground across the last hours of reports (a single report's
 * speed may be a moment's), else the latest report's, else DEFAULT_SPEED_KNOTS.
 */
async function recentSpeedKnots(db: Queryable, imo: string, latest: VesselPosition | null): Promise<number> {
  if (!latest) return DEFAULT_SPEED_KNOTS;
  const track = await vesselTrackOfImo(db, imo, new Date(latest.at.getTime() - RECENT_SPEED_WINDOW_MS), latest.at);
  const overGround = overGroundKnots(plausibleTrack(track.filter(isValidPosition).map((p) => ({ lon: p.longitude, lat: p.latitude, atMs: p.at.getTime() }))), RECENT_SPEED_WINDOW_MS / 6);
  if (isPassageSpeed(overGround)) return overGround;
  return isPassageSpeed(latest.speedKnots) ? latest.speedKnots : DEFAULT_SPEED_KNOTS;
}

/** Six decimals: about 10 cm, finer than any AIS report, and a third fewer bytes per point. */
const round = (degrees: number) => Math.round(degrees * 1e6) / 1e6;
