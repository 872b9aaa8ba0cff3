// Carrier variations of the DCSA wire shapes, each read in one place. A variation is applied to
// a copy of an event before its wire schema (wire-v2.ts, wire-v3.ts) reads it; the event as the
// carrier sent it stays CarrierEvent.raw. Each entry says what carriers send, what it is read as,
// and where it was seen (the tests in test/carriers/dcsa-variations.test.ts hold each source).
//
// | variation                         | sent                                                    | read as                                   |
// | --------------------------------- | ------------------------------------------------------- | ----------------------------------------- |
// | event id spelling and numeric ids | `eventID: 123456789`, `eventId: 42`                      | eventID, the same digits as text          |
// | UN/LOCODE spelling                | `unLocationCode`, `UNLocode`, `unlocode`                | `UNLocationCode` (wherever it is nested)  |
// | terminal as an SMDG code          | `facilitySMDGCode: "ADT"`                               | facilityCode ADT of list SMDG             |
// | swapped event-type members        | `eventType: "LOAD"`, `equipmentEventTypeCode: "EQUIPMENT"` | swapped back, when unambiguous         |
// | 3.0.0-Beta-1 envelope             | `{ metadata: { eventID, eventType, … }, payload: {…} }` | the flat 2.x event it wraps               |
// | code named only in free text      | no code member, `description: "Gate out empty"`         | GTOT (EMPTY if no emptyIndicatorCode),    |
// |   (description-codes.ts)          |   or `eventDescription`; 2.2 flat or 3.0 classification |   only when the text names a single code  |
//
// Read elsewhere, listed here so the table is whole: a 2.2 answer wrapped as 3.0's
// `{ "events": [...] }` (Maersk documents its Track & Trace answer so; normalize.ts,
// readEventPage); a UTC offset written `+0100` or `+01:00`, or
// none (datetime.ts); a transport call's location at its root or nested in `location`
// (normalize-v2.ts, callPlace); the same event sent several times in an answer (normalize.ts,
// distinctEvents); one eventID for events of different types (normalize.ts, distinctEvents).

import { codeFromDescription, emptyIndicatorFromDescription } from './description-codes.ts';

export type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Members that hold a UN/LOCODE, in the spellings carriers use, and the one DCSA names. */
const LOCODE_SPELLINGS = ['unLocationCode', 'UNLocode', 'unLocode', 'unlocode', 'UnLocationCode'];

/** Objects of an event that may name a place: the event, its transport call and the locations in either. */
const PLACE_HOLDERS = ['transportCall', 'location', 'eventLocation'];

/** The event id spelt `eventId`, or sent as a number: read as eventID, the text the number is written with. */
function idsAsText(event: Json): Json {
  let out = event;
  if (out.eventID === undefined && out.eventId !== undefined) {
    const { eventId, ...rest } = out;
    out = { ...rest, eventID: eventId };
  }
  return typeof out.eventID === 'number' && Number.isFinite(out.eventID) ? { ...out, eventID: String(out.eventID) } : out;
}

/**
 * Another spelling of UNLocationCode, and a terminal given as DCSA's other standards name it
 * (`facilitySMDGCode`, as in DCSA OVS and JIT locations) rather than as a facility code and its
 * list: at the event's root, in its transport call or in a location (nested once more).
 */
function placeSpelling(event: Json): Json {
  const respell = (holder: Json, depth: number): Json => {
    let out = holder;
    for (const spelling of LOCODE_SPELLINGS) {
      if (out.UNLocationCode === undefined && typeof out[spelling] === 'string') {
        const { [spelling]: code, ...rest } = out;
        out = { ...rest, UNLocationCode: code };
      }
    }
    if (out.facilityCode === undefined && typeof out.facilitySMDGCode === 'string') {
      const { facilitySMDGCode, ...rest } = out;
      out = { ...rest, facilityCode: facilitySMDGCode, facilityCodeListProvider: 'SMDG' };
    }
    if (depth > 0) for (const key of PLACE_HOLDERS) if (isRecord(out[key])) out = { ...out, [key]: respell(out[key] as Json, depth - 1) };
    return out;
  };
  return respell(event, 2);
}

const TYPE_CODE_MEMBER: Record<string, string> = { TRANSPORT: 'transportEventTypeCode', EQUIPMENT: 'equipmentEventTypeCode', SHIPMENT: 'shipmentEventTypeCode' };

/**
 * eventType holding the code and the code member holding the type (`eventType: "LOAD"`,
 * `equipmentEventTypeCode: "EQUIPMENT"`). Swapped back only when exactly one code member holds
 * its own type's name: then which type and which code were meant is not in doubt.
 */
function swappedTypeMembers(event: Json): Json {
  if (typeof event.eventType !== 'string' || TYPE_CODE_MEMBER[event.eventType] !== undefined) return event;
  const swapped = Object.entries(TYPE_CODE_MEMBER).filter(([type, member]) => event[member] === type);
  if (swapped.length !== 1) return event;
  const [[type, member]] = swapped;
  return { ...event, eventType: type, [member]: event.eventType };
}

/** Members carriers put an event's free text in. */
const DESCRIPTION_SPELLINGS = ['description', 'eventDescription'];

const hasText = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

/**
 * A transport or equipment event without its code member whose free text names the code
 * (description-codes.ts), in 2.2's flat shape or 3.0's eventClassification. The text may also
 * say empty or laden, read when emptyIndicatorCode is missing. Text that names no code, another
 * type's or several leaves the event as it was, to be rejected for the missing code.
 */
function codeFromText(event: Json): Json {
  const text = DESCRIPTION_SPELLINGS.map((key) => event[key]).find(hasText) as string | undefined;
  if (text === undefined) return event;
  const classification = isRecord(event.eventClassification) ? event.eventClassification : undefined;
  const type = classification ? classification.eventTypeCode : event.eventType;
  if (type !== 'TRANSPORT' && type !== 'EQUIPMENT') return event;
  const member = TYPE_CODE_MEMBER[type];
  let out = event;
  if (!hasText((classification ?? event)[member])) {
    const code = codeFromDescription(text, type);
    if (code !== undefined) out = classification ? { ...out, eventClassification: { ...classification, [member]: code } } : { ...out, [member]: code };
  }
  if (type === 'EQUIPMENT') {
    const details = classification ? (isRecord(out.equipmentDetails) ? out.equipmentDetails : undefined) : out;
    const empty = emptyIndicatorFromDescription(text);
    if (details && empty && !hasText(details.emptyIndicatorCode)) {
      out = classification ? { ...out, equipmentDetails: { ...details, emptyIndicatorCode: empty } } : { ...out, emptyIndicatorCode: empty };
    }
  }
  return out;
}

/**
 * DCSA T&T 3.0.0-Beta-1 wrapped each event: `metadata` (eventID, eventCreatedDateTime, eventType,
 * retractedEventID) around a `payload` with the 2.x members. Read as the flat 2.x event.
 */
export function unwrapBeta1(event: unknown): Json | undefined {
  if (!isRecord(event) || !isRecord(event.metadata) || !isRecord(event.payload)) return undefined;
  const { eventID, eventCreatedDateTime, eventType } = event.metadata;
  return { ...event.payload, eventID, eventCreatedDateTime, eventType: eventType ?? event.payload.eventType };
}

/** Whether a Beta-1 event retracts another (the contract cannot carry retractions: see normalize.ts). */
export const isBeta1Retraction = (event: unknown): boolean => isRecord(event) && isRecord(event.metadata) && event.metadata.retractedEventID != null;

const VARIATIONS: ((event: Json) => Json)[] = [idsAsText, placeSpelling, swappedTypeMembers, codeFromText];

/** The event with every variation read; anything that is not an object is left for the schema to reject. */
export function readVariations(event: unknown): unknown {
  return isRecord(event) ? VARIATIONS.reduce((e, read) => read(e), event) : event;
}
