// Hand-made carrier events and snapshots for the tests of this folder, and a stand-in for the
// store: state goes through JSON as it does in the database, and emitted keys accumulate.
import type { CarrierEvent, CarrierSnapshot, ModeOfTransport, SnapshotContainer, TerminalStatus } from './carrier-events.ts';
import { diffSnapshot } from './diff.ts';
import type { Diff, DiffContext, PreviousState, VesselRef } from './types.ts';

const ZONES: Record<string, string> = {
  CNSHA: 'Asia/Shanghai',
  KRPUS: 'Asia/Seoul',
  SGSIN: 'Asia/Singapore',
  VNSGN: 'Asia/Ho_Chi_Minh',
  MAPTM: 'Africa/Casablanca',
  USSAV: 'America/New_York',
  MYPKG: 'Asia/Kuala_Lumpur',
  GBFXT: 'Europe/London',
  JPTYO: 'Asia/Tokyo',
  NLRTM: 'Europe/Amsterdam',
  USLAX: 'America/Los_Angeles',
  USCHI: 'America/Chicago',
};
export const ctx: DiffContext = { timezoneOf: (locode) => ZONES[locode] ?? null };

export interface EventSpec {
  id: string;
  code: string;
  at: string;
  locode: string | null;
  /** Defaults: TRANSPORT for ARRI/DEPA, EQUIPMENT otherwise. */
  type?: CarrierEvent['type'];
  container?: string;
  /** Equipment events are laden unless this says otherwise. */
  empty?: boolean;
  mode?: ModeOfTransport;
  vessel?: VesselRef;
  voyage?: string;
  classifier?: CarrierEvent['classifier'];
  /** When the carrier published it; defaults to `at`. */
  published?: string;
  utcOffset?: string | null;
  facility?: string;
  smdg?: string;
  iso?: string;
  seals?: string[];
  documentType?: string;
}

export function ev(s: EventSpec): CarrierEvent {
  const type = s.type ?? (s.code === 'ARRI' || s.code === 'DEPA' ? 'TRANSPORT' : 'EQUIPMENT');
  return {
    id: s.id,
    type,
    code: s.code,
    classifier: s.classifier ?? 'ACT',
    occurredAt: new Date(s.at),
    utcOffset: s.utcOffset === undefined ? 'Z' : s.utcOffset,
    publishedAt: new Date(s.published ?? s.at),
    equipmentReference: s.container ?? null,
    emptyIndicator: type === 'EQUIPMENT' ? (s.empty ? 'EMPTY' : 'LADEN') : null,
    locode: s.locode,
    facilitySmdgCode: s.smdg ?? null,
    facilityType: s.facility ?? null,
    modeOfTransport: s.mode ?? null,
    vessel: s.vessel ?? null,
    voyageNumber: s.voyage ?? null,
    transportCallSequence: null,
    isoEquipmentCode: s.iso ?? null,
    seals: s.seals ?? [],
    documentType: s.documentType ?? null,
    documentReferences: [],
    raw: null,
  };
}

export interface LegSpec {
  id: string;
  containers: readonly string[];
  /** Null for a barge the carrier names by its voyage only. */
  vessel: VesselRef | null;
  voyage: string;
  from: string;
  to: string;
  /** Load, departure, arrival and discharge times. */
  times: [string, string, string, string];
  mode?: ModeOfTransport;
  classifier?: CarrierEvent['classifier'];
}

/** A vessel leg as a carrier reports it: each container's load and discharge, the vessel's departure and arrival. */
export function vesselLeg(l: LegSpec): CarrierEvent[] {
  const common = { mode: l.mode ?? 'VESSEL', vessel: l.vessel ?? undefined, voyage: l.voyage, classifier: l.classifier } as const;
  const [load, dep, arr, disc] = l.times;
  return [
    ...l.containers.map((c) => ev({ ...common, id: `${l.id}-load-${c}`, code: 'LOAD', at: load, locode: l.from, container: c, facility: 'POTE' })),
    ev({ ...common, id: `${l.id}-depa`, code: 'DEPA', at: dep, locode: l.from }),
    ev({ ...common, id: `${l.id}-arri`, code: 'ARRI', at: arr, locode: l.to }),
    ...l.containers.map((c) => ev({ ...common, id: `${l.id}-disc-${c}`, code: 'DISC', at: disc, locode: l.to, container: c, facility: 'POTE' })),
  ];
}

export function snapshot(
  events: CarrierEvent[],
  opts: { containers?: SnapshotContainer[]; terminal?: TerminalStatus[]; fetchedAt?: string } = {},
): CarrierSnapshot {
  const numbers = [...new Set(events.flatMap((e) => (e.equipmentReference ? [e.equipmentReference] : [])))];
  return {
    scac: 'MAEU',
    billOfLadingNumber: 'BL123',
    bookingNumber: null,
    containers: opts.containers ?? numbers.map((number) => ({ number, isoEquipmentCode: null, sealNumber: null, weightKg: null })),
    events,
    terminal: opts.terminal ?? [],
    fetchedAt: new Date(opts.fetchedAt ?? '2026-06-01T00:00:00Z'),
  };
}

export function terminalReport(container: string, observedAt: string, over: Partial<TerminalStatus> = {}): TerminalStatus {
  return {
    containerNumber: container,
    terminalCode: 'Y258',
    availableForPickup: null,
    holds: [],
    fees: [],
    lastFreeDay: null,
    pickupAppointmentAt: null,
    observedAt: new Date(observedAt),
    ...over,
  };
}

export const nothingStored = (): PreviousState => ({ shipment: null, containers: [], emittedKeys: new Set(), emittedEvents: new Map() });

/**
 * Runs the diff and stores its result as the service does: state through JSON, keys kept, and
 * the record under a key renamed when the diff corrects it (one record per key).
 */
export function apply(stored: PreviousState, snap: CarrierSnapshot): { diff: Diff; stored: PreviousState } {
  const diff = diffSnapshot(stored, snap, ctx);
  const events = new Map(stored.emittedEvents ?? []);
  for (const e of diff.transportEvents) events.set(e.key, e.event);
  return {
    diff,
    stored: {
      shipment: JSON.parse(JSON.stringify(diff.shipment)),
      containers: JSON.parse(JSON.stringify(diff.containers.map((c) => c.state))),
      emittedKeys: new Set([...stored.emittedKeys, ...diff.transportEvents.map((e) => e.key)]),
      ...(stored.emittedEvents ? { emittedEvents: events } : {}),
    },
  };
}

/** What the store holds after these diffs: one event name per key (the latest, after corrections). */
export function recorded(diffs: Diff[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of diffs) for (const e of d.transportEvents) out.set(e.key, e.event);
  return out;
}

/** Feeds snapshots one after another, as successive polls. */
export function feed(...snaps: CarrierSnapshot[]): { diffs: Diff[]; stored: PreviousState } {
  return feedFrom(nothingStored(), ...snaps);
}

/** The same from a given store, e.g. one that does not report recorded names (no corrections). */
export function feedFrom(start: PreviousState, ...snaps: CarrierSnapshot[]): { diffs: Diff[]; stored: PreviousState } {
  let stored = start;
  const diffs: Diff[] = [];
  for (const s of snaps) {
    const step = apply(stored, s);
    diffs.push(step.diff);
    stored = step.stored;
  }
  return { diffs, stored };
}

/** A permutation driven by a seed (a small LCG), so fast-check can shrink and replay it. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const k = s % (i + 1);
    [out[i], out[k]] = [out[k], out[i]];
  }
  return out;
}
