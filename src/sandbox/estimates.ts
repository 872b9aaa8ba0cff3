// The estimates a carrier publishes as a journey goes: planned times with the booking, then a late
// departure announced and the arrival revised during the crossing.
import { HOUR } from '../domain/time-units.ts';
import type { EventMaker } from './event-maker.ts';
import type { Leg } from './journey.ts';
import { at, toMinute, type DelayMode } from './plan-time.ts';
import type { Prng } from './prng.ts';

/**
 * Planned times go out with the booking; estimates follow as the voyage goes: a late departure is
 * announced before it happens, the ETA at the port of discharge is revised during the crossing
 * (converging on the actual arrival), and the inland ETA moves with it.
 */
export function planEstimates(events: EventMaker, first: Leg, lastSea: Leg, rail: Leg | null, startAt: Date, delay: DelayMode, rng: Prng): void {
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
