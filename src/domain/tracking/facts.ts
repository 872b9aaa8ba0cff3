// Reading carrier events: which of several to believe, which vessel and kind of move they
// concern, and their times re-read in the location's zone when the carrier wrote no offset.
import type { CarrierEvent, ModeOfTransport } from './carrier-events.ts';
import { wallTimeInZone } from './time.ts';

const CLASSIFIER_RANK = { ACT: 0, EST: 1, PLN: 2 } as const;

/**
 * Orders events so the one to believe comes first: actual before estimated before planned, then
 * the most recently published (a carrier correcting an earlier record, possibly under a new
 * event id), then the later occurrence, then the id. The order is total, so no choice depends
 * on the order the carrier listed its events in.
 */
export function byPreference(a: CarrierEvent, b: CarrierEvent): number {
  return (
    CLASSIFIER_RANK[a.classifier] - CLASSIFIER_RANK[b.classifier] ||
    b.publishedAt.getTime() - a.publishedAt.getTime() ||
    b.occurredAt.getTime() - a.occurredAt.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

export function preferred(events: readonly CarrierEvent[]): CarrierEvent | null {
  let best: CarrierEvent | null = null;
  for (const e of events) if (best === null || byPreference(e, best) < 0) best = e;
  return best;
}

/** The time of the most believable of these events. */
export function believedTime(events: readonly CarrierEvent[]): Date | null {
  return preferred(events)?.occurredAt ?? null;
}

export function isOceanMode(mode: ModeOfTransport | null): boolean {
  return mode === 'VESSEL' || mode === 'BARGE';
}

/** A vessel or barge carrying the cargo: its arrival or departure, or the container's load or discharge. */
export function isOceanMove(e: CarrierEvent): boolean {
  if (!isOceanMode(e.modeOfTransport)) return false;
  if (e.type === 'TRANSPORT') return e.code === 'ARRI' || e.code === 'DEPA';
  // An empty box moved by vessel is repositioning, not this cargo's journey.
  return e.type === 'EQUIPMENT' && (e.code === 'LOAD' || e.code === 'DISC') && e.emptyIndicator !== 'EMPTY';
}

/** LOAD and DEPA leave a port; ARRI and DISC reach one. */
export function leavesPort(e: CarrierEvent): boolean {
  return e.code === 'LOAD' || e.code === 'DEPA';
}

function vesselName(e: CarrierEvent): string | null {
  return e.vessel?.name?.trim().toUpperCase().replace(/\s+/g, ' ') || null;
}

/**
 * Names the vessel of an event so the legs of a journey can be told apart: its IMO number, else
 * the IMO another event gave for the same name, else the name, else the voyage number.
 */
export function vesselKeyer(events: readonly CarrierEvent[]): (e: CarrierEvent) => string | null {
  const imosByName = new Map<string, Set<string>>();
  for (const e of events) {
    const name = vesselName(e);
    const imo = e.vessel?.imo?.trim();
    if (name && imo) imosByName.set(name, (imosByName.get(name) ?? new Set()).add(imo));
  }
  return (e) => {
    const imo = e.vessel?.imo?.trim();
    if (imo) return `imo:${imo}`;
    const name = vesselName(e);
    if (name) {
      const imos = imosByName.get(name);
      return imos?.size === 1 ? `imo:${[...imos][0]}` : `name:${name}`;
    }
    return e.voyageNumber?.trim() ? `voyage:${e.voyageNumber.trim()}` : null;
  };
}

/**
 * A time the carrier wrote without an offset reaches us read as UTC (carriers/dcsa/datetime.ts),
 * but it was the location's wall clock, so it is re-read in the location's zone when we know it.
 * Without a zone it stays as it is: local wall time shown as UTC, as the reference service does.
 */
export function withLocalTimes(events: readonly CarrierEvent[], timezoneOf: (locode: string) => string | null): CarrierEvent[] {
  return events.map((e) => {
    if (e.utcOffset !== null || e.locode === null) return e;
    const zone = timezoneOf(e.locode);
    return zone ? { ...e, occurredAt: wallTimeInZone(e.occurredAt, zone) } : e;
  });
}

/**
 * An event sent without a place takes the place of its transport call when the carrier's other
 * events of that call agree on one (UN/LOCODE, terminal and facility type): a call is one visit
 * to one facility. Where they disagree, or no other event of the call names a place, it stays
 * without one and gives no milestone, as a place cannot be guessed.
 */
export function withCallPlaces(events: readonly CarrierEvent[]): readonly CarrierEvent[] {
  if (!events.some((e) => e.locode === null && e.transportCallId)) return events;
  const places = new Map<string, Pick<CarrierEvent, 'locode' | 'facilitySmdgCode' | 'facilityType'> | 'ambiguous'>();
  for (const e of events) {
    if (!e.transportCallId || e.locode === null) continue;
    const known = places.get(e.transportCallId);
    const place = { locode: e.locode, facilitySmdgCode: e.facilitySmdgCode, facilityType: e.facilityType };
    if (known === undefined) places.set(e.transportCallId, place);
    else if (known === 'ambiguous') continue;
    else if (known.locode !== place.locode || (known.facilitySmdgCode && place.facilitySmdgCode && known.facilitySmdgCode !== place.facilitySmdgCode)) {
      places.set(e.transportCallId, 'ambiguous');
    } else {
      // The fuller record of the same place, whichever event came first.
      places.set(e.transportCallId, { locode: known.locode, facilitySmdgCode: known.facilitySmdgCode ?? place.facilitySmdgCode, facilityType: known.facilityType ?? place.facilityType });
    }
  }
  return events.map((e) => {
    if (e.locode !== null || !e.transportCallId) return e;
    const place = places.get(e.transportCallId);
    return place === undefined || place === 'ambiguous' ? e : { ...e, ...place };
  });
}
