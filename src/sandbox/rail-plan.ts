// North American rail inland: the train from the port of discharge to the inland ramp, its
// railroad, and when each box is loaded and unloaded.
import { DAY, HOUR } from '../domain/time-units.ts';
import { haversineKm } from '../geo/distance.ts';
import { stableId } from '../refdata/ids.ts';
import type { Journey, Leg } from './journey.ts';
import { latest, toHour, toMinute, type DelayMode } from './plan-time.ts';
import { Prng } from './prng.ts';
import { railRamp } from './route-choice.ts';
import type { Place } from './world.ts';

/** Roads and railways wind more than the great circle. */
export const LAND_DETOUR = 1.25;
const PLANNED_RAIL_KMH = 45;

// Class I railroads by where the train leaves: the two that serve each coast (or country) of the port.
const RAILROADS = { CA: ['CNRU', 'CPRS'], MX: ['CPRS'], USWest: ['BNSF', 'UPRR'], USEast: ['CSXT', 'NSRR'] } as const;

/** Drawn from its own seed, so the journey's other draws (and times) stay as they were. */
function railroadFor(pod: Place, journey: Journey): string {
  const choices = pod.countryCode === 'CA' ? RAILROADS.CA : pod.countryCode === 'MX' ? RAILROADS.MX : pod.lon < -100 ? RAILROADS.USWest : RAILROADS.USEast;
  return choices[new Prng('sandbox-railroad/1', journey.scac, journey.number).int(0, choices.length - 1)];
}

export interface RailPlan {
  leg: Leg;
  loads: Date[];
  unloads: Date[];
}

export function planRail(journey: Journey, index: number, lastSea: Leg, discharges: Date[], destination: Place, delay: DelayMode, rng: Prng): RailPlan {
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
