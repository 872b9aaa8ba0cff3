// Carriers write event times in the local time of the place, with its UTC offset
// ("2026-03-02T14:05:00+08:00"). Offsets come from the IANA zone, so daylight saving is right.
import { DAY, MINUTE } from '../domain/time-units.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset', hour: 'numeric' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Minutes east of UTC in `timeZone` at `at` ("GMT+05:30" → 330, "GMT" → 0). */
export function utcOffsetMinutes(at: Date, timeZone: string): number {
  const name = formatter(timeZone).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO 8601 in the zone's local time with its offset, to the second. */
export function localDateTime(at: Date, timeZone: string): string {
  const offset = utcOffsetMinutes(at, timeZone);
  const local = new Date(at.getTime() + offset * MINUTE).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The calendar date (YYYY-MM-DD) at `at` in the zone. */
export function localDate(at: Date, timeZone: string): string {
  return new Date(at.getTime() + utcOffsetMinutes(at, timeZone) * MINUTE).toISOString().slice(0, 10);
}

/** A calendar date moved by whole days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole calendar days from date `a` to date `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);
}

/** UTC without milliseconds, as carriers write eventCreatedDateTime. */
export function utcDateTime(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}
