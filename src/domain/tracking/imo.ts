// IMO ship identification numbers: seven digits, the last a check digit (the first six weighted
// 7 to 2, summed, modulo 10). A number that fails it was mistyped somewhere on its way.

/** The IMO number without an "IMO" prefix or blanks, when it is seven digits whose check digit holds; null otherwise. */
export function verifiedImo(value: string | null | undefined): string | null {
  const digits = (value ?? '').trim().replace(/^IMO\s*/i, '');
  if (!/^\d{7}$/.test(digits)) return null;
  const sum = [...digits.slice(0, 6)].reduce((n, d, i) => n + Number(d) * (7 - i), 0);
  return sum % 10 === Number(digits[6]) ? digits : null;
}
