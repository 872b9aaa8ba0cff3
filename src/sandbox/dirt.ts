// What makes the sandbox's carriers as untidy as real ones. Each event may be sent with one
// quirk seen in real DCSA answers; some are listed twice in one answer, some are sent again
// later under a new event id. Late and out-of-order publication is the event maker's (lags and
// a share of events a day or more late). The choice is seeded by the event's id, so a journey
// is as dirty on every machine and after every restart, and the ground truth can say which
// milestones a user should still see.
//
// | quirk          | on the wire                                                          | svc reads it (where)                   |
// | -------------- | -------------------------------------------------------------------- | -------------------------------------- |
// | repeated       | the same event twice in one answer                                   | one event (normalize.ts)               |
// | reissued       | an actual event sent again, hours later, under a new eventID         | one milestone (milestone keys)         |
// | respelt        | `eventId`, `unLocationCode` or `facilitySMDGCode`                    | variations.ts                          |
// | swapped        | eventType holds the code and the code member the type                | variations.ts                          |
// | offset-none    | eventDateTime in local wall time with no offset                      | the place's zone (facts.ts)            |
// | offset-utc     | eventDateTime in UTC                                                 | datetime.ts                            |
// | offset-compact | an offset written `+0800`                                            | datetime.ts                            |
// | placeless      | no UN/LOCODE, facility or location anywhere; the transport call id kept | its call's place (facts.ts), else none |
// | bad-imo        | a vessel IMO number whose check digit fails                          | not shown (fields.ts)                  |
import { stableId } from '../refdata/ids.ts';
import { byPublication } from './event-maker.ts';
import type { JourneyEvent, Quirk } from './journey.ts';
import { Prng } from './prng.ts';

/** The share of events sent each way; each event gets at most one quirk besides `repeated`. */
export interface DirtRates {
  repeated: number;
  reissued: number;
  respelt: number;
  swapped: number;
  offset: number;
  placeless: number;
  badImo: number;
}

/**
 * Shares in the range real feeds show: repeats and respellings are common, swapped members,
 * missing places and mistyped IMO numbers rare. No carrier publishes its error rates; these are
 * set so a journey of thirty events usually carries two or three quirks.
 */
export const REALISTIC_DIRT: DirtRates = { repeated: 0.03, reissued: 0.01, respelt: 0.04, swapped: 0.005, offset: 0.03, placeless: 0.01, badImo: 0.005 };

export const NO_DIRT: DirtRates = { repeated: 0, reissued: 0, respelt: 0, swapped: 0, offset: 0, placeless: 0, badImo: 0 };

/** The events as the carrier will send them: each with its quirks, and the reissued copies. */
export function dirty(events: readonly JourneyEvent[], rates: DirtRates): JourneyEvent[] {
  if (Object.values(rates).every((rate) => rate === 0)) return [...events];
  const out: JourneyEvent[] = [];
  for (const e of events) {
    const rng = new Prng('sandbox-dirt/1', e.id);
    const quirks: Quirk[] = rng.chance(rates.repeated) ? ['repeated'] : [];
    const quirk = oneQuirk(e, rng, rates);
    if (quirk) quirks.push(quirk);
    out.push({ ...e, quirks });
    if (e.classifier === 'ACT' && e.type !== 'SHIPMENT' && rng.chance(rates.reissued)) {
      const publishedAt = new Date(e.publishedAt.getTime() + Math.round(rng.between(1, 24) * 3600) * 1000);
      out.push({ ...e, id: stableId('sandbox-reissue', e.id), milestones: [], publishedAt, quirks: [], reissueOf: e.id });
    }
  }
  return out.sort(byPublication);
}

function oneQuirk(e: JourneyEvent, rng: Prng, rates: DirtRates): Quirk | null {
  const hasPlace = e.type !== 'SHIPMENT';
  const choices: [Quirk, number][] = [
    ['respelt', rates.respelt],
    ['swapped', e.classifier === 'ACT' && e.type !== 'SHIPMENT' ? rates.swapped : 0],
    [rng.pick(['offset-none', 'offset-utc', 'offset-compact'] as const), hasPlace ? rates.offset : 0],
    ['placeless', e.classifier === 'ACT' && hasPlace ? rates.placeless : 0],
    ['bad-imo', e.leg?.vessel ? rates.badImo : 0],
  ];
  let roll = rng.next();
  for (const [quirk, share] of choices) {
    if (roll < share) return quirk;
    roll -= share;
  }
  return null;
}

type Wire = Record<string, unknown>;

const isRecord = (v: unknown): v is Wire => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A wire event as its quirk has the carrier send it (`repeated` is the answer's, not the event's). */
export function withQuirks(wire: Wire, e: JourneyEvent): Wire {
  let out = wire;
  for (const quirk of e.quirks) out = QUIRKS[quirk](out, e);
  return out;
}

const TYPE_CODE_MEMBER = { TRANSPORT: 'transportEventTypeCode', EQUIPMENT: 'equipmentEventTypeCode', SHIPMENT: 'shipmentEventTypeCode' } as const;

/** Renames `from` to `to` in an object and the place holders nested in it. */
function rename(holder: Wire, from: string, to: string): Wire {
  const out: Wire = {};
  for (const [key, value] of Object.entries(holder)) {
    const name = key === from ? to : key;
    out[name] = isRecord(value) && ['transportCall', 'location', 'eventLocation'].includes(key) ? rename(value, from, to) : value;
  }
  return out;
}

/** Drops every member naming the place, at any depth of the event's place holders. */
function withoutPlace(holder: Wire): Wire {
  const out: Wire = {};
  for (const [key, value] of Object.entries(holder)) {
    if (['UNLocationCode', 'facilityCode', 'facilityCodeListProvider', 'otherFacility', 'location', 'eventLocation'].includes(key)) continue;
    out[key] = key === 'transportCall' && isRecord(value) ? withoutPlace(value) : value;
  }
  return out;
}

const QUIRKS: Record<Quirk, (wire: Wire, e: JourneyEvent) => Wire> = {
  repeated: (wire) => wire,
  respelt: (wire, e) => {
    const way = new Prng('sandbox-dirt/respelt', e.id).int(0, e.type === 'SHIPMENT' ? 0 : e.facility?.smdgCode ? 2 : 1);
    if (way === 0) return rename(wire, 'eventID', 'eventId');
    if (way === 1) return rename(wire, 'UNLocationCode', 'unLocationCode');
    const smdg = (holder: Wire): Wire => {
      const { facilityCode, facilityCodeListProvider: _list, ...rest } = holder;
      const out: Wire = facilityCode === undefined ? holder : { ...rest, facilitySMDGCode: facilityCode };
      for (const key of ['transportCall', 'location', 'eventLocation']) if (isRecord(out[key])) out[key] = smdg(out[key] as Wire);
      return out;
    };
    return smdg(wire);
  },
  swapped: (wire, e) => {
    const member = TYPE_CODE_MEMBER[e.type];
    return { ...wire, eventType: wire[member], [member]: wire.eventType };
  },
  'offset-none': (wire) => ({ ...wire, eventDateTime: String(wire.eventDateTime).replace(/(Z|[+-]\d{2}:\d{2})$/, '') }),
  'offset-utc': (wire, e) => ({ ...wire, eventDateTime: `${e.occurredAt.toISOString().slice(0, 19)}Z` }),
  'offset-compact': (wire) => ({ ...wire, eventDateTime: String(wire.eventDateTime).replace(/([+-]\d{2}):(\d{2})$/, '$1$2') }),
  placeless: (wire) => withoutPlace(wire),
  'bad-imo': (wire) => {
    const call = wire.transportCall as Wire;
    const vessel = call.vessel as Wire;
    const imo = String(vessel.vesselIMONumber);
    const mistyped = imo.slice(0, 6) + String((Number(imo[6]) + 1) % 10);
    return { ...wire, transportCall: { ...call, vessel: { ...vessel, vesselIMONumber: mistyped } } };
  },
};

/**
 * Whether svc can place an actual event sent without a place, as of `now`: only when another
 * event of the same transport call, or the event's own reissue, published by then, names it.
 */
export function placeKnownFromCall(e: JourneyEvent, events: readonly JourneyEvent[], callIdOf: (e: JourneyEvent) => string | null, now: Date): boolean {
  const call = callIdOf(e);
  return events.some((o) => o !== e && !o.quirks.includes('placeless') && o.publishedAt <= now && (o.reissueOf === e.id || (call !== null && callIdOf(o) === call)));
}
