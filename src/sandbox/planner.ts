// The journey planner: from a carrier, a number and a start time, the whole life of a shipment —
// every move of every box, the vessel calls, the estimates as they change, the terminal stay — and
// when the carrier publishes each piece. Pure and deterministic: the randomness is seeded by
// (SCAC, number) only, so the same inputs always give the same journey.
//
// Times are decided first (origin, sea legs, rail, terminal stay), events are emitted from them
// afterwards; every later step starts from an earlier one, which keeps each box's moves in order.
import { DAY, HOUR, MINUTE } from '../domain/time-units.ts';
import { haversineKm } from '../geo/distance.ts';
import { stableId } from '../refdata/ids.ts';
import type { NumberType } from '../carriers/types.ts';
import { EventMaker } from './event-maker.ts';
import { feederLegs } from './feeder-rule.ts';
import type { Facility, Journey, JourneyContainer, Leg, TerminalPlan, Vessel } from './journey.ts';
import { mintBillOfLading, mintBookingNumber, mintContainerNumber, mintSealNumber } from './numbers.ts';
import { Prng } from './prng.ts';
import {
  chooseFeederVessel,
  chooseMainlineVessels,
  chooseRoute,
  emptyDepot,
  inlandTerminal,
  portTerminal,
  railRamp,
  type RouteChoice,
} from './route-choice.ts';
import { planShipmentHolds, planTerminalStay } from './terminal-plan.ts';
import { findTestNumber } from './test-numbers.ts';
import type { Place, SandboxCarrier, SandboxWorld } from './world.ts';

/** Speeds schedules are planned at; actual speeds vary around them (vessels 14–20 knots). */
const PLANNED_KNOTS = { mainline: 17, feeder: 15, barge: 10 } as const;
/** Roads and railways wind more than the great circle. */
const LAND_DETOUR = 1.25;
const PLANNED_RAIL_KMH = 45;

type DelayMode = 'none' | 'large' | 'random';

const milestone = (name: string) => `container.transport.${name}`;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
const toMinute = (ms: number) => new Date(Math.round(ms / MINUTE) * MINUTE);
const toHour = (ms: number) => new Date(Math.round(ms / HOUR) * HOUR);
const latest = (dates: readonly Date[]) => new Date(Math.max(...dates.map((d) => d.getTime())));

export function planJourney(world: SandboxWorld, scac: string, numberType: NumberType, number: string, startAt: Date): Journey {
  const carrier = world.carrier(scac);
  if (!carrier) throw new Error(`sandbox: ${scac} is not a sandbox carrier`);
  const test = findTestNumber(scac, number);
  const shape = test?.shape ?? {};
  const seed = new Prng('sandbox-journey/1', scac, number);
  const docs = seed.fork('documents');
  const journey: Journey = {
    scac,
    numberType,
    number,
    startAt,
    billOfLading: numberType === 'bill_of_lading' ? number : mintBillOfLading(carrier, docs),
    bookingNumber: numberType === 'booking_number' ? number : mintBookingNumber(docs),
    containers: [],
    route: null,
    legs: [],
    events: [],
    terminal: [],
  };
  // A B/L that is manifested late: nothing is visible before the manifest, then everything so far at once.
  const manifest = test?.behaviour.kind === 'manifest_after' ? at(startAt, ((shape.offsetDays ?? 0) + test.behaviour.days) * DAY) : null;
  const events = new EventMaker(journey, seed.fork('publication'), manifest);
  const sched = seed.fork('schedule');
  const booked = at(startAt, sched.between(5 * MINUTE, 90 * MINUTE));
  events.shipment('CONF', 'BKG', journey.bookingNumber, booked);

  if (test?.behaviour.kind === 'booking_cancelled') {
    events.shipment('CANC', 'BKG', journey.bookingNumber, at(booked, 36 * HOUR));
    journey.events = events.ordered();
    return journey;
  }

  const choice = chooseRoute(world, shape.route, seed.fork('route'));
  const places = choice.ports.map((p) => world.place(p));
  const pol = places[0];
  const pod = places[places.length - 1];
  const origin = choice.origin ? world.place(choice.origin) : null;
  const destination = choice.rail ? world.place(choice.rail) : null;
  journey.route = { origin, pol, transshipments: places.slice(1, -1), pod, destination };
  journey.containers = chooseContainers(carrier, numberType, number, shape.containers, seed.fork('containers'));
  const boxes = journey.containers.map((c) => c.number);
  const delay: DelayMode = shape.delay ?? 'random';
  // One terminal per port: a box discharged at a hub is loaded again from the same terminal.
  const terminalRng = seed.fork('terminals');
  const terminals = places.map((p) => portTerminal(p, terminalRng));

  // Origin: the empty leaves a depot and comes back laden to the port, or to an inland terminal first.
  const readyAtPol = boxes.map((box) => {
    const emptyOut = toMinute(startAt.getTime() + sched.between(0.4 * DAY, 2.5 * DAY));
    const fullIn = toMinute(emptyOut.getTime() + sched.between(0.5 * DAY, 2.5 * DAY));
    events.equipment('GTOT', box, emptyOut, emptyDepot(origin ?? pol), 'EMPTY', [milestone('empty_out')]);
    events.equipment('GTIN', box, fullIn, origin ? inlandTerminal(origin) : terminals[0], 'LADEN', [milestone('full_in')]);
    if (!origin) return fullIn;
    const preCarriageHours = (haversineKm([origin.lon, origin.lat], [pol.lon, pol.lat]) * LAND_DETOUR) / 45 + sched.between(6, 24);
    return at(fullIn, preCarriageHours * HOUR);
  });

  // Sea legs: load, depart, arrive, discharge. Every move of a feeder leg (the first or the last,
  // by the feeder rule) is a feeder_* milestone, except the arrival and discharge at the port of
  // discharge, which are the vessel's whatever the vessel (anchors §2.7 rows 11, 12, 14).
  const sea = planSeaLegs(world, carrier, journey, choice, terminals, readyAtPol, delay, () => seed.fork('sea'), () => seed.fork('vessels'));
  sea.forEach(({ leg, loads, discharges }, i) => {
    const last = i === sea.length - 1;
    const start = leg.kind === 'feeder' ? 'feeder' : i === 0 ? 'vessel' : 'transshipment';
    const end = last ? 'vessel' : leg.kind === 'feeder' ? 'feeder' : 'transshipment';
    boxes.forEach((box, b) => events.equipment('LOAD', box, loads[b], leg.from, 'LADEN', [milestone(`${start}_loaded`)], leg, 'from'));
    events.transport('DEPA', leg, 'from', leg.departAt, boxes, [milestone(`${start}_departed`)]);
    events.transport('ARRI', leg, 'to', leg.arriveAt, boxes, [milestone(`${end}_arrived`)]);
    boxes.forEach((box, b) => events.equipment('DISC', box, discharges[b], leg.to, 'LADEN', [milestone(`${end}_discharged`)], leg, 'to'));
  });
  const lastSea = sea[sea.length - 1];
  const legs = sea.map((s) => s.leg);

  // North American rail inland: the box waits at the port terminal, rides the train, is unloaded at the ramp.
  let rail: RailPlan | null = null;
  if (destination) {
    rail = planRail(journey, sea.length, lastSea.leg, lastSea.discharges, destination, delay, seed.fork('rail'));
    const { leg, loads, unloads } = rail;
    boxes.forEach((box, b) => events.equipment('LOAD', box, loads[b], leg.from, 'LADEN', [milestone('rail_loaded')], leg, 'from'));
    events.transport('DEPA', leg, 'from', leg.departAt, boxes, [milestone('rail_departed')]);
    events.transport('ARRI', leg, 'to', leg.arriveAt, boxes, [milestone('rail_arrived'), milestone('arrived_at_inland_destination')]);
    boxes.forEach((box, b) => events.equipment('DISC', box, unloads[b], leg.to, 'LADEN', [milestone('rail_unloaded')], leg, 'to'));
    legs.push(leg);
  }
  journey.legs = legs;

  // Pickup: holds, availability, last free day and appointment at the terminal, then gate-out and empty return.
  const pickup: Facility = destination ? railRamp(destination) : terminals[terminals.length - 1];
  const reportedFrom = rail ? rail.unloads : lastSea.discharges;
  const holds = planShipmentHolds(shape.holds ?? 'random', pickup.place.countryCode, latest(reportedFrom), seed.fork('holds'));
  const stayRng = seed.fork('terminal-stay');
  const podTerminal = terminals[terminals.length - 1];
  journey.terminal = journey.containers.map(
    (c, b): TerminalPlan =>
      planTerminalStay(
        {
          container: c.number,
          isoEquipmentCode: c.isoEquipmentCode,
          reportedFrom: reportedFrom[b],
          portStay: rail ? { from: lastSea.discharges[b], until: rail.leg.departAt, terminalCode: podTerminal.smdgCode ?? podTerminal.firmsCode } : null,
          terminalCode: pickup.smdgCode ?? pickup.firmsCode,
          timeZone: pickup.place.timeZone,
          countryCode: pickup.place.countryCode,
          shipmentHolds: holds,
          mayPickUpLate: shape.holds === undefined,
        },
        stayRng,
      ),
  );
  journey.terminal.forEach((plan, b) => {
    events.equipment('GTOT', boxes[b], plan.fullOutAt, pickup, 'LADEN', [milestone('full_out')]);
    const emptyIn = toMinute(plan.fullOutAt.getTime() + sched.between(1.5 * DAY, 7 * DAY));
    events.equipment('GTIN', boxes[b], emptyIn, emptyDepot(destination ?? pod), 'EMPTY', [milestone('empty_in')]);
  });

  // Documents: the B/L is issued after the first departure; a freight hold ends with a release message.
  events.shipment('ISSU', 'TRD', journey.billOfLading, at(legs[0].departAt, sched.between(6 * HOUR, 2 * DAY)));
  const freight = holds.holds.find((h) => h.name === 'freight');
  if (freight) events.shipment('RELS', 'SRM', journey.billOfLading, freight.releasedAt);

  planEstimates(events, legs[0], lastSea.leg, rail?.leg ?? null, startAt, delay, seed.fork('estimates'));
  journey.events = events.ordered();
  return journey;
}

function chooseContainers(
  carrier: SandboxCarrier,
  numberType: NumberType,
  number: string,
  count: number | undefined,
  rng: Prng,
): JourneyContainer[] {
  const n = count ?? rng.weighted([[1, 0.5], [2, 0.25], [3, 0.15], [4, 0.1]] as const);
  // A shipment usually books one equipment type for all its boxes.
  const iso = rng.weighted([['45G1', 0.4], ['22G1', 0.3], ['42G1', 0.2], ['45R1', 0.1]] as const);
  const numbers = new Set(numberType === 'container' ? [number] : []);
  while (numbers.size < n) numbers.add(mintContainerNumber(carrier, rng));
  return [...numbers].map((num) => ({
    number: num,
    isoEquipmentCode: iso,
    seals: [mintSealNumber(carrier, rng)],
    weightKg: Math.round(rng.between(iso === '22G1' ? 6000 : 8000, iso === '22G1' ? 24000 : 26500) / 10) * 10,
  }));
}

interface SeaLeg {
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
function planSeaLegs(
  world: SandboxWorld,
  carrier: SandboxCarrier,
  journey: Journey,
  choice: RouteChoice,
  terminals: Facility[],
  readyAtPol: Date[],
  delay: DelayMode,
  rng: () => Prng,
  vesselRng: () => Prng,
): SeaLeg[] {
  const legCount = choice.ports.length - 1;
  const plans: LegPlan[] = Array.from({ length: legCount }, (_, i) =>
    i === 0 && choice.barge && legCount > 1 ? { mode: 'BARGE', pace: 'feeder', kind: 'feeder' } : { mode: 'VESSEL', pace: 'mainline', kind: 'mainline' },
  );
  const time = () => timeSeaLegs(world, carrier, journey, choice, terminals, readyAtPol, delay, plans, rng(), vesselRng());
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
function timeSeaLegs(
  world: SandboxWorld,
  carrier: SandboxCarrier,
  journey: Journey,
  choice: RouteChoice,
  terminals: Facility[],
  readyAtPol: Date[],
  delay: DelayMode,
  plans: readonly LegPlan[],
  rng: Prng,
  vesselRng: Prng,
): SeaLeg[] {
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

// Class I railroads by where the train leaves: the two that serve each coast (or country) of the port.
const RAILROADS = { CA: ['CNRU', 'CPRS'], MX: ['CPRS'], USWest: ['BNSF', 'UPRR'], USEast: ['CSXT', 'NSRR'] } as const;

/** Drawn from its own seed, so the journey's other draws (and times) stay as they were. */
function railroadFor(pod: Place, journey: Journey): string {
  const choices = pod.countryCode === 'CA' ? RAILROADS.CA : pod.countryCode === 'MX' ? RAILROADS.MX : pod.lon < -100 ? RAILROADS.USWest : RAILROADS.USEast;
  return choices[new Prng('sandbox-railroad/1', journey.scac, journey.number).int(0, choices.length - 1)];
}

interface RailPlan {
  leg: Leg;
  loads: Date[];
  unloads: Date[];
}

function planRail(journey: Journey, index: number, lastSea: Leg, discharges: Date[], destination: Place, delay: DelayMode, rng: Prng): RailPlan {
  const pod = lastSea.to.place;
  const km = haversineKm([pod.lon, pod.lat], [destination.lon, destination.lat]) * LAND_DETOUR;
  const kmh = delay === 'none' ? PLANNED_RAIL_KMH : rng.between(38, 50);
  const loads = discharges.map((d) => toMinute(d.getTime() + rng.between(10 * HOUR, 2.5 * DAY)));
  const departAt = toMinute(latest(loads).getTime() + rng.between(2, 8) * HOUR);
  const arriveAt = toMinute(departAt.getTime() + (km / kmh) * HOUR);
  const plannedDepartAt = toHour(lastSea.plannedArriveAt.getTime() + 2.5 * DAY);
  const callId = (end: string) => stableId('sandbox-call', `${journey.scac}:${journey.number}:rail:${end}`);
  const leg: Leg = {
    index,
    kind: 'rail',
    mode: 'RAIL',
    vessel: null,
    voyage: null,
    serviceCode: null,
    from: lastSea.to,
    to: railRamp(destination),
    railOperator: railroadFor(pod, journey),
    fromCallId: callId('from'),
    toCallId: callId('to'),
    fromCallSequence: 1,
    toCallSequence: 2,
    distance: km,
    speedKnots: null,
    plannedDepartAt,
    plannedArriveAt: toMinute(plannedDepartAt.getTime() + (km / PLANNED_RAIL_KMH) * HOUR),
    departAt,
    arriveAt,
  };
  const unloads = discharges.map(() => toMinute(arriveAt.getTime() + rng.between(2, 14) * HOUR));
  return { leg, loads, unloads };
}

/**
 * Planned times go out with the booking; estimates follow as the voyage goes: a late departure is
 * announced before it happens, the ETA at the port of discharge is revised during the crossing
 * (converging on the actual arrival), and the inland ETA moves with it.
 */
function planEstimates(events: EventMaker, first: Leg, lastSea: Leg, rail: Leg | null, startAt: Date, delay: DelayMode, rng: Prng): void {
  const planAt = at(startAt, rng.between(HOUR, 6 * HOUR));
  events.estimate('DEPA', 'PLN', first, 'from', first.plannedDepartAt, planAt, 'container.transport.estimated.vessel_departed');
  events.estimate('ARRI', 'PLN', lastSea, 'to', lastSea.plannedArriveAt, planAt, 'shipment.estimated.arrival');
  if (rail) events.estimate('ARRI', 'PLN', rail, 'to', rail.plannedArriveAt, planAt, 'container.transport.estimated.arrived_at_inland_destination');

  const slip = first.departAt.getTime() - first.plannedDepartAt.getTime();
  if (slip >= HOUR) {
    const announced = new Date(Math.max(planAt.getTime() + HOUR, first.plannedDepartAt.getTime() - rng.between(12, 36) * HOUR));
    events.estimate('DEPA', 'EST', first, 'from', first.departAt, announced, 'container.transport.estimated.vessel_departed');
  }

  const planned = lastSea.plannedArriveAt.getTime();
  const actual = lastSea.arriveAt.getTime();
  const inlandOffset = rail ? rail.plannedArriveAt.getTime() - planned : 0;
  const crossing = actual - first.departAt.getTime();
  // [share of the crossing when the revision is published, share of the final delay it knows about]
  const revisions = delay === 'large' ? [[0.02, 0.35], [0.4, 0.75], [0.85, 1]] : [[0.02, 0.4], [0.5, 0.8], [0.9, 1]];
  let lastEta = planned;
  let lastInland = rail?.plannedArriveAt.getTime() ?? 0;
  let remarked = false;
  for (const [share, known] of revisions) {
    const publishedAt = new Date(Math.min(first.departAt.getTime() + share * crossing + rng.between(0, 2 * HOUR), actual - HOUR));
    const noise = known < 1 && delay === 'random' ? rng.between(-2, 2) * HOUR : 0;
    const eta = toMinute(planned + (actual - planned) * known + noise).getTime();
    if (Math.abs(eta - lastEta) < HOUR) continue;
    const remark: { code: string; text: string } | null =
      !remarked && eta - lastEta >= 12 * HOUR ? { code: 'WEA', text: 'Heavy weather on the crossing; reduced speed' } : null;
    remarked ||= remark !== null;
    events.estimate('ARRI', 'EST', lastSea, 'to', new Date(eta), publishedAt, 'shipment.estimated.arrival', remark);
    if (rail) {
      lastInland = eta + inlandOffset;
      events.estimate('ARRI', 'EST', rail, 'to', new Date(lastInland), publishedAt, 'container.transport.estimated.arrived_at_inland_destination');
    }
    lastEta = eta;
  }
  if (rail && Math.abs(rail.arriveAt.getTime() - lastInland) >= HOUR) {
    const noise = delay === 'random' ? rng.between(-2, 2) * HOUR : 0;
    const publishedAt = at(rail.departAt, rng.between(0.5, 2) * HOUR);
    events.estimate('ARRI', 'EST', rail, 'to', toMinute(rail.arriveAt.getTime() + noise), publishedAt, 'container.transport.estimated.arrived_at_inland_destination');
  }
}
