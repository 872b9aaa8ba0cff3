// Which sandbox ship is free to sail a leg. Journeys are planned one at a time, in the order they
// were anchored (the registry replays them in that order, so a run gives every journey the same
// ships again); each books its ships here, and a later journey takes only a ship that neither
// sails another leg at that time nor could fail to reach the leg's port in time: after a leg a
// ship spends a port stay, then sails empty to wherever its next leg leaves from (ais-track.ts).
import { HOUR } from '../domain/time-units.ts';
import { haversineNm } from '../geo/distance.ts';
import type { Leg } from './journey.ts';
import type { SandboxWorld } from './world.ts';

/** Time alongside between two legs of one ship, at each end of a repositioning passage. */
export const PORT_STAY_MS = 12 * HOUR;
/** The speed a ship sails empty to the port of its next leg: an economical passage speed. */
export const REPOSITION_KNOTS = 16;

type Booked = Pick<Leg, 'from' | 'to' | 'departAt' | 'arriveAt'>;

/** How long a ship needs from arriving with one leg to departing with the next: a port stay, and a passage between ports when they differ. */
export function turnaroundMs(world: Pick<SandboxWorld, 'seaDistanceNm'>, arrived: Booked, next: Booked): number {
  const from = arrived.to.place.locode;
  const to = next.from.place.locode;
  return from === to ? PORT_STAY_MS : 2 * PORT_STAY_MS + (world.seaDistanceNm(from, to) / REPOSITION_KNOTS) * HOUR;
}

/** Longer than any sea route between two ports (half the Earth's circumference is 10,800 nm; detours add some). */
const LONGEST_PASSAGE_NM = 14_000;

/**
 * Whether a ship arriving with `arrived` can depart with `next`. The sea route is searched only
 * when the great circle and the longest passage cannot settle it.
 */
function canFollow(world: Pick<SandboxWorld, 'seaDistanceNm'>, arrived: Booked, next: Booked): boolean {
  const gap = next.departAt.getTime() - arrived.arriveAt.getTime();
  if (gap < PORT_STAY_MS) return false;
  if (arrived.to.place.locode === next.from.place.locode) return true;
  const a = arrived.to.place;
  const b = next.from.place;
  const passageMs = (nm: number) => 2 * PORT_STAY_MS + (nm / REPOSITION_KNOTS) * HOUR;
  const straightNm = haversineNm([a.lon, a.lat], [b.lon, b.lat]);
  if (gap < passageMs(straightNm)) return false;
  if (gap >= passageMs(LONGEST_PASSAGE_NM)) return true;
  return gap >= turnaroundMs(world, arrived, next);
}

export class ShipCalendar {
  readonly #world: Pick<SandboxWorld, 'seaDistanceNm'>;
  readonly #legs = new Map<string, Booked[]>();

  constructor(world: Pick<SandboxWorld, 'seaDistanceNm'>) {
    this.#world = world;
  }

  /** Whether the ship can sail `leg` besides everything booked for it. */
  isFree(imo: string, leg: Booked): boolean {
    return (this.#legs.get(imo) ?? []).every((b) => canFollow(this.#world, b, leg) || canFollow(this.#world, leg, b));
  }

  book(imo: string, leg: Booked): void {
    this.#legs.set(imo, [...(this.#legs.get(imo) ?? []), leg]);
  }
}
