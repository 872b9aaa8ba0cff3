// The estimates a carrier publishes as a journey goes: the planned call at each end of every leg
// with the booking, then a late departure announced and the arrival revised during the crossing.
import { HOUR } from '../domain/time-units.ts';
import type { EventMaker } from './event-maker.ts';
import type { Leg } from './journey.ts';
import { at, toMinute, type DelayMode } from './plan-time.ts';
import type { Prng } from './prng.ts';

/**
 * The estimate a call updates, named for the move it announces as the planner names the actual
 * one (a feeder leg's moves are feeder_*), except that the departure from the port of lading and
 * the arrival at the port of discharge keep the names they always had.
 */
function estimateName(code: 'ARRI' | 'DEPA', leg: Leg, legs: readonly Leg[]): string {
  const lastSea = legs.filter((l) => l.mode !== 'RAIL').at(-1);
  const hop = leg.kind === 'feeder' ? 'feeder' : 'transshipment';
  if (leg.mode === 'RAIL') return code === 'ARRI' ? 'container.transport.estimated.arrived_at_inland_destination' : 'container.transport.estimated.rail_departed';
  if (code === 'ARRI') return leg === lastSea ? 'shipment.estimated.arrival' : `container.transport.estimated.${hop}_arrived`;
  return leg.index === 0 ? 'container.transport.estimated.vessel_departed' : `container.transport.estimated.${hop}_departed`;
}

/**
 * Planned times go out with the booking, for both ends of every leg (carriers publish the whole
 * routing when the booking is confirmed, transshipment calls included); estimates follow as the
 * voyage goes: a late departure is announced before it happens, the ETA at the port of discharge
 * is revised during the crossing (converging on the actual arrival), and the inland ETA moves with
 * it. `legs`: every leg in journey order, the rail leg last when there is one.
 */
export function planEstimates(events: EventMaker, legs: readonly Leg[], startAt: Date, delay: DelayMode, rng: Prng): void {
  const first = legs[0];
  const rail = legs.at(-1)!.mode === 'RAIL' ? legs.at(-1)! : null;
  const lastSea = legs.filter((l) => l.mode !== 'RAIL').at(-1)!;
  const planAt = at(startAt, rng.between(HOUR, 6 * HOUR));
  for (const leg of legs) {
    events.estimate('DEPA', 'PLN', leg, 'from', leg.plannedDepartAt, planAt, estimateName('DEPA', leg, legs));
    events.estimate('ARRI', 'PLN', leg, 'to', leg.plannedArriveAt, planAt, estimateName('ARRI', leg, legs));
  }
  reviseLegs(events, legs, planAt, rng.fork('legs'));

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

/**
 * The revisions of the calls between the first departure and the arrival at the port of
 * discharge (which planEstimates revises on its own): once a leg is seen to run off its plan by an
 * hour or more, the carrier publishes the new time of its departure from a transshipment port or
 * the ramp (after the box reached it, before it leaves) and of its arrival at a transshipment port
 * (during the crossing, before it arrives).
 */
function reviseLegs(events: EventMaker, legs: readonly Leg[], planAt: Date, rng: Prng): void {
  const lastSea = legs.filter((l) => l.mode !== 'RAIL').at(-1);
  const between = (earliest: number, wanted: number, before: number) => new Date(Math.max(earliest, Math.min(wanted, before)));
  legs.forEach((leg, i) => {
    if (i > 0 && Math.abs(leg.departAt.getTime() - leg.plannedDepartAt.getTime()) >= HOUR) {
      const wanted = legs[i - 1].arriveAt.getTime() + rng.between(2, 12) * HOUR;
      const publishedAt = between(planAt.getTime() + HOUR, wanted, leg.departAt.getTime() - HOUR);
      events.estimate('DEPA', 'EST', leg, 'from', leg.departAt, publishedAt, estimateName('DEPA', leg, legs));
    }
    if (leg.mode !== 'RAIL' && leg !== lastSea && Math.abs(leg.arriveAt.getTime() - leg.plannedArriveAt.getTime()) >= HOUR) {
      const crossing = leg.arriveAt.getTime() - leg.departAt.getTime();
      const wanted = leg.departAt.getTime() + rng.between(0.3, 0.7) * crossing;
      const publishedAt = between(planAt.getTime() + HOUR, wanted, leg.arriveAt.getTime() - HOUR);
      events.estimate('ARRI', 'EST', leg, 'to', leg.arriveAt, publishedAt, estimateName('ARRI', leg, legs));
    }
  });
}
