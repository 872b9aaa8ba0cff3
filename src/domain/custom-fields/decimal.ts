// Numbers of custom fields are decimal(18,6): at most 12 digits before the point and 6 after,
// kept exactly. Their canonical text (no leading zeros, no trailing fractional zeros, no "-0") is
// what filters compare; a JSON number is what the API serves.

export const INTEGER_DIGITS = 12;
export const FRACTION_DIGITS = 6;

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** The canonical decimal text of `input` (a JSON number or numeric text), or why it is not one. */
export function canonicalDecimal(input: unknown): { text: string } | { problem: string } {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { problem: 'must be a finite number.' };
    // Below 1e-6 or from 1e21 JavaScript writes an exponent: both are outside decimal(18,6).
    text = String(input);
    if (/e/i.test(text)) return { problem: `must have at most ${INTEGER_DIGITS} digits before the decimal point and ${FRACTION_DIGITS} after it.` };
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    return { problem: 'must be a number.' };
  }
  const m = DECIMAL.exec(text);
  if (!m) return { problem: `must be a number; '${text.slice(0, 40)}' is not.` };
  const integer = m[2].replace(/^0+(?=\d)/, '');
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (integer.length > INTEGER_DIGITS || fraction.length > FRACTION_DIGITS) {
    return { problem: `must have at most ${INTEGER_DIGITS} digits before the decimal point and ${FRACTION_DIGITS} after it (decimal(18,6)).` };
  }
  const zero = integer === '0' && fraction === '';
  return { text: `${m[1] === '-' && !zero ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}` };
}
