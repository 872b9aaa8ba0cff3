// DCSA Track & Trace payloads (2.2 or 3.0) → CarrierEvent[].
import type { CarrierEvent, RejectedCarrierEvent } from '../../domain/tracking/carrier-events.ts';
import { UnrecognizedResponseError } from './errors.ts';
import { fromEventV2 } from './normalize-v2.ts';
import { fromEventV3 } from './normalize-v3.ts';
import { isBeta1Retraction, readVariations, unwrapBeta1 } from './variations.ts';
import { parseEvent, type ParsedEvent } from './wire-common.ts';
import { eventV2 } from './wire-v2.ts';
import { eventV3 } from './wire-v3.ts';

export type DcsaVersion = '2.2' | '3.0';

/**
 * Normalises one page of events (or one callback body). 2.2 sends a bare array; 3.0 sends
 * `{ events: [...] }` (its spec also speaks of an empty array for no results, so a bare array
 * is accepted too). Either shape is read whatever the version: some 2.2 carriers wrap their list
 * as 3.0 does (a variation, listed in variations.ts). Events that cannot be read are left out;
 * throws UnrecognizedResponseError when the body is not a list of events, or none of its events
 * can be read.
 */
export function toCarrierEvents(json: unknown, version: DcsaVersion): CarrierEvent[] {
  const page = readEventPage(json, version);
  if (page.events.length === 0 && page.rejected.length > 0) throw nothingUsable(page.rejected);
  return page.events;
}

/** The error for an answer none of whose events could be read, naming the first reasons. */
export function nothingUsable(rejected: RejectedCarrierEvent[]): UnrecognizedResponseError {
  const reasons = rejected.slice(0, 3).map((r) => r.reason);
  return new UnrecognizedResponseError(`no usable event: ${reasons.join('; ')}${rejected.length > 3 ? ` (and ${rejected.length - 3} more)` : ''}`);
}

/** One page: the events read, those that could not be (each with its reason), and how many were received. */
export interface EventPage {
  events: CarrierEvent[];
  rejected: RejectedCarrierEvent[];
  /** Every event received, including those the contract cannot carry and those rejected. */
  received: number;
}

/** Reads each event on its own: one that cannot be read costs only itself. */
export function readEventPage(json: unknown, version: DcsaVersion): EventPage {
  const list: unknown[] | undefined = Array.isArray(json) ? json : isRecord(json) && Array.isArray(json.events) ? json.events : undefined;
  if (list === undefined) throw new UnrecognizedResponseError(`expected a JSON array of events or { "events": [...] }, got ${describe(json)}`);
  const page: EventPage = { events: [], rejected: [], received: list.length };
  list.forEach((raw, index) => {
    if ((version === '3.0' && outOfScopeV3(raw)) || isBeta1Retraction(raw)) return;
    const read = readEvent(raw, index, version);
    if (read.ok) page.events.push(read.event);
    else page.rejected.push(read.rejected);
  });
  page.events = distinctIds(page.events);
  return page;
}

/** One event, its carrier's variations read first (variations.ts); `raw` stays as sent. */
function readEvent(raw: unknown, index: number, version: DcsaVersion): ParsedEvent<CarrierEvent> {
  // A 3.0.0-Beta-1 envelope wraps a 2.x event, whatever version the endpoint is configured as.
  const beta1 = unwrapBeta1(raw);
  if (version === '2.2' || beta1) {
    const parsed = parseEvent(eventV2, readVariations(beta1 ?? raw), index);
    return parsed.ok ? { ok: true, event: fromEventV2(parsed.event, raw) } : { ok: false, rejected: { ...parsed.rejected, raw } };
  }
  const parsed = parseEvent(eventV3, readVariations(raw), index);
  return parsed.ok ? { ok: true, event: fromEventV3(parsed.event, raw) } : { ok: false, rejected: { ...parsed.rejected, raw } };
}

/**
 * One eventID on events of different types or codes (seen in DCSA's own conformance messages):
 * they are different events, and each keeps its own identity, the id and its kind, the same on
 * every poll. Events of the same kind under one id are versions of one event (applied by their
 * publication time) or the same event sent twice.
 */
function distinctIds(events: CarrierEvent[]): CarrierEvent[] {
  const kindOfId = new Map<string, string>();
  return events.map((e) => {
    const kind = `${e.type} ${e.code}`;
    const first = kindOfId.get(e.id);
    if (first === undefined) kindOfId.set(e.id, kind);
    return first === undefined || first === kind ? e : { ...e, id: `${e.id} ${kind}` };
  });
}

/**
 * 3.0 events the contract cannot carry: IOT and REEFER readings (no milestone, no CarrierEvent
 * type), and retractions (CarrierEvent has no way to say "forget event X"; until it does, a
 * retracted event simply drops out of the snapshot).
 */
function outOfScopeV3(raw: unknown): boolean {
  if (!isRecord(raw)) return false;
  if (raw.isRetracted === true) return true;
  const type = isRecord(raw.eventClassification) ? raw.eventClassification.eventTypeCode : undefined;
  return type === 'IOT' || type === 'REEFER';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? `an object with keys ${JSON.stringify(Object.keys(value).slice(0, 5))}` : `a ${typeof value}`;
}
