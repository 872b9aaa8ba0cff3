// The terminal's view of a box at one moment: what GET /terminal/containers/{number} answers.
// Not part of DCSA; the shape is the one svc's DCSA connector reads (TerminalStatus in types.ts,
// with instants as ISO strings).
import type { TerminalPlan } from './journey.ts';
import { daysBetween, localDate } from './local-time.ts';

export interface TerminalStatusJson {
  containerNumber: string;
  terminalCode: string | null;
  availableForPickup: boolean;
  holds: { name: string; status: 'hold' | 'pending'; description: string }[];
  fees: { type: string; amount: number; currency_code: string }[];
  lastFreeDay: string | null;
  pickupAppointmentAt: string | null;
  observedAt: string;
}

/**
 * Null while no terminal reports the box: before discharge at the port, and for rail moves while
 * the train is on its way inland.
 */
export function terminalStatusAt(plan: TerminalPlan, now: Date): TerminalStatusJson | null {
  const t = now.getTime();
  const observedAt = now.toISOString();
  if (plan.portStay && t >= plan.portStay.from.getTime() && t < plan.portStay.until.getTime()) {
    // Waiting for the train at the port: not for truck pickup, and the inland terminal will hold and charge.
    return {
      containerNumber: plan.container,
      terminalCode: plan.portStay.terminalCode,
      availableForPickup: false,
      holds: [],
      fees: [],
      lastFreeDay: null,
      pickupAppointmentAt: null,
      observedAt,
    };
  }
  if (t < plan.reportedFrom.getTime()) return null;

  const holds = plan.holds.flatMap((h): TerminalStatusJson['holds'] => {
    if (t >= h.releasedAt.getTime()) return [];
    if (t >= h.holdFrom.getTime()) return [{ name: h.name, status: 'hold', description: h.description }];
    if (h.pendingFrom && t >= h.pendingFrom.getTime()) return [{ name: h.name, status: 'pending', description: h.description }];
    return [];
  });
  const lastFreeDay = plan.lastFreeDays.filter((l) => l.from.getTime() <= t).at(-1)?.value ?? null;

  const fees: TerminalStatusJson['fees'] = [];
  if (lastFreeDay) {
    // Demurrage runs per started day after the last free day, until the box leaves.
    const until = new Date(Math.min(t, plan.fullOutAt.getTime()));
    const days = daysBetween(lastFreeDay, localDate(until, plan.timeZone));
    if (days > 0) fees.push({ type: 'demurrage', amount: days * plan.demurragePerDay, currency_code: plan.currency });
  }
  if (plan.examFee && t >= plan.examFee.from.getTime()) fees.push({ type: 'exam', amount: plan.examFee.amount, currency_code: plan.currency });
  if (fees.length > 0) fees.push({ type: 'total', amount: fees.reduce((sum, f) => sum + f.amount, 0), currency_code: plan.currency });

  const appointment = plan.appointment && t >= plan.appointment.bookedAt.getTime() ? plan.appointment.at.toISOString() : null;
  return {
    containerNumber: plan.container,
    terminalCode: plan.terminalCode,
    availableForPickup: t >= plan.availableAt.getTime() && t < plan.fullOutAt.getTime(),
    holds,
    fees,
    lastFreeDay,
    pickupAppointmentAt: appointment,
    observedAt,
  };
}
