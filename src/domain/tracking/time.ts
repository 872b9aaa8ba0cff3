// Instants and wall clocks. The engine reasons in UTC instants; these helpers turn a local wall
// time (a carrier time written without an offset, a terminal's last free day) into the instant
// it names in an IANA zone, with nothing but Intl.
import type { IsoInstant } from './types.ts';

/** ISO 8601 in UTC, without milliseconds when there are none (the reference service's style). */
export function isoInstant(at: Date): IsoInstant {
  return at.toISOString().replace('.000Z', 'Z');
}

export function isoOrNull(at: Date | null | undefined): IsoInstant | null {
  return at ? isoInstant(at) : null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function zoneOffsetMs(zone: string, atMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(atMs)) parts[p.type] = Number(p.value);
  const wallAsUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wallAsUtc - Math.floor(atMs / 1000) * 1000;
}

/**
 * The instant at which the zone's clocks show the wall time held in `wall`'s UTC fields. The
 * offset is looked up twice because the first guess can sit on the other side of a DST change.
 */
export function wallTimeInZone(wall: Date, zone: string): Date {
  const wallMs = wall.getTime();
  const first = wallMs - zoneOffsetMs(zone, wallMs);
  const second = wallMs - zoneOffsetMs(zone, first);
  return new Date(second);
}

/** Midnight starting a calendar day (YYYY-MM-DD) in a zone; midnight UTC when the zone is unknown. */
export function localMidnight(day: string, zone: string | null): Date {
  const [y, m, d] = day.split('-').map(Number);
  const wall = new Date(Date.UTC(y, m - 1, d));
  return zone ? wallTimeInZone(wall, zone) : wall;
}

/** Whether two stored instants are the same moment (stored text may differ in precision). */
export function sameInstant(a: IsoInstant | null, b: IsoInstant | null): boolean {
  return a === null || b === null ? a === b : Date.parse(a) === Date.parse(b);
}
