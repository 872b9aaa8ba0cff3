// Reading one value out of the text that follows its label: a number, a date, a vessel, an amount.
// Each reader takes what belongs to its value from the start of the text and stops at the first
// thing that does not, or answers null when the text does not start with such a value.
import { normalisePastedNumber } from '../../inference/normalise.ts';

/** A reference number (B/L, booking, delivery order): "MAEU 123456789", "EGLV-0849-0004-2045". */
export function numberValue(raw: string): string | null {
  const tokens = raw.trim().split(/\s+/);
  const taken: string[] = [];
  for (const [i, token] of tokens.entries()) {
    const bare = token.replace(/[,;.]+$/, '');
    if (!/^[A-Z0-9][A-Z0-9\-/]*$/.test(bare)) break;
    const hasDigit = /\d/.test(bare);
    // A carrier prefix standing apart ("MAEU 123456789") joins the digits that follow it.
    const prefix = i === 0 && /^[A-Z]{2,4}$/.test(bare) && /\d/.test(tokens[1] ?? '');
    if (!hasDigit && !prefix) break;
    taken.push(bare);
    if (bare !== token) break;
  }
  if (taken.length === 0) return null;
  const n = normalisePastedNumber(taken.join(''));
  return n.ok && n.number.length >= 6 && n.number.length <= 20 ? n.number : null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)[a-z]*\.?`;

const DATE_FORMS: readonly { re: RegExp; ymd: (m: RegExpExecArray) => [number, number, number] }[] = [
  { re: /^(\d{4})[-./](\d{1,2})[-./](\d{1,2})\b/, ymd: (m) => [+m[1], +m[2], +m[3]] },
  // Day first, as international trade writes it: 14/03/2026, 14.03.2026, 14-03-2026.
  { re: /^(\d{1,2})[-./](\d{1,2})[-./](\d{4})\b/, ymd: (m) => [+m[3], +m[2], +m[1]] },
  { re: new RegExp(String.raw`^(\d{1,2})[-\s]${MONTH}[-\s,]+(\d{4})\b`, 'i'), ymd: (m) => [+m[3], monthOf(m[2]), +m[1]] },
  { re: new RegExp(String.raw`^${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'i'), ymd: (m) => [+m[3], monthOf(m[1]), +m[2]] },
];

const monthOf = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

/** A calendar date at the start of the text, as YYYY-MM-DD. */
export function dateValue(raw: string): string | null {
  const text = raw.trim().replace(/^(?:on|by|:)\s+/i, '');
  for (const form of DATE_FORMS) {
    const m = form.re.exec(text);
    if (!m) continue;
    const [y, mo, d] = form.ymd(m);
    const date = new Date(Date.UTC(y, mo - 1, d));
    if (mo < 1 || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || y < 1990 || y > 2100) return null;
    return date.toISOString().slice(0, 10);
  }
  return null;
}

/** Words a vessel's name does not run into: the voyage, a separator, running text. */
const VESSEL_END = /^(?:V\.?$|V\.?\d|VOY|\/$|-$|ETA$|ETD$)/i;

/** A vessel name: upper-case words ("MAERSK ESSEN", "CMA CGM JACQUES SAADE"), up to the voyage. */
export function vesselValue(raw: string): string | null {
  const words: string[] = [];
  for (const token of raw.trim().split(/\s+/)) {
    const bare = token.replace(/[,;]+$/, '');
    if (VESSEL_END.test(bare) || !/^[A-Z0-9][A-Z0-9.'&-]*$/.test(bare)) break;
    words.push(bare);
    if (bare !== token) break;
  }
  const name = words.join(' ').replace(/[.]+$/, '');
  return /[A-Z]{2}/.test(name) ? name : null;
}

/** A voyage number: "412W", "V.025E", "0FL5RW1MA". */
export function voyageValue(raw: string): string | null {
  const m = /^(?:V\.?\s*|VOY\.?\s*|No\.?\s*)?([A-Z0-9]{2,12})(?![A-Za-z0-9])/i.exec(raw.trim());
  return m && /\d/.test(m[1]) ? m[1].toUpperCase() : null;
}

/** "MAERSK ESSEN / 412W", "MAERSK ESSEN V.412W": a combined vessel and voyage cell. */
export function vesselVoyageValue(raw: string): { vessel: string; voyage: string | null } | null {
  const [vesselPart, ...rest] = raw.split(/\s+\/\s+|\s*\/\s*(?=V\.?\s*\d|\d)/);
  let vessel = vesselValue(vesselPart);
  if (!vessel) return null;
  // "MSC AURORA  NX611R": no separator, the voyage is the last word, the one with digits.
  const words = vessel.split(' ');
  if (rest.length === 0 && words.length > 1 && /\d/.test(words[words.length - 1])) {
    vessel = words.slice(0, -1).join(' ');
    return { vessel, voyage: voyageValue(words[words.length - 1]) };
  }
  const after = rest.length > 0 ? rest.join(' ') : vesselPart.trim().slice(vessel.length).replace(/^[\s,]+/, '').replace(/^(?:VOY(?:AGE)?\.?|V\.)\s*/i, '');
  return { vessel, voyage: voyageValue(after) };
}

/** A party: the company's name, the first line of its box. */
export function partyValue(raw: string): string | null {
  const name = raw.trim().replace(/\s*[,;:]$/, '');
  return /[A-Za-z]{2}/.test(name) && name.length <= 80 ? name : null;
}

const CURRENCIES = new Set(['USD', 'EUR', 'GBP', 'CNY', 'RMB', 'JPY', 'HKD', 'SGD', 'INR', 'AUD', 'CAD', 'CHF', 'KRW', 'AED', 'MXN', 'BRL', 'THB', 'VND', 'TWD']);

const toNumber = (digits: string): number => Number(digits.replace(/[,\s]/g, ''));

/** "USD 12,345.67", "12,345.67 EUR", "US$ 1,200.00". */
export function amountValue(raw: string): { currency: string; amount: number } | null {
  const text = raw.trim().replace(/^US\$/, 'USD').replace(/^€\s*/, 'EUR ');
  const m = /^(?:([A-Z]{3})\s*)?(\d{1,3}(?:,\d{3})*(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)(?:\s*([A-Z]{3}))?(?![\d,.]*\d)/.exec(text);
  const currency = m && (m[1] ?? m[3]);
  if (!m || !currency || !CURRENCIES.has(currency)) return null;
  return { currency: currency === 'RMB' ? 'CNY' : currency, amount: toNumber(m[2]) };
}

/** "12,345.60 KGS", "12345 KG": kilograms; other units are left alone. */
export function weightValue(raw: string): number | null {
  const m = /^(\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?:KGS?|KGM|KILOS?|KILOGRAMS?)\b/i.exec(raw.trim());
  return m ? toNumber(m[1]) : null;
}

/** "1,200 CARTONS", "48 PALLETS", "350". */
export function countValue(raw: string): number | null {
  const m = /^(\d{1,3}(?:,\d{3})+|\d+)(?![\d.])(?:\s*(?:[A-Za-z()]+))?/.exec(raw.trim());
  return m ? toNumber(m[1]) : null;
}
