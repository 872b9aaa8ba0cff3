// Query-string parameters shared by every list and show route. Keys arrive flat and decoded
// ("page[size]" whether the client sent the brackets raw or percent-encoded).
import type { TimeRange } from '../store/conditions.ts';
import { badParameter } from './errors.ts';

export type Query = Record<string, string | string[] | undefined>;

export const MAX_PAGE_SIZE = 100;

/** The single value of a parameter; a repeated parameter is an error rather than a guess. */
export function param(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw badParameter(name, `${name} was given ${value.length} times; give it once.`, 'repeated');
  return value;
}

export interface Page {
  number: number;
  size: number;
}

function positiveInt(query: Query, name: string): number | undefined {
  const raw = param(query, name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw badParameter(name, `${name} must be a whole number of at least 1.`);
  return Number(raw);
}

/** page[number] from 1, page[size] defaulting per resource and clamped to 100. */
export function parsePage(query: Query, defaultSize = 30): Page {
  const number = positiveInt(query, 'page[number]') ?? 1;
  const size = Math.min(positiveInt(query, 'page[size]') ?? defaultSize, MAX_PAGE_SIZE);
  return { number, size };
}

/** The include paths, e.g. "shipment,shipment.port_of_lading"; validated by the caller's resource types. */
export function parseInclude(query: Query): string[] {
  const raw = param(query, 'include');
  return raw === undefined ? [] : includeList(raw);
}

/** The paths an `include` parameter's text names, each once. */
export const includeList = (raw: string): string[] => [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];

/** filter[name] and the like; blank means absent. */
export function optionalParam(query: Query, name: string): string | undefined {
  const value = param(query, name)?.trim();
  return value ? value : undefined;
}

/** filter[name] that takes one of a closed set of values (case counts); a 400 names the parameter and the set. */
export function enumParam<T extends string>(query: Query, name: string, values: readonly T[]): T | undefined {
  const value = optionalParam(query, name);
  if (value !== undefined && !(values as readonly string[]).includes(value)) throw badParameter(name, `${name} must be one of ${values.join(', ')}; '${value.slice(0, 40)}' is not.`);
  return value as T | undefined;
}

export function booleanParam(query: Query, name: string): boolean | undefined {
  const value = optionalParam(query, name);
  if (value === undefined) return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw badParameter(name, `${name} must be true or false.`);
}

/** What the items of a list parameter may be: `expected` completes "<name> must be …" in the error. */
export interface ItemRule {
  accepts: (item: string) => boolean;
  expected: string;
  /** Applied before the check (capitals for codes); items are kept as normalised. */
  normalise?: (item: string) => string;
}

/** Items from a closed set, as given (case counts). */
export const oneOf = (values: readonly string[]): ItemRule => ({ accepts: (item) => values.includes(item), expected: `one of ${values.join(', ')}` });

/** Codes of one shape, compared in capitals (UN/LOCODEs, SCACs). */
export const codeLike = (shape: RegExp, expected: string): ItemRule => ({ accepts: (item) => shape.test(item), expected, normalise: (item) => item.toUpperCase() });

/**
 * A comma-separated list ("a,b" matches either), each item checked by `rule`; a 400 names the
 * parameter and the first item that is not accepted. Blank (or only commas) means absent.
 */
export function listParam(query: Query, name: string, rule: ItemRule): string[] | undefined {
  const raw = optionalParam(query, name);
  if (raw === undefined) return undefined;
  const items = [...new Set(raw.split(',').map((item) => item.trim()).filter(Boolean).map((item) => rule.normalise?.(item) ?? item))];
  const refused = items.find((item) => !rule.accepts(item));
  if (refused !== undefined) throw badParameter(name, `${name} must be ${rule.expected} (comma-separated for any of several); '${refused}' is not.`);
  return items.length > 0 ? items : undefined;
}

/** `<name>[start]` and `<name>[end]` (ISO 8601, inclusive); undefined when neither is given. */
export function timeRangeParam(query: Query, name: string): TimeRange | undefined {
  const start = timeParam(query, `${name}[start]`);
  const end = timeParam(query, `${name}[end]`);
  if (start && end && start > end) throw badParameter(`${name}[start]`, `${name}[start] is after ${name}[end]: no instant is in that range.`);
  return start || end ? { start, end } : undefined;
}

/** An ISO 8601 timestamp parameter. */
export function timeParam(query: Query, name: string): Date | undefined {
  const value = optionalParam(query, name);
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw badParameter(name, `${name} must be an ISO 8601 date or date-time.`);
  }
  return date;
}
