// What happens to boxes at the pickup terminal: holds and their release, availability, the last
// free day, the pickup appointment and the gate-out that ends the terminal stay. Holds are decided
// per shipment (customs and freight release a whole B/L at once); the rest per box.
import { DAY, HOUR, MINUTE } from '../domain/time-units.ts';
import type { HoldName, HoldPlan, TerminalPlan } from './journey.ts';
import { addDays, localDate, utcOffsetMinutes } from './local-time.ts';
import type { Prng } from './prng.ts';

export type HoldsMode = 'none' | 'customs_and_freight' | 'random';

interface ShipmentHold {
  name: HoldName;
  description: string;
  /** Shown as pending for a few hours before it takes effect. */
  announced: boolean;
  releasedAt: Date;
  /** An exam fee charged once the hold is released. */
  examFee: number | null;
}

export interface ShipmentHolds {
  holds: ShipmentHold[];
  /** The terminal grants extra free days when a long hold ends (the last free day changes once). */
  lfdExtension: { days: number; at: Date } | null;
}

const DESCRIPTIONS: Readonly<Record<HoldName, string>> = {
  customs: 'Customs hold: cargo selected for examination',
  freight: 'Freight hold: ocean freight not yet released by the line',
  TMF: 'Traffic mitigation fee unpaid',
  USDA: 'USDA hold: inspection required',
  VACIS: 'VACIS scan required',
  other: 'Terminal hold',
};

/** `lastReport`: when the last box of the shipment reaches the pickup terminal. */
export function planShipmentHolds(mode: HoldsMode, countryCode: string, lastReport: Date, rng: Prng): ShipmentHolds {
  const at = (ms: number) => new Date(lastReport.getTime() + ms);
  const hold = (name: HoldName, announced: boolean, releasedAt: Date, examFee: number | null = null): ShipmentHold => ({
    name,
    description: DESCRIPTIONS[name],
    announced,
    releasedAt,
    examFee,
  });
  if (mode === 'none') return { holds: [], lfdExtension: null };
  if (mode === 'customs_and_freight') {
    const customsRelease = at(2 * DAY + 3 * HOUR);
    return {
      holds: [hold('customs', false, customsRelease, 350), hold('freight', true, at(36 * HOUR))],
      lfdExtension: { days: 2, at: customsRelease },
    };
  }
  const us = countryCode === 'US';
  const holds: ShipmentHold[] = [];
  if (rng.chance(0.2)) holds.push(hold('customs', false, at(rng.between(6 * HOUR, 3 * DAY)), rng.chance(0.5) ? rng.int(275, 450) : null));
  if (rng.chance(0.15)) holds.push(hold('freight', true, at(rng.between(4 * HOUR, 2 * DAY))));
  if (us && rng.chance(0.2)) holds.push(hold('TMF', true, at(rng.between(2 * HOUR, DAY))));
  if (us && rng.chance(0.04)) holds.push(hold('USDA', false, at(rng.between(DAY, 3 * DAY))));
  return { holds, lfdExtension: null };
}

export interface TerminalStayInput {
  container: string;
  isoEquipmentCode: string;
  /** When the pickup facility starts reporting the box (vessel discharge, or rail unload inland). */
  reportedFrom: Date;
  portStay: TerminalPlan['portStay'];
  terminalCode: string | null;
  timeZone: string;
  countryCode: string;
  shipmentHolds: ShipmentHolds;
  /** Random journeys sometimes leave a box past its last free day, so demurrage shows up. */
  mayPickUpLate: boolean;
}

const CURRENCY: Readonly<Record<string, string>> = { US: 'USD', CA: 'CAD', GB: 'GBP' };
const EURO = new Set(['NL', 'DE', 'BE', 'FR', 'IT', 'ES']);

/** Start of the day after `date` in the zone: the moment a last free day runs out. */
function endOfLocalDay(date: string, timeZone: string, near: Date): Date {
  const midnightUtc = Date.parse(`${addDays(date, 1)}T00:00:00Z`);
  return new Date(midnightUtc - utcOffsetMinutes(near, timeZone) * MINUTE);
}

export function planTerminalStay(input: TerminalStayInput, rng: Prng): TerminalPlan {
  const base = input.reportedFrom.getTime();
  const holds: HoldPlan[] = input.shipmentHolds.holds.map((h) => {
    const announceFor = Math.min(3 * HOUR, (h.releasedAt.getTime() - base) / 2);
    return {
      name: h.name,
      description: h.description,
      pendingFrom: h.announced ? new Date(base) : null,
      holdFrom: new Date(h.announced ? base + announceFor : base),
      releasedAt: h.releasedAt,
    };
  });
  const lastRelease = Math.max(0, ...holds.map((h) => h.releasedAt.getTime()));
  const availableAt = new Date(
    Math.max(base + rng.between(2 * HOUR, 10 * HOUR), lastRelease > 0 ? lastRelease + rng.between(0.5 * HOUR, 2 * HOUR) : 0),
  );

  const freeDays = input.countryCode === 'US' || input.countryCode === 'CA' ? 4 : 5;
  const firstLfd = addDays(localDate(input.reportedFrom, input.timeZone), freeDays);
  const lastFreeDays = [{ from: input.reportedFrom, value: firstLfd }];
  const extension = input.shipmentHolds.lfdExtension;
  if (extension) lastFreeDays.push({ from: extension.at, value: addDays(firstLfd, extension.days) });
  const finalLfd = lastFreeDays[lastFreeDays.length - 1].value;

  let fullOut = availableAt.getTime() + rng.skewed(0.3 * DAY, 4.5 * DAY);
  if (input.mayPickUpLate && rng.chance(0.12)) {
    fullOut = Math.max(fullOut, endOfLocalDay(finalLfd, input.timeZone, availableAt).getTime() + rng.between(0.3 * DAY, 3 * DAY));
  }
  const fullOutAt = new Date(Math.round(fullOut / MINUTE) * MINUTE);

  // Truckers book a slot some hours after the box becomes available; the gate-out falls in that slot.
  const window = fullOutAt.getTime() - availableAt.getTime();
  const appointment =
    window >= 4 * HOUR
      ? {
          bookedAt: new Date(availableAt.getTime() + rng.between(HOUR, Math.min(12 * HOUR, window / 2))),
          at: new Date(Math.floor(fullOutAt.getTime() / HOUR) * HOUR),
        }
      : null;

  const examHold = input.shipmentHolds.holds.find((h) => h.examFee !== null);
  return {
    container: input.container,
    portStay: input.portStay,
    reportedFrom: input.reportedFrom,
    terminalCode: input.terminalCode,
    timeZone: input.timeZone,
    holds,
    availableAt,
    fullOutAt,
    lastFreeDays,
    appointment,
    demurragePerDay: input.isoEquipmentCode.startsWith('2') ? 150 : 225,
    currency: CURRENCY[input.countryCode] ?? (EURO.has(input.countryCode) ? 'EUR' : 'USD'),
    examFee: examHold ? { from: examHold.releasedAt, amount: examHold.examFee! } : null,
  };
}
