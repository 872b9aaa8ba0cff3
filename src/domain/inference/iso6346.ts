// ISO 6346 freight container numbers: a three-letter owner code, an equipment category letter
// (U freight container, J detachable equipment, Z trailer or chassis), a six-digit serial and a
// check digit computed from the ten characters before it.

/** Four letters then six or seven digits: written as a container number, valid or not. */
const CONTAINER_LIKE = /^[A-Z]{4}\d{6,7}$/;

export const looksLikeContainerNumber = (number: string): boolean => CONTAINER_LIKE.test(number);

/**
 * Letter values: A is 10 and each next letter one more, skipping the multiples of 11 (11, 22, 33),
 * so A=10, B=12 … K=21, L=23 … U=32, V=34 … Z=38.
 */
const LETTER_VALUES: readonly number[] = (() => {
  const values: number[] = [];
  let value = 10;
  for (let i = 0; i < 26; i++) {
    if (value % 11 === 0) value++;
    values.push(value++);
  }
  return values;
})();

export const letterValue = (letter: string): number => LETTER_VALUES[letter.charCodeAt(0) - 65];

/**
 * The check digit of the first ten characters (owner code, category, serial): each character's
 * value times 2^position, summed, modulo 11; a remainder of 10 is written 0.
 */
export function checkDigit(firstTen: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const code = firstTen.charCodeAt(i);
    const value = code >= 48 && code <= 57 ? code - 48 : LETTER_VALUES[code - 65];
    sum += value * (1 << i);
  }
  return (sum % 11) % 10;
}

export type EquipmentCategory = 'U' | 'J' | 'Z';

export interface ContainerCheck {
  /** The three-letter owner code. */
  owner: string;
  /** The fourth letter, whatever it is. */
  category: string;
  categoryValid: boolean;
  serial: string;
  /** The check digit written, or null when the number stops after the serial. */
  given: number | null;
  expected: number;
  checkDigitPassed: boolean;
  /** The first rule the number breaks, in words; null when it is valid. */
  reason: string | null;
}

/** Validates a number `looksLikeContainerNumber` accepted (4 letters, 6 or 7 digits). */
export function checkContainerNumber(number: string): ContainerCheck {
  const owner = number.slice(0, 3);
  const category = number[3];
  const serial = number.slice(4, 10);
  const given = number.length === 11 ? number.charCodeAt(10) - 48 : null;
  const expected = checkDigit(number.slice(0, 10));
  const categoryValid = category === 'U' || category === 'J' || category === 'Z';
  const checkDigitPassed = given === expected;
  let reason: string | null = null;
  if (!categoryValid) {
    reason = `Invalid equipment category '${category}': the fourth letter must be U (freight container), J (detachable equipment) or Z (trailer or chassis)`;
  } else if (given === null) {
    reason = `Missing check digit: a container number has 11 characters (this one would end in ${expected})`;
  } else if (!checkDigitPassed) {
    reason = `Invalid check digit: ${given} is written, ${owner}${category}${serial} gives ${expected}`;
  }
  return { owner, category, categoryValid, serial, given, expected, checkDigitPassed, reason };
}

/**
 * Whether a number as a carrier sent it is a container number whose check digit holds: false for
 * one that is not written as a container number, or has no check digit or a wrong one.
 */
export function containerCheckDigitPassed(number: string): boolean {
  const written = number.toUpperCase();
  return looksLikeContainerNumber(written) && checkContainerNumber(written).checkDigitPassed;
}
