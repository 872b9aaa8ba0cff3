// ISO 6346 container numbers as the sandbox uses them: it checks incoming numbers and mints valid
// ones for journeys, with the check digit of svc's own validation.
import { checkDigit } from '../domain/inference/iso6346.ts';

export { checkDigit };

const FORMAT = /^[A-Z]{3}[UJZ]\d{7}$/;

export function isValidContainerNumber(number: string): boolean {
  return FORMAT.test(number) && checkDigit(number) === Number(number[10]);
}

/** A valid number from an owner prefix ("MSCU") and a serial below one million. */
export function containerNumber(prefix: string, serial: number): string {
  const firstTen = prefix + String(serial).padStart(6, '0');
  return firstTen + String(checkDigit(firstTen));
}
