// The DCSA → container.transport.* mapping (shared/reference/anchors.md §2.7), row by row, for
// one container's actual events. Estimated and planned events never make a milestone (rows 25–27
// are estimates: shipment.ts and container.ts store them, diff.ts announces row 27's). Rows without a milestone here:
// 3 (PICK/STUF, raw only), 13 (vessel_berthed: no T&T code), 16–17 (customs holds: terminal.ts),
// 23 (DROP laden: † delivered, a user's mark), 28 (seals: container.ts), 29 (shipment documents)
// and 30 (retractions, which CarrierEvent cannot express yet).
import type { CarrierEvent } from './carrier-events.ts';
import { believedTime, byPreference, isOceanMode, isOceanMove, leavesPort, preferred } from './facts.ts';
import type { Route } from './route.ts';
import type { MilestoneName } from './types.ts';

export interface Milestone {
  container: string;
  name: MilestoneName;
  key: string;
  /** The carrier event it stands on (see representative): a correction replaces an earlier record. */
  event: CarrierEvent;
}

const OCEAN_PREFIX = /^(vessel|transshipment|feeder)_/;

/**
 * A milestone's identity: the container, what happened and where. The vessel, transshipment and
 * feeder variants of a move share one name here, so a leg re-read later (a feeder recognised
 * once its arrival or the mother vessel's leg is known) keeps its identity: the record stored
 * under the key is renamed (diff.ts, correctionOf), never doubled. The carrier's event id
 * is left out on purpose: carriers re-send a milestone under a new id, and a corrected time
 * must update the milestone, not add one.
 */
export function milestoneKey(container: string, name: MilestoneName, locode: string | null): string {
  return `${container}|${name.replace(OCEAN_PREFIX, 'ocean_')}|${locode ?? ''}`;
}

// The order of milestones that share a timestamp (carriers that give dates only): the order
// things happen in at one place.
const STAGES = [
  'empty_out',
  'full_in',
  'arrived',
  'discharged',
  'loaded',
  'departed',
  'available',
  'rail_loaded',
  'rail_departed',
  'rail_arrived',
  'rail_unloaded',
  'arrived_at_inland_destination',
  'full_out',
  'empty_in',
];

function stageOf(name: MilestoneName): number {
  return STAGES.indexOf(name.replace(OCEAN_PREFIX, ''));
}

/** Chronological, ties by stage, then key: the same order whatever order the carrier used. */
function chronological(a: Milestone, b: Milestone): number {
  return a.event.occurredAt.getTime() - b.event.occurredAt.getTime() || stageOf(a.name) - stageOf(b.name) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** These happen once in a journey: of several candidates, the earliest is the milestone. */
const ONCE: ReadonlySet<MilestoneName> = new Set(['empty_out', 'full_in', 'empty_in', 'arrived_at_inland_destination']);

interface Candidate {
  name: MilestoneName;
  event: CarrierEvent;
  /** Row 2: an empty DROP at the shipper stands in for empty_out only when no GTOT says so. */
  fallback?: true;
}

/**
 * The container's side of the ocean: before its load at the port of lading is origin, from its
 * discharge at the port of discharge on is destination (boundaries included: carriers giving
 * dates only put a gate move and the vessel move at the same midnight). Without any vessel
 * event the journey has not reached the sea, so everything is origin.
 */
function sides(events: CarrierEvent[], route: Route) {
  const own = (code: string, locode: string | null) => events.filter((e) => e.type === 'EQUIPMENT' && e.code === code && e.locode === locode && isOceanMove(e));
  const loadedAt = believedTime(own('LOAD', route.pol)) ?? route.polLeftAt;
  const dischargedAt = believedTime(own('DISC', route.pod)) ?? route.podReachedAt;
  return {
    origin: (t: Date) => (loadedAt ? t <= loadedAt : dischargedAt === null),
    destination: (t: Date) => dischargedAt !== null && t >= dischargedAt,
  };
}

const VERB: Record<string, string> = { LOAD: 'loaded', DEPA: 'departed', ARRI: 'arrived', DISC: 'discharged' };

/** Rows 5–12 and 14: a vessel move is named by the port and the leg it happens on. */
function oceanMilestone(e: CarrierEvent, route: Route): MilestoneName | null {
  const leg = route.legOf(e);
  // A load at a transshipment port onto a vessel no other event names yet (row 9): the next leg
  // is not known, but the port is, as the cargo was discharged there from the one before.
  if (!leg) return e.code === 'LOAD' && e.locode !== null && route.transshipments.includes(e.locode) ? 'transshipment_loaded' : null;
  // Only the leg's own ends count: a call the cargo stays aboard through is not a transshipment.
  if (e.locode === null || e.locode !== (leavesPort(e) ? leg.from : leg.to)) return null;
  const verb = VERB[e.code];
  if (!leavesPort(e) && e.locode === route.pod) return `vessel_${verb}` as MilestoneName; // rows 12, 14
  if (leg.feeder) return `feeder_${verb}` as MilestoneName; // row 11
  return (leavesPort(e) && e.locode === route.pol ? `vessel_${verb}` : `transshipment_${verb}`) as MilestoneName; // rows 5–10
}

/**
 * What DCSA 3.0's movementType says a container move is, where the route cannot: a laden load or
 * discharge of a TRANSSHIPMENT move is the transshipment's (row 8, 9), even without the vessel
 * calls that would place it on a leg; an empty gate-in of an IMPORT move is the box's return
 * (row 24), at a depot anywhere.
 */
function byMovementType(e: CarrierEvent): MilestoneName | null {
  if (e.type !== 'EQUIPMENT' || e.locode === null) return null;
  if (e.movementType === 'TRANSSHIPMENT' && (e.code === 'LOAD' || e.code === 'DISC') && e.emptyIndicator !== 'EMPTY' && (e.modeOfTransport === null || isOceanMode(e.modeOfTransport))) {
    return `transshipment_${VERB[e.code]}` as MilestoneName;
  }
  return e.movementType === 'IMPORT' && e.code === 'GTIN' && e.emptyIndicator === 'EMPTY' ? 'empty_in' : null;
}

function candidates(e: CarrierEvent, route: Route, side: ReturnType<typeof sides>): Candidate[] {
  if (isOceanMove(e)) {
    const name = oceanMilestone(e, route) ?? byMovementType(e);
    return name ? [{ name, event: e }] : [];
  }
  const moved = byMovementType(e);
  if (moved) return [{ name: moved, event: e }];
  const origin = side.origin(e.occurredAt);
  const destination = side.destination(e.occurredAt);
  const atDestination = route.destination !== null && e.locode === route.destination;
  const laden = e.emptyIndicator === 'LADEN';
  const empty = e.emptyIndicator === 'EMPTY';
  const one = (name: MilestoneName): Candidate[] => [{ name, event: e }];

  if (e.type === 'TRANSPORT') {
    if (!destination || isOceanMode(e.modeOfTransport)) return [];
    const arrival: Candidate[] = e.code === 'ARRI' && atDestination ? one('arrived_at_inland_destination') : []; // row 21
    if (e.modeOfTransport === 'RAIL') return [...one(e.code === 'ARRI' ? 'rail_arrived' : 'rail_departed'), ...arrival]; // row 19
    return arrival;
  }
  if (e.type !== 'EQUIPMENT') return [];
  switch (e.code) {
    case 'GTOT':
      if (empty && origin) return one('empty_out'); // row 1
      if (laden && destination) return one('full_out'); // row 22
      return [];
    case 'DROP':
      return empty && origin ? [{ name: 'empty_out', event: e, fallback: true }] : []; // row 2
    case 'GTIN':
      if (laden && origin) return one('full_in'); // row 4
      if (laden && destination && atDestination) return one('arrived_at_inland_destination'); // row 21
      if (empty && destination) return one('empty_in'); // row 24
      return [];
    case 'LOAD':
      return e.modeOfTransport === 'RAIL' && destination && !empty ? one('rail_loaded') : []; // row 18
    case 'DISC':
      return e.modeOfTransport === 'RAIL' && destination && !empty ? one('rail_unloaded') : []; // row 20
    case 'AVPU':
      return destination && !empty ? one('available') : []; // row 15
    default:
      return [];
  }
}

/**
 * The event a milestone stands on. Records of one kind (type and code) are versions of one
 * observation, and the most believable counts; different kinds (a train's arrival and the gate-in
 * after it) observe the same milestone separately, and the earliest counts.
 */
function representative(events: CarrierEvent[]): CarrierEvent {
  const kinds = new Map<string, CarrierEvent[]>();
  for (const e of events) kinds.set(`${e.type}:${e.code}`, [...(kinds.get(`${e.type}:${e.code}`) ?? []), e]);
  return [...kinds.values()].map((k) => preferred(k)!).sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || byPreference(a, b))[0];
}

/** The container's milestones, in journey order, from the events that concern it (scope.ts). */
export function milestonesOf(container: string, events: CarrierEvent[], route: Route): Milestone[] {
  const side = sides(events, route);
  const all = events.filter((e) => e.classifier === 'ACT').flatMap((e) => candidates(e, route, side));
  const usable = all.some((c) => c.name === 'empty_out' && !c.fallback) ? all.filter((c) => !c.fallback) : all;

  const byKey = new Map<string, Candidate[]>();
  for (const c of usable) {
    const key = milestoneKey(container, c.name, c.event.locode);
    byKey.set(key, [...(byKey.get(key) ?? []), c]);
  }
  const milestones = [...byKey]
    .map(([key, group]): Milestone => {
      const event = representative(group.map((c) => c.event));
      return { container, key, name: group.find((c) => c.event === event)!.name, event };
    })
    .sort(chronological);
  const seen = new Set<MilestoneName>();
  return milestones.filter((m) => {
    if (!ONCE.has(m.name)) return true;
    if (seen.has(m.name)) return false;
    seen.add(m.name);
    return true;
  });
}
