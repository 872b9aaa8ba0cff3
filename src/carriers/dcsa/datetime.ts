// DCSA date-times are ISO 8601 strings written in the carrier's local time, usually with an
// offset. We keep both the instant and the offset as written (CarrierEvent.utcOffset), and we
// parse by hand because Date.parse reads offset-less strings as *local* time and rolls invalid
// dates over (2021-02-30 becomes 2 March).
import { MINUTE } from '../../domain/time-units.ts';

export interface DcsaDateTime {
  at: Date;
  /** "Z" or "±HH:MM"; null when the carrier wrote no offset. */
  utcOffset: string | null;
}

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses an ISO 8601 date-time. A string without an offset is read as UTC and reported with
 * utcOffset null, so a caller that knows the location's time zone can correct it.
 */
export function parseDcsaDateTime(text: string): DcsaDateTime | null {
  const m = PATTERN.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', offset] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;

  let offsetMinutes = 0;
  let utcOffset: string | null = null;
  if (offset === 'Z' || offset === 'z') {
    utcOffset = 'Z';
  } else if (offset) {
    const digits = offset.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (offset[0] === '-' ? -1 : 1) * (oh * 60 + om);
    utcOffset = `${offset[0]}${digits.slice(0, 2)}:${digits.slice(2)}`;
  }

  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, Number(frac.padEnd(3, '0').slice(0, 3)));
  at.setTime(at.getTime() - offsetMinutes * MINUTE);
  return { at, utcOffset };
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}
