// The journey's shape, read from all of a snapshot's events (actual, estimated and planned): one
// leg per vessel, the port of lading (where the first leg loads), the port of discharge (where
// the last leg discharges), the transshipment ports between, which legs are feeders, and the
// inland destination where the rail or truck move after discharge ends. Carriers publish the
// planned calls of every leg with the booking, so the whole route is known from the first answer;
// where the box has been, the actual calls replace the plan. DCSA T&T 2.2 does not say which call
// is which, so this is derived; every tie is broken by value, never by input order.
import { DAY } from '../time-units.ts';
import type { CarrierEvent } from './carrier-events.ts';
import { believedTime, byPreference, isOceanMove, leavesPort, vesselKeyer } from './facts.ts';

/**
 * The longest a feeder leg takes: feeder services reach about 1,300 to 1,500 nm from their hub
 * (Ho Chi Minh City or Port Klang to Singapore, Yantian to Busan) at 14 to 17 knots. Longer first
 * or last legs (Xiamen to Singapore on a mainline ship, four days and more) stay transshipments.
 */
const FEEDER_MAX_MS = 4 * DAY;

export interface Leg {
  /** The vessel's identity (see vesselKeyer). */
  key: string;
  mode: 'VESSEL' | 'BARGE';
  /** Where the cargo boards: its earliest load, else the earliest departure. */
  from: string | null;
  /** Where the cargo leaves the vessel: its latest discharge, else the latest arrival. */
  to: string | null;
  /** `from` (or `to`) is only the carrier's plan: no actual load, discharge, departure or arrival is there yet. */
  fromPlanned: boolean;
  toPlanned: boolean;
  /** Believed departure from `from` (DEPA, else LOAD). */
  leftAt: Date | null;
  /** Believed arrival at `to` (ARRI, else DISC). */
  reachedAt: Date | null;
  feeder: boolean;
  events: CarrierEvent[];
}

export interface Route {
  /** In journey order. */
  legs: Leg[];
  pol: string | null;
  pod: string | null;
  transshipments: string[];
  /** Inland place of delivery; null when the journey ends at the port of discharge. */
  destination: string | null;
  /** Believed departure from the port of lading, and first arrival at the port of discharge. */
  polLeftAt: Date | null;
  podReachedAt: Date | null;
  /** The leg a vessel move belongs to: by vessel, else by the port it leaves or reaches. */
  legOf(e: CarrierEvent): Leg | null;
}

export function deriveRoute(events: readonly CarrierEvent[]): Route {
  const ocean = events.filter(isOceanMove);
  const keyOf = vesselKeyer(ocean);
  const byVessel = new Map<string, CarrierEvent[]>();
  for (const e of ocean) {
    const key = keyOf(e);
    if (key !== null) byVessel.set(key, [...(byVessel.get(key) ?? []), e]);
  }
  // With no vessel named anywhere, the ocean part can only be read as a single voyage.
  if (byVessel.size === 0 && ocean.length > 0) byVessel.set('unidentified', ocean);

  const ordered = followsActuals(
    [...byVessel]
      .map(([key, evs]) => buildLeg(key, evs))
      .filter((l) => l.from !== null || l.to !== null)
      .sort(journeyOrder),
  );
  const pol = ordered[0]?.from ?? null;
  const at = (code: string, locode: string | null) => (locode === null ? null : believedTime(ocean.filter((e) => e.code === code && e.locode === locode)));
  // The last known leg's end is the port of discharge, unless the cargo was loaded again there
  // after its discharge: a transshipment load sent before the next vessel shows up in any other
  // event (the carrier knows the box is aboard before the ship's own calls are published). Then
  // the port of discharge is not known yet.
  const lastTo = ordered.at(-1)?.to ?? null;
  const lastReachedAt = earliest(at('ARRI', lastTo), at('DISC', lastTo));
  const reloaded = lastReachedAt !== null && ocean.some((e) => e.code === 'LOAD' && e.classifier === 'ACT' && e.locode === lastTo && e.occurredAt > lastReachedAt);
  const pod = reloaded ? null : lastTo;

  const polLeftAt = at('DEPA', pol) ?? at('LOAD', pol);
  const podReachedAt = earliest(at('ARRI', pod), at('DISC', pod));
  const legs = withFeeders(ordered, polLeftAt, podReachedAt);

  const transshipments: string[] = [];
  for (const port of [...legs.flatMap((l) => [l.from, l.to]), ...(reloaded ? [lastTo] : [])]) {
    if (port !== null && port !== pol && port !== pod && !transshipments.includes(port)) transshipments.push(port);
  }

  return {
    legs,
    pol,
    pod,
    transshipments,
    destination: inlandDestination(events, pod, podReachedAt),
    polLeftAt,
    podReachedAt,
    legOf(e) {
      const key = keyOf(e);
      const own = legs.find((l) => l.key === key);
      if (own) return own;
      if (e.locode === null) return null;
      return legs.find((l) => (leavesPort(e) ? l.from : l.to) === e.locode) ?? null;
    },
  };
}

function buildLeg(key: string, events: CarrierEvent[]): Leg {
  const withCode = (code: string) => events.filter((e) => e.code === code);
  const at = (code: string, locode: string | null) => (locode === null ? null : believedTime(withCode(code).filter((e) => e.locode === locode)));
  const actual = (code: string) => withCode(code).filter((e) => e.classifier === 'ACT');
  const [loads, departures, discharges, arrivals] = [actual('LOAD'), actual('DEPA'), actual('DISC'), actual('ARRI')];
  const from = endpoint(loads.length > 0 ? loads : departures, 'first') ?? plannedPort(withCode('DEPA'));
  const to = endpoint(discharges.length > 0 ? discharges : arrivals, 'last') ?? plannedPort(withCode('ARRI'));
  return {
    key,
    mode: events.some((e) => e.modeOfTransport === 'BARGE') ? 'BARGE' : 'VESSEL',
    from,
    to,
    fromPlanned: loads.length + departures.length === 0,
    toPlanned: discharges.length + arrivals.length === 0,
    leftAt: at('DEPA', from) ?? at('LOAD', from),
    reachedAt: at('ARRI', to) ?? at('DISC', to),
    feeder: false,
    events,
  };
}

/** The port of the earliest (or latest) of these calls, each port timed by its most believable event. */
function endpoint(events: CarrierEvent[], which: 'first' | 'last'): string | null {
  const ports = [...new Set(events.map((e) => e.locode).filter((l): l is string => l !== null))].sort();
  let best: { port: string; t: number } | null = null;
  for (const port of ports) {
    const t = believedTime(events.filter((e) => e.locode === port))!.getTime();
    if (best === null || (which === 'first' ? t < best.t : t > best.t)) best = { port, t };
  }
  return best?.port ?? null;
}

/**
 * The port of the carrier's newest planned or estimated call (the latest published, then the most
 * believable): when a plan changes, the call at the new port is published after the old one.
 */
function plannedPort(calls: CarrierEvent[]): string | null {
  const placed = calls.filter((e) => e.locode !== null);
  placed.sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || byPreference(a, b));
  return placed[0]?.locode ?? null;
}

/**
 * A box leaves a port from where it last arrived: when the box reached another port than the
 * plan said (a changed transshipment port), the next leg's planned departure port becomes the one
 * it reached, and a leg whose planned arrival port differs from where the next leg actually
 * loaded it ends there. The plan's port is replaced, never kept beside the actual one.
 */
function followsActuals(legs: Leg[]): Leg[] {
  const out = [...legs];
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1];
    const next = out[i];
    if (prev.to === null || next.from === null || prev.to === next.from) continue;
    if (next.fromPlanned && !prev.toPlanned) out[i] = { ...next, from: prev.to };
    else if (prev.toPlanned && !next.fromPlanned) out[i - 1] = { ...prev, to: next.from };
  }
  return out;
}

function journeyOrder(a: Leg, b: Leg): number {
  const ta = (a.leftAt ?? a.reachedAt)!.getTime();
  const tb = (b.leftAt ?? b.reachedAt)!.getTime();
  return ta - tb || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function duration(l: Leg): number | null {
  return l.leftAt && l.reachedAt ? l.reachedAt.getTime() - l.leftAt.getTime() : null;
}

/**
 * Row 11: which legs are feeders. DCSA T&T 2.2 has no feeder flag, so this reads what a carrier's
 * events do carry: the mode of each call (`transportCall.modeOfTransport`), the vessel (which
 * groups the calls into legs), the order of the legs and their times (actual, else estimated or
 * planned). A BARGE leg is a feeder. A VESSEL leg is a feeder when it is at either end of the sea
 * journey (the port of lading to the hub where the mother vessel takes the box, or the hub to the
 * port of discharge), short (FEEDER_MAX_MS) and at most half as long as the mother vessel's leg,
 * the longest of the others. A leg between two others runs hub to hub: a relay between mainline
 * services, never a feeder.
 *
 * The mother's leg is often not known when the feeder's arrival is (the box waits days at the hub
 * and then spends weeks at sea), so while the legs on the mother's side are not all complete, the
 * time left to the believed arrival at the port of discharge (or, for a feeder after the mother,
 * the time since the departure from the port of lading) stands in for it. The feeder's arrival
 * and discharge are then named right when first seen; its load and departure, seen before anyone
 * knows where the vessel goes or for how long, may have been recorded as the mainline's and are
 * corrected (diff.ts).
 */
function withFeeders(legs: Leg[], polLeftAt: Date | null, podReachedAt: Date | null): Leg[] {
  const complete = (l: Leg) => duration(l) !== null;
  return legs.map((l, i) => {
    if (l.mode === 'BARGE') return { ...l, feeder: true };
    const d = duration(l);
    const first = i === 0;
    const last = i === legs.length - 1;
    if (d === null || d > FEEDER_MAX_MS || legs.length < 2 || !(first || last)) return l;
    const others = legs.filter((o) => o !== l);
    let motherMs = Math.max(0, ...others.filter((o) => o.mode === 'VESSEL' && complete(o)).map((o) => duration(o)!));
    // The stand-in, from the side of the journey the mother vessel is on.
    const sideIncomplete = (side: Leg[]) => side.some((o) => !complete(o));
    if (first && sideIncomplete(legs.slice(1)) && podReachedAt && l.reachedAt) motherMs = Math.max(motherMs, podReachedAt.getTime() - l.reachedAt.getTime());
    if (last && sideIncomplete(legs.slice(0, -1)) && polLeftAt && l.leftAt) motherMs = Math.max(motherMs, l.leftAt.getTime() - polLeftAt.getTime());
    return { ...l, feeder: motherMs > 0 && d <= motherMs / 2 };
  });
}

/**
 * Where a move after discharge arrives: a rail or truck arrival, a rail unload, or a laden gate-in
 * at an inland terminal or ramp. Rail before discharge is pre-carriage to the port of lading.
 */
function isInlandArrival(e: CarrierEvent): boolean {
  if (e.type === 'TRANSPORT') return e.code === 'ARRI' && (e.modeOfTransport === 'RAIL' || e.modeOfTransport === 'TRUCK');
  if (e.type !== 'EQUIPMENT' || e.emptyIndicator === 'EMPTY') return false;
  if (e.code === 'DISC') return e.modeOfTransport === 'RAIL';
  return e.code === 'GTIN' && e.emptyIndicator === 'LADEN' && (e.facilityType === 'INTE' || e.facilityType === 'RAMP');
}

function inlandDestination(events: readonly CarrierEvent[], pod: string | null, podReachedAt: Date | null): string | null {
  if (pod === null) return null;
  const arrivals = events.filter((e) => e.locode !== null && isInlandArrival(e) && (podReachedAt === null || e.occurredAt >= podReachedAt));
  const last = arrivals.sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || byPreference(a, b))[0];
  return last && last.locode !== pod ? last.locode : null;
}

function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a <= b ? a : b;
}
