// Which carrier events concern which container. An equipment event names its container. A
// vehicle's arrival or departure (TRANSPORT) concerns the containers that the carrier's own
// equipment events put on that vehicle (the same vessel leg, or rail, or truck); when no
// container's events say so, the vehicle carried them all.
import { normaliseContainerNumber } from '../carrier-numbers.ts';
import type { CarrierEvent } from './carrier-events.ts';
import { isOceanMove } from './facts.ts';
import type { Route } from './route.ts';

export function eventsByContainer(numbers: readonly string[], events: readonly CarrierEvent[], route: Route): Map<string, CarrierEvent[]> {
  const vehicleOf = (e: CarrierEvent): string | null => {
    if (isOceanMove(e)) return route.legOf(e)?.key ?? null;
    return e.modeOfTransport === 'RAIL' || e.modeOfTransport === 'TRUCK' ? `mode:${e.modeOfTransport}` : null;
  };

  const result = new Map(numbers.map((n) => [n, [] as CarrierEvent[]]));
  const vehiclesOf = new Map(numbers.map((n) => [n, new Set<string>()]));
  for (const e of events) {
    if (e.type !== 'EQUIPMENT' || e.equipmentReference === null) continue;
    const number = normaliseContainerNumber(e.equipmentReference);
    result.get(number)?.push(e);
    const vehicle = vehicleOf(e);
    if (vehicle !== null) vehiclesOf.get(number)?.add(vehicle);
  }

  const carriedSomeone = new Set([...vehiclesOf.values()].flatMap((s) => [...s]));
  for (const e of events) {
    if (e.type !== 'TRANSPORT') continue;
    const vehicle = vehicleOf(e);
    for (const number of numbers) {
      if (vehicle === null || !carriedSomeone.has(vehicle) || vehiclesOf.get(number)!.has(vehicle)) result.get(number)!.push(e);
    }
  }
  return result;
}
