// Numbers arrive pasted from emails and PDFs: lower case, blanks, dashes, dots, a label in front
// ("B/L No.: …"), quotes or brackets around. Normalising removes all of that and keeps the letters
// and digits that make the number, on top of the base rule every reader of a number shares.
import { normaliseNumber } from '../carrier-numbers.ts';

export type Normalised = { ok: true; number: string } | { ok: false; reason: string };

export const MIN_LENGTH = 5;
export const MAX_LENGTH = 35;

/** Quotes, brackets and list punctuation around a pasted number. */
const ENCLOSING = /^[\s"'`\u2018\u2019\u201C\u201D()[\]{}<>#:;,*]+|[\s"'`\u2018\u2019\u201C\u201D()[\]{}<>#:;,*]+$/g;

/**
 * A leading label, only when a separator (blank, colon or #) ends it, so a number that merely
 * starts with the same letters ("BL123…") keeps them.
 */
const LABEL =
  /^(?:(?:MASTER|HOUSE)\s+)?(?:B\s*\/\s*L|BL|BOL|MBL|HBL|MB\/L|HB\/L|MBOL|HBOL|BILL\s+OF\s+LADING|BOOKING|BKG|CONTAINER|CNTR|CTNR|EQUIPMENT)(?:[\s.]*(?:NO|NR|NUMBER|NBR|NUM|REF)\b\.?)?(?:\s*[:#]\s*|\s+)(?=\S)/;

/** Blanks (any Unicode space, zero-width ones), dashes of every width, dots, underscores, slashes. */
const SEPARATORS = /[\s\u200B-\u200D\u2060\uFEFF\-\u2010-\u2015\u2212._/\\]+/g;

const LETTERS_AND_DIGITS = /^[A-Z0-9]+$/;
const DIGIT = /\d/;

export function normalisePastedNumber(raw: string): Normalised {
  // NFKC folds full-width letters and digits (common in PDFs from East Asia) to ASCII.
  let text = normaliseNumber(raw.normalize('NFKC')).replace(ENCLOSING, '');
  text = text.replace(LABEL, '').replace(SEPARATORS, '');
  if (text.length === 0) return { ok: false, reason: 'it is blank once spaces and separators are removed' };
  if (!LETTERS_AND_DIGITS.test(text)) return { ok: false, reason: 'it contains characters other than letters and digits' };
  if (!DIGIT.test(text)) return { ok: false, reason: 'it has no digits' };
  if (text.length < MIN_LENGTH) return { ok: false, reason: `it is shorter than ${MIN_LENGTH} characters` };
  if (text.length > MAX_LENGTH) return { ok: false, reason: `it is longer than ${MAX_LENGTH} characters` };
  return { ok: true, number: text };
}
