// How the web app writes values for people: times with their zone, so nobody has to guess.
import { DAY, HOUR, MINUTE } from '../domain/time-units.ts';

// Making an Intl.DateTimeFormat costs far more than formatting with one, and a page formats
// hundreds of times in a handful of zones: each kind is made once per zone.
const FORMATS = new Map<string, Intl.DateTimeFormat>();
const FORMAT_OPTIONS = {
  stamp: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' },
  day: { day: 'numeric', month: 'short', year: 'numeric' },
  local: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'shortOffset' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

function dateTimeFormat(kind: keyof typeof FORMAT_OPTIONS, timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, ...FORMAT_OPTIONS[kind] });
    FORMATS.set(key, format);
  }
  return format;
}

/** "24 Nov 2026, 14:05 UTC": an instant with its date and zone (UTC unless a zone is given). */
export function formatDateTime(at: Date | string, timeZone = 'UTC'): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return String(at);
  return dateTimeFormat('stamp', timeZone).format(date);
}

// ---------------------------------------------------------------------------------------------
// Times (shipment page, issue 13): pure functions of their inputs; the page passes "now"
// ---------------------------------------------------------------------------------------------

/** A zone Intl knows, else UTC: a carrier's odd zone name must not break the page. */
function knownZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    dateTimeFormat('day', timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

function partsOf(date: Date, timeZone: string, withTime: boolean): Record<string, string> {
  return Object.fromEntries(dateTimeFormat(withTime ? 'local' : 'day', timeZone).formatToParts(date).map((p) => [p.type, p.value]));
}

/**
 * An instant in a place's own time, with its offset and zone: "24 Nov 14:05 GMT+8 (Asia/Shanghai)".
 * The year is added when it is not `now`'s year there. Without a zone: UTC, said so.
 */
export function localDateTime(iso: string, timeZone: string | null | undefined, now?: Date): string {
  const zone = knownZone(timeZone);
  const p = partsOf(new Date(iso), zone, true);
  const year = now && partsOf(now, zone, false).year !== p.year ? ` ${p.year}` : '';
  const clock = `${p.day} ${p.month}${year} ${p.hour}:${p.minute}`;
  // ICU writes a zero offset "GMT+0" in some builds and "GMT" in others.
  return zone === 'UTC' ? `${clock} UTC` : `${clock} ${p.timeZoneName.replace(/^GMT\+0$/, 'GMT')} (${zone})`;
}

/** The calendar day of an instant in a place: "28 Nov" (with the year when not `now`'s). */
export function localDate(iso: string, timeZone: string | null | undefined, now?: Date): string {
  const zone = knownZone(timeZone);
  const p = partsOf(new Date(iso), zone, false);
  const year = now && partsOf(now, zone, false).year !== p.year ? ` ${p.year}` : '';
  return `${p.day} ${p.month}${year}`;
}

/** The exact instant, for a `<time title>`: "2026-11-24 06:05 UTC". */
export function utcTitle(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** How long ago (or, in the future, how soon): "just now", "3 min ago", "5 h ago", "2 d ago", "in 4 h". */
export function relativeTime(iso: string, now: Date): string {
  const ms = now.getTime() - new Date(iso).getTime();
  const size = Math.abs(ms);
  const amount = size < MINUTE ? null : size < HOUR ? `${Math.floor(size / MINUTE)} min` : size < 2 * DAY ? `${Math.floor(size / HOUR)} h` : `${Math.floor(size / DAY)} d`;
  if (amount === null) return 'just now';
  return ms >= 0 ? `${amount} ago` : `in ${amount}`;
}

/** How far an estimate moved from the first one: "+3 d", "−12 h", "+45 min"; null when it did not. Days from two days on, rounded. */
export function estimateShift(currentIso: string, originalIso: string): string | null {
  const ms = new Date(currentIso).getTime() - new Date(originalIso).getTime();
  const size = Math.abs(ms);
  if (size < MINUTE) return null;
  const sign = ms > 0 ? '+' : '−';
  if (size < HOUR) return `${sign}${Math.round(size / MINUTE)} min`;
  if (size < 2 * DAY) return `${sign}${Math.round(size / HOUR)} h`;
  return `${sign}${Math.round(size / DAY)} d`;
}

/** "1,250.00 USD". */
export function money(amount: number, currencyCode: string): string {
  return `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currencyCode}`;
}

// ---------------------------------------------------------------------------------------------
// Tracking words (shipment page, issue 13)
// ---------------------------------------------------------------------------------------------

/** A container status as people at a terminal say it. */
const CONTAINER_STATUS_WORDS: Record<string, string> = {
  new: 'Booked',
  on_ship: 'On vessel',
  grounded: 'Discharged',
  available: 'Available for pickup',
  not_available: 'Not available',
  awaiting_inland_transfer: 'Awaiting rail',
  on_rail: 'On rail',
  off_dock: 'Off dock',
  picked_up: 'Picked up',
  delivered: 'Delivered',
  dropped: 'Dropped',
  loaded: 'Loaded',
  empty_returned: 'Empty returned',
};

export const containerStatusWords = (status: string): string => CONTAINER_STATUS_WORDS[status] ?? status.replaceAll('_', ' ');

/** "container.transport.vessel_departed" → "Vessel departed"; the estimated ones say so. */
export function milestoneWords(event: string): string {
  const estimated = /\.estimated\./.test(event);
  const last = event.replace(/^container\.transport\.(estimated\.)?/, '').replace(/^[a-z_]+\./, '');
  const words = last.replaceAll('_', ' ');
  const sentence = words.charAt(0).toUpperCase() + words.slice(1);
  return estimated ? `${sentence} (estimated)` : sentence;
}

/** Why tracking stopped, in words. */
const STOPPED_REASON_WORDS: Record<string, string> = {
  cancelled_by_user: 'stopped by a user',
  all_containers_terminated: 'every container was returned empty',
  past_arrival_window: 'the arrival is long past',
  no_updates_at_line: 'the shipping line published nothing new for weeks',
};

export const trackingStoppedWords = (reason: string | null): string => (reason ? (STOPPED_REASON_WORDS[reason] ?? reason.replaceAll('_', ' ')) : 'no reason given');

/** "40' high cube dry", "20' reefer"; null when the carrier said nothing. */
export function equipmentWords(type: string | null, length: number | null, height: string | null): string | null {
  const parts = [length ? `${length}′` : null, height === 'high_cube' ? 'high cube' : null, type];
  const text = parts.filter(Boolean).join(' ');
  return text || null;
}

// ---------------------------------------------------------------------------------------------
// Badges (shipments list, issue 13; app.css: .badge, .badge.ok, .badge.warn, .badge.bad)
// ---------------------------------------------------------------------------------------------

export type BadgeTone = 'ok' | 'warn' | 'bad' | 'neutral';

/**
 * How a container status looks as a badge: green once the box can be or has been collected, amber
 * while it waits at a terminal it cannot leave yet, grey while it travels.
 */
const CONTAINER_STATUS_TONES: Record<string, BadgeTone> = {
  available: 'ok',
  picked_up: 'ok',
  delivered: 'ok',
  empty_returned: 'ok',
  not_available: 'warn',
};

export const containerStatusTone = (status: string): BadgeTone => CONTAINER_STATUS_TONES[status] ?? 'neutral';

/** The class attribute of a badge of that tone. */
export const badgeClass = (tone: BadgeTone): string => (tone === 'neutral' ? 'badge' : `badge ${tone}`);

/** A confidence as the track form shows it: `0.92` → `92 %`. */
export const percentText = (confidence: number): string => `${Math.round(confidence * 100)} %`;
