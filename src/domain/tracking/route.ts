// The journey's shape, read from all of a snapshot's events (actual, estimated and planned): one
// leg per vessel, the port of lading (where the first leg loads), the port of discharge (where
// the last leg discharges), the transshipment ports between, which legs are feeders, and the
// inland destination where the rail or truck move after discharge ends. DCSA T&T 2.2 does not
// say which call is which, so this is derived; every tie is broken by value, never by input order.
import type { CarrierEvent } from '../../carriers/types.ts';
import { believedTime, byPreference, isOceanMove, leavesPort, vesselKeyer } from './facts.ts';

const DAY_MS = 86_400_000;
/**
 * A vessel leg is a feeder when it is no longer than this and at most half the mother vessel's
 * (the longest leg). Hub-to-hub relays (Shanghai to Singapore, five days or more) stay transshipments.
 */
const FEEDER_MAX_MS = 4 * DAY_MS;

export interface Leg {
  /** The vessel's identity (see vesselKeyer). */
  key: string;
  mode: 'VESSEL' | 'BARGE';
  /** Where the cargo boards: its earliest load, else the earliest departure. */
  from: string | null;
  /** Where the cargo leaves the vessel: its latest discharge, else the latest arrival. */
  to: string | null;
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

  const legs = withFeeders(
    [...byVessel]
      .map(([key, evs]) => buildLeg(key, evs))
      .filter((l) => l.from !== null || l.to !== null)
      .sort(journeyOrder),
  );
  const pol = legs[0]?.from ?? null;
  const pod = legs.at(-1)?.to ?? null;

  const at = (code: string, locode: string | null) => (locode === null ? null : believedTime(ocean.filter((e) => e.code === code && e.locode === locode)));
  const polLeftAt = at('DEPA', pol) ?? at('LOAD', pol);
  const podReachedAt = earliest(at('ARRI', pod), at('DISC', pod));

  const transshipments: string[] = [];
  for (const port of legs.flatMap((l) => [l.from, l.to])) {
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
  const loads = withCode('LOAD');
  const discharges = withCode('DISC');
  const from = endpoint(loads.length > 0 ? loads : withCode('DEPA'), 'first');
  const to = endpoint(discharges.length > 0 ? discharges : withCode('ARRI'), 'last');
  return {
    key,
    mode: events.some((e) => e.modeOfTransport === 'BARGE') ? 'BARGE' : 'VESSEL',
    from,
    to,
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

function journeyOrder(a: Leg, b: Leg): number {
  const ta = (a.leftAt ?? a.reachedAt)!.getTime();
  const tb = (b.leftAt ?? b.reachedAt)!.getTime();
  return ta - tb || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function duration(l: Leg): number | null {
  return l.leftAt && l.reachedAt ? l.reachedAt.getTime() - l.leftAt.getTime() : null;
}

/** Barge legs are feeders; so is a short vessel leg beside a much longer mother vessel. */
function withFeeders(legs: Leg[]): Leg[] {
  let mother: Leg | null = null;
  for (const l of legs) {
    const d = duration(l);
    if (l.mode === 'VESSEL' && d !== null && (mother === null || d > duration(mother)!)) mother = l;
  }
  const motherMs = mother ? duration(mother)! : null;
  return legs.map((l) => {
    const d = duration(l);
    const shortBeside = l !== mother && motherMs !== null && d !== null && d <= FEEDER_MAX_MS && d <= motherMs / 2;
    return { ...l, feeder: l.mode === 'BARGE' || shortBeside };
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
