// DCSA Track & Trace payloads (2.2 or 3.0) → CarrierEvent[].
import type { CarrierEvent } from '../../domain/tracking/carrier-events.ts';
import { UnrecognizedResponseError } from './errors.ts';
import { fromEventV2 } from './normalize-v2.ts';
import { fromEventV3 } from './normalize-v3.ts';
import { parseEvent } from './wire-common.ts';
import { eventV2 } from './wire-v2.ts';
import { eventV3 } from './wire-v3.ts';

export type DcsaVersion = '2.2' | '3.0';

/**
 * Normalises one page of events (or one callback body). 2.2 sends a bare array; 3.0 sends
 * `{ events: [...] }` (its spec also speaks of an empty array for no results, so a bare array
 * is accepted too). Throws UnrecognizedResponseError naming the first event and member at fault.
 */
export function toCarrierEvents(json: unknown, version: DcsaVersion): CarrierEvent[] {
  return readEventPage(json, version).events;
}

/** Like toCarrierEvents, also counting the events received, including those the contract cannot carry. */
export function readEventPage(json: unknown, version: DcsaVersion): { events: CarrierEvent[]; received: number } {
  if (version === '2.2') {
    if (!Array.isArray(json)) throw new UnrecognizedResponseError(`expected a JSON array of events, got ${describe(json)}`);
    return { events: json.map((raw, index) => fromEventV2(parseEvent(eventV2, raw, index), raw)), received: json.length };
  }
  const list: unknown[] | undefined = Array.isArray(json) ? json : isRecord(json) && Array.isArray(json.events) ? json.events : undefined;
  if (list === undefined) throw new UnrecognizedResponseError(`expected { "events": [...] }, got ${describe(json)}`);
  const events = list.flatMap((raw, index) => (outOfScopeV3(raw) ? [] : [fromEventV3(parseEvent(eventV3, raw, index), raw)]));
  return { events, received: list.length };
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
