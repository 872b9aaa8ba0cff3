// Reading SDK records defensively. The MCP views are written against svc's documented shapes but
// must not fail on a member that is absent or null (a related record not included, an optional
// attribute, an endpoint that has not landed yet): each reader answers null instead.

export type Rec = Record<string, unknown>;

export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
export const rec = (v: unknown): Rec | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : null);
export const recs = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter((x): x is Rec => rec(x) !== null) : []);
export const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** An instant as ISO 8601 (svc sends strings; a Date or epoch from elsewhere is accepted too). */
export function instant(v: unknown): string | null {
  if (typeof v === 'string' && v !== '') return v;
  if (v instanceof Date && !Number.isNaN(v.getTime())) return v.toISOString();
  return null;
}

/** The first of the members present, e.g. a newer and an older name of one attribute. */
export function first(r: Rec | null, ...names: string[]): unknown {
  for (const name of names) if (r && r[name] !== undefined && r[name] !== null) return r[name];
  return null;
}
