// Times and figures as the web pages show them. Instants carry their zone in words; how long ago
// is relative to svc's clock (the tests' manual clock), not the browser's.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `2026-11-24T06:05:00Z` in Asia/Shanghai → `24 Nov 14:05 GMT+8 (Asia/Shanghai)`; UTC → `24 Nov 14:05 UTC`. */
export function localTimeText(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'shortOffset' }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const text = `${part('day')} ${part('month')} ${part('hour')}:${part('minute')}`;
  return timeZone === 'UTC' ? `${text} UTC` : `${text} ${part('timeZoneName')} (${timeZone})`;
}

/** `3 min ago`, `2 h ago`, `5 days ago`; `just now` under a minute (and for a clock a little ahead). */
export function agoText(iso: string, now: Date): string {
  const ms = now.getTime() - new Date(iso).getTime();
  if (!Number.isFinite(ms) || ms < MINUTE) return 'just now';
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min ago`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h ago`;
  const days = Math.floor(ms / DAY);
  return `${days} ${days === 1 ? 'day' : 'days'} ago`;
}

/** `0.92` → `92 %`. */
export const percentText = (confidence: number): string => `${Math.round(confidence * 100)} %`;
