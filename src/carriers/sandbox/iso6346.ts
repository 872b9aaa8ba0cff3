// ISO 6346 container numbers: a three-letter owner code, a category letter (U, J or Z), six serial
// digits and a check digit. The sandbox checks incoming numbers and mints valid ones for journeys.

const FORMAT = /^[A-Z]{3}[UJZ]\d{7}$/;

/**
 * Letter values start at 10 and skip every multiple of 11 (11, 22, 33), so that no letter alone
 * can produce a check sum that is a multiple of 11.
 */
function letterValue(letter: string): number {
  let value = 10;
  for (let code = 65; code < letter.charCodeAt(0); code++) {
    value++;
    if (value % 11 === 0) value++;
  }
  return value;
}

/** The check digit of the first ten characters (owner, category, serial). */
export function checkDigit(firstTen: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const ch = firstTen[i];
    const value = ch >= '0' && ch <= '9' ? Number(ch) : letterValue(ch);
    sum += value * 2 ** i;
  }
  // A remainder of 10 is written as 0; owners avoid serials that give it, but it stays valid.
  return (sum % 11) % 10;
}

export function isValidContainerNumber(number: string): boolean {
  return FORMAT.test(number) && checkDigit(number) === Number(number[10]);
}

/** A valid number from an owner prefix ("MSCU") and a serial below one million. */
export function containerNumber(prefix: string, serial: number): string {
  const firstTen = prefix + String(serial).padStart(6, '0');
  return firstTen + String(checkDigit(firstTen));
}
