// Which numbers a sandbox carrier accepts, and the numbers it mints for the documents and boxes
// of a journey. A malformed number is refused with a 400, as a carrier would.
import type { NumberType } from '../carriers/types.ts';
import { containerNumber, isValidContainerNumber } from './iso6346.ts';
import type { Prng } from './prng.ts';
import type { SandboxCarrier } from './world.ts';

/**
 * B/L: 6–20 letters and digits with at least four digits. A number that opens with four or more
 * letters must open with one of the carrier's B/L prefixes, so an MSC B/L sent to Maersk is refused.
 * Booking: 6–20 letters and digits with at least one digit. Container: a valid ISO 6346 number.
 */
export function isWellFormed(carrier: SandboxCarrier, numberType: NumberType, number: string): boolean {
  if (numberType === 'container') return isValidContainerNumber(number);
  if (!/^[A-Z0-9]{6,20}$/.test(number)) return false;
  if (numberType === 'booking_number') return /\d/.test(number);
  if ((number.match(/\d/g) ?? []).length < 4) return false;
  const letters = /^[A-Z]*/.exec(number)![0];
  return letters.length < 4 || [...carrier.blPrefixes, carrier.scac].some((p) => number.startsWith(p));
}

function digits(prng: Prng, count: number): string {
  let out = String(prng.int(1, 9));
  while (out.length < count) out += String(prng.int(0, 9));
  return out;
}

// Digits after the prefix as each carrier writes them (Maersk: 9, MSC: 7 after MEDU); 10 otherwise.
const BL_DIGITS: Readonly<Record<string, number>> = { MAEU: 9, MSCU: 7 };

export function mintBillOfLading(carrier: SandboxCarrier, prng: Prng): string {
  const prefix = carrier.blPrefixes[0] ?? carrier.scac;
  return prefix + digits(prng, BL_DIGITS[carrier.scac] ?? 10);
}

export function mintBookingNumber(prng: Prng): string {
  return digits(prng, prng.int(9, 10));
}

export function mintContainerNumber(carrier: SandboxCarrier, prng: Prng): string {
  return containerNumber(prng.pick(carrier.containerPrefixes), prng.int(0, 999_999));
}

export function mintSealNumber(carrier: SandboxCarrier, prng: Prng): string {
  return carrier.scac.slice(0, 2) + digits(prng, 7);
}
