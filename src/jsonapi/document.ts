// The JSON:API document shapes svc produces.
import { memoize } from '../domain/memoize.ts';
export interface Identifier {
  type: string;
  id: string;
}

export interface Relationship {
  data: Identifier | null | Identifier[];
}

export interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, Relationship>;
  /** self, and any other links of the record (a document's download). */
  links?: { self: string; [name: string]: string };
}

export interface Links {
  self?: string;
  current?: string;
  first?: string;
  prev?: string;
  next?: string;
  last?: string;
}

export interface PageMeta {
  size: number;
  total: number;
  /** Present (true) when the list holds more than `total` records: the count stopped at a bound. */
  total_is_lower_bound?: true;
  pagination: { current: number; next?: number; last: number; records: number };
}

export interface Document {
  data: Resource | Resource[] | null;
  included?: Resource[];
  links?: Links;
  meta?: Record<string, unknown> | PageMeta;
}

export const toOne = (type: string, id: string | null | undefined): Relationship => ({ data: id ? { type, id } : null });
export const toMany = (type: string, ids: string[]): Relationship => ({ data: ids.map((id) => ({ type, id })) });

// Date.prototype.toISOString costs about twenty times a Map lookup, and a document repeats its
// dates (events recorded together share created_at) as do requests for the same records. An
// invalid date still throws, and is not remembered.
const isoOfTime = memoize((time: number) => new Date(time).toISOString(), 50_000);

/** ISO 8601 in UTC with a Z, or null. */
export const iso = (d: Date | null | undefined): string | null => (d ? isoOfTime(d.getTime()) : null);
