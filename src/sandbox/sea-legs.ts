// The sea part of a journey: the vessel and barge legs from port of loading to port of discharge,
// their ships, speeds and times, and when each box is loaded and discharged.
import { DAY, HOUR } from '../domain/time-units.ts';
import { stableId } from '../refdata/ids.ts';
import { feederLegs } from './feeder-rule.ts';
import type { Facility, Journey, Leg, Vessel } from './journey.ts';
import { latest, toHour, toMinute, type DelayMode } from './plan-time.ts';
import type { Prng } from './prng.ts';
import { chooseFeederVessel, chooseMainlineVessels, type RouteChoice } from './route-choice.ts';
import type { Place, SandboxCarrier, SandboxWorld } from './world.ts';

/** Speeds schedules are planned at; actual speeds vary around them (vessels 14–20 knots). */
const PLANNED_KNOTS = { mainline: 17, feeder: 15, barge: 10 } as const;

/** What the sea legs are planned from: the route, a terminal per port, and when each box is ready at the port of loading. */
export interface SeaLegInput {
  world: SandboxWorld;
  carrier: SandboxCarrier;
  journey: Journey;
  choice: RouteChoice;
  terminals: Facility[];
  readyAtPol: Date[];
  delay: DelayMode;
}

export interface SeaLeg {
  leg: Leg;
  loads: Date[];
  discharges: Date[];
}

/** How each sea leg is sailed: by barge or ship, at a feeder's or a mainline ship's pace, and what it is. */
interface LegPlan {
  mode: 'VESSEL' | 'BARGE';
  pace: 'mainline' | 'feeder';
  kind: 'mainline' | 'feeder';
}

/**
 * Vessel and barge legs from port of loading to port of discharge, which of them are feeders, and
 * the ships that sail them. A leg's time at sea depends only on its mode and pace (the draws are the
 * same whatever the leg is called), so the legs are timed first with every ship at a mainline
 * ship's pace, the feeder rule names the feeders, the feeders are timed again at a feeder's pace
 * (kept at the mainline pace where the slower feeder would no longer be one), and the final labels
 * are the rule's on those times: a feeder leg gets a feeder ship or its barge, every other leg a
 * mainline ship. A barge the rule would not call a feeder (never on the lanes) becomes a ship.
 */
export function planSeaLegs(input: SeaLegInput, rng: () => Prng, vesselRng: () => Prng): SeaLeg[] {
  const { choice } = input;
  const legCount = choice.ports.length - 1;
  const plans: LegPlan[] = Array.from({ length: legCount }, (_, i) =>
    i === 0 && choice.barge && legCount > 1 ? { mode: 'BARGE', pace: 'feeder', kind: 'feeder' } : { mode: 'VESSEL', pace: 'mainline', kind: 'mainline' },
  );
  const time = () => timeSeaLegs(input, plans, rng(), vesselRng());
  const rule = (legs: SeaLeg[]) => feederLegs(legs.map((s) => s.leg));

  let feeders = rule(time());
  plans.forEach((p, i) => {
    if (p.mode === 'BARGE' && !feeders[i]) plans[i] = { mode: 'VESSEL', pace: 'mainline', kind: 'mainline' };
  });
  feeders = rule(time());
  const slowed = plans.map((p, i) => p.mode === 'VESSEL' && feeders[i]);
  slowed.forEach((slow, i) => slow && (plans[i].pace = 'feeder'));
  if (slowed.some(Boolean)) {
    const stillFeeders = rule(time());
    slowed.forEach((slow, i) => slow && !stillFeeders[i] && (plans[i].pace = 'mainline'));
  }
  feeders = rule(time());
  plans.forEach((p, i) => (p.kind = feeders[i] ? 'feeder' : 'mainline'));
  return time();
}

/** One timing of the sea legs for the given modes, paces and labels; the same inputs always give the same legs. */
function timeSeaLegs(input: SeaLegInput, plans: readonly LegPlan[], rng: Prng, vesselRng: Prng): SeaLeg[] {
  const { world, carrier, journey, choice, terminals, readyAtPol, delay } = input;
  const legCount = plans.length;
  // Shuffled whatever the count, so a leg's ship does not depend on how many legs are feeders before it.
  const mainVessels = chooseMainlineVessels(world, carrier, legCount, vesselRng);
  const feederVessels: Vessel[] = [];
  const slip = (max: number) => (delay === 'none' ? 0 : delay === 'large' ? max : rng.skewed(0, max));
  let plannedDepart = toHour(Math.max(journey.startAt.getTime() + rng.between(5 * DAY, 8 * DAY), latest(readyAtPol).getTime() + rng.between(DAY, 2 * DAY)));
  let departAt = toMinute(plannedDepart.getTime() + slip(16 * HOUR));
  let readyAt = readyAtPol;
  const out: SeaLeg[] = [];

  for (let i = 0; i < legCount; i++) {
    const last = i === legCount - 1;
    const { kind, mode, pace } = plans[i];
    const planned = mode === 'BARGE' ? PLANNED_KNOTS.barge : PLANNED_KNOTS[pace];
    const knots = actualKnots(mode, pace, planned, delay, rng);
    const distance = world.seaDistanceNm(choice.ports[i], choice.ports[i + 1]);
    const plannedArrive = toMinute(plannedDepart.getTime() + (distance / planned) * HOUR);
    const arriveAt = toMinute(departAt.getTime() + (distance / knots) * HOUR);
    let vessel: Vessel | null = null;
    if (mode === 'VESSEL' && kind === 'mainline') vessel = mainVessels.shift()!;
    if (mode === 'VESSEL' && kind === 'feeder') feederVessels.push((vessel = chooseFeederVessel(world, vesselRng, feederVessels)));
    const fromSeq = rng.int(1, 6);
    const callId = (end: string) => stableId('sandbox-call', `${journey.scac}:${journey.number}:${i}:${end}`);
    const leg: Leg = {
      index: i,
      kind,
      mode,
      vessel,
      voyage: vessel ? voyageNumber(plannedDepart, terminals[i].place, terminals[i + 1].place) : `B${rng.int(100, 999)}`,
      serviceCode: kind === 'feeder' ? `FD${rng.int(1, 9)}` : `${choice.servicePrefix}${rng.int(1, 9)}`,
      from: terminals[i],
      to: terminals[i + 1],
      fromCallId: callId('from'),
      toCallId: callId('to'),
      fromCallSequence: fromSeq,
      toCallSequence: fromSeq + rng.int(1, 4),
      distance,
      speedKnots: knots,
      plannedDepartAt: plannedDepart,
      plannedArriveAt: plannedArrive,
      departAt,
      arriveAt,
    };
    const loads = readyAt.map((ready) => {
      const room = (departAt.getTime() - ready.getTime()) / HOUR;
      return toMinute(departAt.getTime() - rng.between(1, Math.min(30, room - 1)) * HOUR);
    });
    const discharges = readyAt.map(() => toMinute(arriveAt.getTime() + rng.between(2, last ? 30 : 20) * HOUR));
    out.push({ leg, loads, discharges });

    if (!last) {
      plannedDepart = toHour(plannedArrive.getTime() + rng.between(2 * DAY, 4.5 * DAY));
      departAt = toMinute(Math.max(plannedDepart.getTime() + slip(10 * HOUR), latest(discharges).getTime() + rng.between(8, 20) * HOUR));
      readyAt = discharges;
    }
  }
  return out;
}

function actualKnots(mode: 'VESSEL' | 'BARGE', pace: 'mainline' | 'feeder', planned: number, delay: DelayMode, rng: Prng): number {
  if (delay === 'none') return planned;
  if (mode === 'BARGE') return delay === 'large' ? 9 : rng.between(9, 11);
  if (delay === 'large') return 14.2;
  return pace === 'feeder' ? rng.between(14, 17) : rng.between(14, 20);
}

/** Year, week and direction ("2611E"), the way many lines number voyages. */
function voyageNumber(plannedDepart: Date, from: Place, to: Place): string {
  const year = plannedDepart.getUTCFullYear();
  const week = Math.floor((plannedDepart.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY)) + 1;
  const deltaLon = ((to.lon - from.lon + 540) % 360) - 180;
  return `${String(year % 100).padStart(2, '0')}${String(week).padStart(2, '0')}${deltaLon > 0 ? 'E' : 'W'}`;
}
