// How the web app writes values for people: times with their zone, so nobody has to guess.

const DATE_TIME = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string): Intl.DateTimeFormat {
  let format = DATE_TIME.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
    DATE_TIME.set(timeZone, format);
  }
  return format;
}

/** "24 Nov 2026, 14:05 UTC": an instant with its date and zone (UTC unless a zone is given). */
export function formatDateTime(at: Date | string, timeZone = 'UTC'): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return String(at);
  return dateTimeFormat(timeZone).format(date);
}
