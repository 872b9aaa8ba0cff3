// The journey planner: from a carrier, a number and a start time, the whole life of a shipment —
// every move of every box, the vessel calls, the estimates as they change, the terminal stay — and
// when the carrier publishes each piece. Pure and deterministic: the randomness is seeded by
// (SCAC, number) only, so the same inputs always give the same journey.
//
// Times are decided first (origin, sea legs, rail, terminal stay), events are emitted from them
// afterwards; every later step starts from an earlier one, which keeps each box's moves in order.
// The sea legs (sea-legs.ts), the rail leg (rail-plan.ts) and the estimates (estimates.ts) are
// planned in their own modules; this one puts the journey together.
import type { NumberType } from '../carriers/types.ts';
import { DAY, HOUR, MINUTE } from '../domain/time-units.ts';
import { haversineKm } from '../geo/distance.ts';
import { planEstimates } from './estimates.ts';
import { dirty, REALISTIC_DIRT, type DirtRates } from './dirt.ts';
import { EventMaker } from './event-maker.ts';
import type { Facility, Journey, JourneyContainer, TerminalPlan } from './journey.ts';
import { mintBillOfLading, mintBookingNumber, mintContainerNumber, mintSealNumber } from './numbers.ts';
import { at, latest, toMinute, type DelayMode } from './plan-time.ts';
import { Prng } from './prng.ts';
import { LAND_DETOUR, planRail, type RailPlan } from './rail-plan.ts';
import { chooseRoute, emptyDepot, inlandTerminal, portTerminal, railRamp } from './route-choice.ts';
import { planSeaLegs } from './sea-legs.ts';
import { planShipmentHolds, planTerminalStay } from './terminal-plan.ts';
import { findTestNumber } from './test-numbers.ts';
import type { SandboxCarrier, SandboxWorld } from './world.ts';

const milestone = (name: string) => `container.transport.${name}`;

/** `dirt`: how untidily the carrier sends the journey's events (dirt.ts); realistic unless told. */
export function planJourney(world: SandboxWorld, scac: string, numberType: NumberType, number: string, startAt: Date, dirt: DirtRates = REALISTIC_DIRT): Journey {
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
    journey.events = dirty(events.ordered(), dirt);
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
  const sea = planSeaLegs({ world, carrier, journey, choice, terminals, readyAtPol, delay }, () => seed.fork('sea'), () => seed.fork('vessels'));
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

  planEstimates(events, legs, startAt, delay, seed.fork('estimates'));
  journey.events = dirty(events.ordered(), dirt);
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
