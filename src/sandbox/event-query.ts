// GET /v2/events query parameters (DCSA T&T 2.2) and the event filters they share with push
// subscriptions: comma-separated lists are OR, different parameters AND; eventCreatedDateTime
// takes the :gte/:gt/:lte/:lt/:eq operators; limit and an opaque cursor page through the result.
import type { NumberType } from '../carriers/types.ts';
import { transportCallId } from './dcsa-serialise.ts';
import type { JourneyEvent } from './journey.ts';

const EVENT_TYPES = ['SHIPMENT', 'TRANSPORT', 'EQUIPMENT'] as const;
// 2.2's shipment codes plus PENC and CANC from 2.3: the sandbox cancels bookings with CANC.
const SHIPMENT_CODES = ['RECE', 'DRFT', 'PENA', 'PENU', 'PENC', 'REJE', 'APPR', 'ISSU', 'SURR', 'SUBM', 'VOID', 'CONF', 'REQS', 'CMPL', 'HOLD', 'RELS', 'CANC'] as const;
const DOCUMENT_TYPES = ['CBR', 'BKG', 'SHI', 'SRM', 'TRD', 'ARN', 'VGM', 'CAS', 'CUS', 'DGD', 'OOG'] as const;
const TRANSPORT_CODES = ['ARRI', 'DEPA'] as const;
const EQUIPMENT_CODES = ['LOAD', 'DISC', 'GTIN', 'GTOT', 'STUF', 'STRP', 'PICK', 'DROP', 'INSP', 'RSEA', 'RMVD'] as const;

/** Filters on the events themselves (the number references are resolved to a journey first). */
export interface EventFilter {
  eventType?: string[];
  shipmentEventTypeCode?: string[];
  documentTypeCode?: string[];
  transportEventTypeCode?: string[];
  equipmentEventTypeCode?: string[];
  UNLocationCode?: string;
  vesselIMONumber?: string;
  exportVoyageNumber?: string;
  carrierServiceCode?: string;
  transportCallID?: string;
}

export interface References {
  carrierBookingReference?: string;
  transportDocumentReference?: string;
  equipmentReference?: string;
}

/** The number type each reference parameter carries. */
export const REFERENCE_TYPES: Readonly<Record<keyof References, NumberType>> = {
  carrierBookingReference: 'booking_number',
  transportDocumentReference: 'bill_of_lading',
  equipmentReference: 'container',
};

/**
 * Whether an event passes the filters. A type-specific code filter (shipmentEventTypeCode…) only
 * matches events of that type, so contradicting filters give an empty list, as DCSA specifies.
 * `container`: only that box's equipment events and the transport calls it is on.
 */
export function matchesFilter(e: JourneyEvent, f: EventFilter, container: string | null): boolean {
  if (container !== null) {
    if (e.type === 'SHIPMENT') return false;
    if (e.type === 'EQUIPMENT' && e.container !== container) return false;
    if (e.type === 'TRANSPORT' && !e.containers.includes(container)) return false;
  }
  if (f.eventType && !f.eventType.includes(e.type)) return false;
  if (f.shipmentEventTypeCode && !(e.type === 'SHIPMENT' && f.shipmentEventTypeCode.includes(e.code))) return false;
  if (f.documentTypeCode && !(e.type === 'SHIPMENT' && f.documentTypeCode.includes(e.document!.type))) return false;
  if (f.transportEventTypeCode && !(e.type === 'TRANSPORT' && f.transportEventTypeCode.includes(e.code))) return false;
  if (f.equipmentEventTypeCode && !(e.type === 'EQUIPMENT' && f.equipmentEventTypeCode.includes(e.code))) return false;
  if (f.UNLocationCode && e.facility?.place.locode !== f.UNLocationCode) return false;
  if (f.vesselIMONumber && e.leg?.vessel?.imo !== f.vesselIMONumber) return false;
  if (f.exportVoyageNumber && e.leg?.voyage !== f.exportVoyageNumber) return false;
  if (f.carrierServiceCode && e.leg?.serviceCode !== f.carrierServiceCode) return false;
  if (f.transportCallID && transportCallId(e) !== f.transportCallID) return false;
  return true;
}

type CreatedOperator = 'gte' | 'gt' | 'lte' | 'lt' | 'eq';

export interface EventsQuery {
  references: References;
  filter: EventFilter;
  created: { operator: CreatedOperator; at: number }[];
  sort: { field: 'eventCreatedDateTime' | 'eventDateTime'; descending: boolean }[];
  limit: number;
  offset: number;
  /** The parameters that define the result, carried inside every cursor. */
  params: Record<string, string>;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const LISTS: Record<string, readonly string[]> = {
  eventType: EVENT_TYPES,
  shipmentEventTypeCode: SHIPMENT_CODES,
  documentTypeCode: DOCUMENT_TYPES,
  transportEventTypeCode: TRANSPORT_CODES,
  equipmentEventTypeCode: EQUIPMENT_CODES,
};
const SINGLES = ['UNLocationCode', 'vesselIMONumber', 'exportVoyageNumber', 'carrierServiceCode', 'transportCallID'] as const;
/** Deprecated 2.2 names, still accepted. */
const ALIASES: Record<string, string> = { bookingReference: 'carrierBookingReference', carrierVoyageNumber: 'exportVoyageNumber' };

export class QueryError extends Error {
  override name = 'QueryError';
}

/** A CSV list parameter, each value checked against its DCSA code list. */
function parseList(name: string, value: string | string[]): string[] {
  const allowed = LISTS[name];
  const values = (Array.isArray(value) ? value : value.split(',')).map((v) => v.trim()).filter(Boolean);
  const wrong = values.find((v) => !allowed.includes(v));
  if (wrong !== undefined) throw new QueryError(`${name}: '${wrong}' is not one of ${allowed.join(', ')}`);
  return values;
}

/** Event filters from a plain object (query parameters or a subscription body). */
export function parseFilter(source: Record<string, unknown>): EventFilter {
  const filter: EventFilter = {};
  for (const name of Object.keys(LISTS)) {
    const value = source[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string' && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
      throw new QueryError(`${name} must be a list of codes`);
    }
    (filter as Record<string, string[]>)[name] = parseList(name, value);
  }
  for (const name of SINGLES) {
    const value = source[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') throw new QueryError(`${name} must be a string`);
    filter[name] = value;
  }
  return filter;
}

/** `eventCreatedDateTime:gte=2026-03-01T10:00:00+01:00`; a bare name means :eq. */
function parseCreated(params: Record<string, string>): EventsQuery['created'] {
  const out: EventsQuery['created'] = [];
  for (const [key, raw] of Object.entries(params)) {
    const m = /^eventCreatedDateTime(?::(gte|gt|lte|lt|eq))?$/.exec(key);
    if (!m) continue;
    const value = raw.trim();
    const at = Date.parse(value);
    if (!ISO_DATE_TIME.test(value) || Number.isNaN(at)) throw new QueryError(`${key}: '${raw}' is not an ISO 8601 date-time with an offset`);
    out.push({ operator: (m[1] ?? 'eq') as CreatedOperator, at });
  }
  return out;
}

function parseSort(value: string | undefined): EventsQuery['sort'] {
  if (!value) return [];
  return value.split(',').map((part) => {
    const [field, direction = 'ASC'] = part.trim().split(':');
    if (field !== 'eventCreatedDateTime' && field !== 'eventDateTime') throw new QueryError(`sort: the sandbox sorts by eventCreatedDateTime or eventDateTime, not '${field}'`);
    if (direction !== 'ASC' && direction !== 'DESC') throw new QueryError(`sort: direction must be ASC or DESC, not '${direction}'`);
    return { field, descending: direction === 'DESC' };
  });
}

export function encodeCursor(params: Record<string, string>, offset: number): string {
  return Buffer.from(JSON.stringify({ p: params, o: offset })).toString('base64url');
}

function decodeCursor(cursor: string): { params: Record<string, string>; offset: number } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p?: unknown; o?: unknown };
    const params = parsed.p;
    if (typeof params === 'object' && params !== null && Number.isInteger(parsed.o) && (parsed.o as number) >= 0) {
      if (Object.values(params).every((v) => typeof v === 'string')) return { params: params as Record<string, string>, offset: parsed.o as number };
    }
  } catch {
    // fall through to the error below
  }
  throw new QueryError('cursor: not a cursor this server issued');
}

/** Parses GET /v2/events parameters; with a cursor, the cursor's own parameters define the page. */
export function parseEventsQuery(raw: Record<string, string>): EventsQuery {
  let params: Record<string, string> = {};
  let offset = 0;
  if (raw.cursor !== undefined) {
    ({ params, offset } = decodeCursor(raw.cursor));
  } else {
    for (const [key, value] of Object.entries(raw)) params[Object.hasOwn(ALIASES, key) ? ALIASES[key] : key] = value;
  }
  const limitText = params.limit ?? DEFAULT_LIMIT.toString();
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || limit < 1) throw new QueryError(`limit: '${limitText}' is not a whole number of at least 1`);
  const references: References = {};
  for (const name of Object.keys(REFERENCE_TYPES) as (keyof References)[]) {
    if (params[name]) references[name] = params[name];
  }
  return {
    references,
    filter: parseFilter(params),
    created: parseCreated(params),
    sort: parseSort(params.sort),
    limit: Math.min(limit, MAX_LIMIT),
    offset,
    params,
  };
}

export function matchesCreated(e: JourneyEvent, created: EventsQuery['created']): boolean {
  const t = e.publishedAt.getTime();
  return created.every(({ operator, at }) => {
    switch (operator) {
      case 'gte':
        return t >= at;
      case 'gt':
        return t > at;
      case 'lte':
        return t <= at;
      case 'lt':
        return t < at;
      case 'eq':
        return t === at;
    }
  });
}

/** Sorts in place by the asked fields; the sort is stable, so ties keep the journey's publication order. */
export function sortEvents(events: JourneyEvent[], sort: EventsQuery['sort']): void {
  if (sort.length === 0) return;
  const time = (e: JourneyEvent, field: EventsQuery['sort'][number]['field']) => (field === 'eventCreatedDateTime' ? e.publishedAt : e.occurredAt).getTime();
  events.sort((a, b) => {
    for (const { field, descending } of sort) {
      const d = time(a, field) - time(b, field);
      if (d !== 0) return descending ? -d : d;
    }
    return 0;
  });
}
