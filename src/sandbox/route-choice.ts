// Where a journey goes and with what: ports from a trade lane, transshipment hubs that do not
// make the trip much longer, a barge for some very short first hops, North American rail inland,
// real terminals and real vessels of the carrier. Which legs are feeders is not chosen here: the
// planner applies the feeder rule (feeder-rule.ts) to the legs' times.
import type { VesselRow } from '../refdata/types.ts';
import type { Facility, Leg, Vessel } from './journey.ts';
import { INLAND_ORIGINS, LANES, MAX_BARGE_NM, MAX_FEEDER_NM, MAX_HUB_DETOUR, RAIL_DESTINATIONS } from './lanes.ts';
import type { Prng } from './prng.ts';
import type { ShipCalendar } from './ship-calendar.ts';
import type { RouteSpec } from './test-numbers.ts';
import type { Place, SandboxCarrier, SandboxWorld } from './world.ts';

export interface RouteChoice {
  origin: string | null;
  /** Port of loading, transshipment ports, port of discharge. */
  ports: string[];
  /** The first leg goes by barge (a hop under MAX_BARGE_NM to a hub); it is then a feeder. */
  barge: boolean;
  rail: string | null;
  /** Prefix of the carrier service codes ("TP" for transpacific…). */
  servicePrefix: string;
}

const SERVICE_PREFIX: Readonly<Record<string, string>> = {
  transpacific: 'TP',
  'asia-us-east-coast': 'AU',
  'asia-north-europe': 'AE',
  'asia-mediterranean': 'AM',
  transatlantic: 'TA',
};

export function chooseRoute(world: SandboxWorld, spec: RouteSpec | undefined, rng: Prng): RouteChoice {
  if (spec) {
    const lane = LANES.find((l) => l.pols.includes(spec.pol) && l.pods.includes(spec.pod));
    return {
      origin: spec.origin ?? null,
      ports: [spec.pol, ...spec.transshipments, spec.pod],
      barge: spec.feeder === 'BARGE',
      rail: spec.rail ?? null,
      servicePrefix: SERVICE_PREFIX[lane?.name ?? ''] ?? 'SX',
    };
  }

  const lane = rng.pick(LANES);
  const pol = rng.pick(lane.pols);
  const pod = rng.pick(lane.pods.filter((p) => p !== pol));
  const d = (a: string, b: string) => world.seaDistanceNm(a, b);
  const limit = MAX_HUB_DETOUR * d(pol, pod);
  const hubs = lane.hubs.filter((h) => h !== pol && h !== pod && d(pol, h) + d(h, pod) <= limit);

  let ports = [pol, pod];
  let barge = false;
  const roll = rng.next();
  if (roll < 0.15) {
    // Two transshipments always start with a short hop to a nearby hub (by the feeder rule a
    // feeder beside the long legs after it), then a leg between hubs and one to the port of discharge.
    const near = hubs.filter((h) => d(pol, h) <= MAX_FEEDER_NM);
    const first = near.length > 0 ? rng.pick(near) : undefined;
    const seconds = first
      ? lane.hubs.filter((h) => h !== pol && h !== pod && h !== first && d(pol, first) + d(first, h) + d(h, pod) <= limit)
      : [];
    if (first && seconds.length > 0) {
      ports = [pol, first, rng.pick(seconds), pod];
      barge = d(pol, first) <= MAX_BARGE_NM;
    }
  }
  if (ports.length === 2 && roll < 0.55 && hubs.length > 0) {
    const hub = rng.pick(hubs);
    ports = [pol, hub, pod];
    // A hop to a nearby hub goes by barge half of the time when a barge can make it. (The coin is
    // tossed for every nearby hub, as before the feeder rule, so the rest of the route drawn for a
    // number stays the same.)
    const coin = d(pol, hub) <= MAX_FEEDER_NM && rng.chance(0.5);
    barge = coin && d(pol, hub) <= MAX_BARGE_NM;
  }

  const rails = RAIL_DESTINATIONS[pod];
  const origins = INLAND_ORIGINS[pol];
  return {
    origin: origins && rng.chance(0.3) ? rng.pick(origins) : null,
    ports,
    barge,
    rail: rails && rng.chance(0.35) ? rng.pick(rails) : null,
    servicePrefix: SERVICE_PREFIX[lane.name],
  };
}

/** A container terminal of the port, preferring ones with an SMDG code (that is what events carry). */
export function portTerminal(place: Place, rng: Prng): Facility {
  const coded = place.terminals.filter((t) => t.smdgCode);
  const pool = coded.length > 0 ? coded : place.terminals;
  const t = pool.length > 0 ? rng.pick(pool) : null;
  return {
    place,
    type: 'POTE',
    smdgCode: t?.smdgCode ?? null,
    firmsCode: t?.firmsCode ?? null,
    otherFacility: t && !t.smdgCode ? t.name : null,
  };
}

function namedFacility(place: Place, type: Facility['type'], what: string): Facility {
  return { place, type, smdgCode: null, firmsCode: null, otherFacility: `${place.name} ${what}` };
}

export const emptyDepot = (place: Place) => namedFacility(place, 'DEPO', 'empty depot');
export const railRamp = (place: Place) => namedFacility(place, 'RAMP', 'rail ramp');
export const inlandTerminal = (place: Place) => namedFacility(place, 'INTE', 'inland terminal');

const matchesOperator = (v: VesselRow, carrier: SandboxCarrier) =>
  carrier.operatorNames.some((name) => (v.operator ?? '').toLowerCase().startsWith(name.toLowerCase()));

/**
 * Distinct mainline ships for `count` legs: the carrier's own first (in a random order), then
 * other lines' ships as vessel-sharing partners would provide.
 */
export function chooseMainlineVessels(world: SandboxWorld, carrier: SandboxCarrier, count: number, rng: Prng): Vessel[] {
  const shuffle = (list: readonly VesselRow[]) =>
    list
      .map((v) => ({ v, key: rng.next() }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.v);
  const own = world.mainlineVessels.filter((v) => matchesOperator(v, carrier));
  const others = world.mainlineVessels.filter((v) => !matchesOperator(v, carrier));
  return [...shuffle(own), ...shuffle(others)].slice(0, count).map((v) => ({ imo: v.imo, name: v.name }));
}

/** A small ship for a feeder leg, other than the ones already taken (svc tells legs apart by vessel). */
export function chooseFeederVessel(world: SandboxWorld, rng: Prng, taken: readonly Vessel[] = []): Vessel {
  const free = world.feederVessels.filter((v) => !taken.some((t) => t.imo === v.imo));
  const v = rng.pick(free.length > 0 ? free : world.feederVessels);
  return { imo: v.imo, name: v.name };
}

/**
 * Gives each ship leg a ship the calendar has free, keeping the one chosen when it is, and books
 * them all. A leg whose ship is taken gets another of the same kind (the carrier's own first), else
 * any free ship: a sandbox ship is never on two legs at once.
 */
export function bookShips(world: SandboxWorld, carrier: SandboxCarrier, legs: readonly Leg[], calendar: ShipCalendar, rng: Prng): void {
  const inJourney = new Set(legs.flatMap((l) => (l.vessel ? [l.vessel.imo] : [])));
  const mainline = () => chooseMainlineVessels(world, carrier, world.mainlineVessels.length, rng);
  const feeders = () => world.feederVessels.map((v) => ({ imo: v.imo, name: v.name, key: rng.next() })).sort((a, b) => a.key - b.key);
  for (const leg of legs) {
    if (!leg.vessel) continue;
    if (!calendar.isFree(leg.vessel.imo, leg)) {
      const pools = leg.kind === 'feeder' ? [feeders(), mainline(), world.charterVessels] : [mainline(), feeders(), world.charterVessels];
      const free = pools.flat().find((v) => !inJourney.has(v.imo) && calendar.isFree(v.imo, leg));
      if (!free) throw new Error(`sandbox: every ship is busy when leg ${leg.index} of ${carrier.scac} sails`);
      leg.vessel = { imo: free.imo, name: free.name };
      inJourney.add(free.imo);
    }
    calendar.book(leg.vessel.imo, leg);
  }
}
