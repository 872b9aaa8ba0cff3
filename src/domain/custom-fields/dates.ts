// Dates and datetimes of custom fields. A date is a calendar day, written YYYY-MM-DD, read in that
// form or in the definition's default_format (MM/DD/YYYY and the like); a datetime is an instant,
// read as ISO 8601 (with Z or an offset) or as "YYYY-MM-DD HH:MM[:SS]" in UTC.

const TOKENS: Record<string, string> = { YYYY: '(\\d{4})', MM: '(\\d{2})', DD: '(\\d{2})', M: '(\\d{1,2})', D: '(\\d{1,2})' };
const TOKEN = /YYYY|MM|DD|M|D/g;

/** Why `format` is not a date format svc can read; undefined when it is one. */
export function dateFormatProblem(format: string): string | undefined {
  const tokens = format.match(TOKEN) ?? [];
  const rest = format.replace(TOKEN, '');
  const kinds = tokens.map((t) => t[0]).sort().join('');
  if (kinds !== 'DMY' || /[A-Za-z0-9]/.test(rest) || format.length > 20) {
    return `default_format must be a date format made of YYYY, MM (or M) and DD (or D) and separators, such as MM/DD/YYYY or DD.MM.YYYY; '${format}' is not.`;
  }
  return undefined;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regular expression reading `format`, and which of Y, M, D each of its groups holds. */
function formatPattern(format: string): { re: RegExp; order: string[] } {
  const order: string[] = [];
  let re = '';
  let last = 0;
  for (const m of format.matchAll(TOKEN)) {
    re += escaped(format.slice(last, m.index)) + TOKENS[m[0]];
    order.push(m[0][0]);
    last = m.index + m[0].length;
  }
  return { re: new RegExp(`^${re}${escaped(format.slice(last))}$`), order };
}

/** YYYY-MM-DD of a real calendar day, or undefined. */
function calendarDay(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The day `text` names, as YYYY-MM-DD: ISO form always, `format` too when given; undefined when neither reads it. */
export function parseDate(text: string, format: string | null): string | undefined {
  for (const f of format ? ['YYYY-MM-DD', format] : ['YYYY-MM-DD']) {
    const { re, order } = formatPattern(f);
    const m = re.exec(text.trim());
    if (!m) continue;
    const part = (kind: string) => Number(m[order.indexOf(kind) + 1]);
    const day = calendarDay(part('Y'), part('M'), part('D'));
    if (day) return day;
  }
  return undefined;
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** The instant `text` names, as ISO 8601 UTC to the second (YYYY-MM-DDTHH:MM:SSZ), or undefined. */
export function parseDatetime(text: string): string | undefined {
  const m = ISO_INSTANT.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '00', , zone] = m;
  if (!calendarDay(Number(y), Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const offset = !zone || zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const instant = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  if (Number.isNaN(instant.getTime())) return undefined;
  return instant.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** How a datetime is displayed: YYYY-MM-DD HH:MM:SS, in UTC. */
export const displayDatetime = (iso: string): string => iso.replace('T', ' ').replace(/Z$/, '');
