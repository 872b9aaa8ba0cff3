// Words and times for people: the web pages' shared formatting. Pure functions of their inputs
// (the page passes "now"), so server-rendered pages read the same in every browser.
// (The time functions and status words match those of the shipment page's branch, name for name,
// so the two copies of this file merge into one.)

// ---------------------------------------------------------------------------------------------
// Times
// ---------------------------------------------------------------------------------------------

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A zone Intl knows, else UTC: a carrier's odd zone name must not break the page. */
function knownZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

function partsOf(date: Date, timeZone: string, withTime: boolean): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'shortOffset' } : {}),
  } as Intl.DateTimeFormatOptions);
  return Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
}

/**
 * An instant in a place's own time, with its offset and zone: "24 Nov 14:05 GMT+8 (Asia/Shanghai)".
 * The year is added when it is not `now`'s year there. Without a zone: UTC, said so.
 */
export function localDateTime(iso: string, timeZone: string | null | undefined, now?: Date): string {
  const zone = knownZone(timeZone);
  const p = partsOf(new Date(iso), zone, true);
  const year = now && partsOf(now, zone, false).year !== p.year ? ` ${p.year}` : '';
  const offset = p.timeZoneName === 'GMT' ? 'UTC' : p.timeZoneName;
  return `${p.day} ${p.month}${year} ${p.hour}:${p.minute} ${offset}${zone === 'UTC' ? '' : ` (${zone})`}`;
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

// ---------------------------------------------------------------------------------------------
// Tracking words
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

// ---------------------------------------------------------------------------------------------
// Badges (app.css: .badge, .badge.ok, .badge.warn, .badge.bad)
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
