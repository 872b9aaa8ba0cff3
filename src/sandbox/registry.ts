// Which journey a number belongs to. The first time a carrier is asked about a number, the
// journey is anchored: it started 2 to 10 days before that moment, so some milestones are already
// past at the first lookup. Anchors are kept in the state file, and every number a journey
// carries (B/L, booking, each container) leads back to it, whichever one is asked later.
import type { Clock } from '../clock.ts';
import type { NumberType } from '../carriers/types.ts';
import { normaliseNumber } from '../domain/carrier-numbers.ts';
import { DAY, MINUTE } from '../domain/time-units.ts';
import { REALISTIC_DIRT, type DirtRates } from './dirt.ts';
import type { Journey } from './journey.ts';
import { isWellFormed } from './numbers.ts';
import { planJourney } from './planner.ts';
import { ShipCalendar } from './ship-calendar.ts';
import { Prng } from './prng.ts';
import { emptyState, readState, writeState, type Anchor, type SandboxState } from './state-file.ts';
import { findTestNumber, type TestNumber } from './test-numbers.ts';
import type { SandboxWorld } from './world.ts';

export type Resolution =
  | { kind: 'malformed'; number: string }
  /** A test number whose whole answer is a failure (404, [], 400, 403). */
  | { kind: 'behaviour'; test: TestNumber }
  /** `container`: the number asked was one of the journey's boxes, so only that box's events apply. */
  | { kind: 'journey'; journey: Journey; container: string | null; test: TestNumber | undefined };

const JOURNEY_BEHAVIOURS = new Set(['journey', 'manifest_after', 'booking_cancelled', 'unreachable_first', 'unparsable_first']);

export class JourneyRegistry {
  readonly #world: SandboxWorld;
  readonly #clock: Clock;
  readonly #statePath: string | undefined;
  readonly #state: SandboxState;
  readonly #journeys = new Map<string, Journey>();
  /** `SCAC:number` of every number a journey carries → the anchor key of the journey. */
  readonly #numbers = new Map<string, string>();
  /** Container number → anchor keys (a box number can, rarely, turn up at two carriers). */
  readonly #boxes = new Map<string, string[]>();
  readonly #firstSeen = new Map<string, Date>();

  readonly #dirt: DirtRates;
  /** The ships booked by every journey planned so far (in anchoring order, so a restart books the same). */
  readonly #calendar: ShipCalendar;

  /** Without a state path (tests), anchors live in memory only. */
  constructor(world: SandboxWorld, clock: Clock, statePath?: string, dirt: DirtRates = REALISTIC_DIRT) {
    this.#world = world;
    this.#dirt = dirt;
    this.#calendar = new ShipCalendar(world);
    this.#clock = clock;
    this.#statePath = statePath;
    this.#state = statePath ? readState(statePath) : emptyState();
    for (const anchor of this.#state.anchors) this.#plan(anchor);
  }

  resolve(scac: string, numberType: NumberType, asked: string): Resolution {
    const number = normaliseNumber(asked);
    const test = findTestNumber(scac, number);
    if (test && !JOURNEY_BEHAVIOURS.has(test.behaviour.kind)) return { kind: 'behaviour', test };
    const carrier = this.#world.carrier(scac);
    if (!carrier) throw new Error(`sandbox: ${scac} is not served`);
    if (!test && !isWellFormed(carrier, numberType, number)) return { kind: 'malformed', number };

    let key = this.#numbers.get(`${scac}:${number}`);
    if (!key) {
      // A test number always plans as its documented type, whichever query parameter carried it.
      key = this.#anchor({ scac, numberType: test?.numberType ?? numberType, number, firstSeenAt: this.#clock.now().toISOString() });
    }
    const journey = this.#journeys.get(key)!;
    const isBox = numberType === 'container' && journey.containers.some((c) => c.number === number);
    return { kind: 'journey', journey, container: isBox ? number : null, test };
  }

  /** The journeys in which a container number travels (for terminal data); never anchors a new one. */
  journeysWithContainer(number: string): Journey[] {
    return (this.#boxes.get(normaliseNumber(number)) ?? []).map((key) => this.#journeys.get(key)!);
  }

  /** Every anchored journey of a carrier (push subscriptions without a number filter). */
  journeysOf(scac: string): Journey[] {
    return [...this.#journeys.values()].filter((j) => j.scac === scac);
  }

  /** When the journey's number was first asked about. */
  firstSeenAt(journey: Journey): Date {
    return this.#firstSeen.get(`${journey.scac}:${journey.number}`)!;
  }

  /** Counts one more event query for a number and returns the new count. */
  countRequest(scac: string, number: string): number {
    const key = `${scac}:${normaliseNumber(number)}`;
    const count = (this.#state.requests[key] ?? 0) + 1;
    this.#state.requests[key] = count;
    this.#save();
    return count;
  }

  #anchor(anchor: Anchor): string {
    this.#state.anchors.push(anchor);
    this.#save();
    return this.#plan(anchor);
  }

  #plan(anchor: Anchor): string {
    const key = `${anchor.scac}:${anchor.number}`;
    const test = findTestNumber(anchor.scac, anchor.number);
    const offsetDays = test?.shape?.offsetDays ?? new Prng('sandbox-anchor/1', anchor.scac, anchor.number).between(2, 10);
    const startAt = new Date(Math.floor((Date.parse(anchor.firstSeenAt) - offsetDays * DAY) / MINUTE) * MINUTE);
    const journey = planJourney(this.#world, anchor.scac, anchor.numberType, anchor.number, startAt, this.#dirt, this.#calendar);
    this.#journeys.set(key, journey);
    const numbers = [anchor.number, journey.billOfLading, journey.bookingNumber, ...journey.containers.map((c) => c.number)];
    for (const n of numbers) if (!this.#numbers.has(`${anchor.scac}:${n}`)) this.#numbers.set(`${anchor.scac}:${n}`, key);
    for (const c of journey.containers) this.#boxes.set(c.number, [...(this.#boxes.get(c.number) ?? []), key]);
    this.#firstSeen.set(key, new Date(anchor.firstSeenAt));
    return key;
  }

  #save(): void {
    if (this.#statePath) writeState(this.#statePath, this.#state);
  }
}
