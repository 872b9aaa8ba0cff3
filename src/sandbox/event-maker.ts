// Turns the planner's decisions into journey events: stable ids, and a publication time for each
// — minutes to hours after the fact, now and then a day late, so events arrive out of order the
// way they do from real carriers.
import { HOUR, MINUTE } from '../domain/time-units.ts';
import { stableId } from '../refdata/ids.ts';
import type { Facility, Journey, JourneyEvent, Leg } from './journey.ts';
import type { Prng } from './prng.ts';

/** Share of events a carrier publishes late (half a day to nearly two days). */
const LATE_SHARE = 0.06;

/** Publication delay in minutes [shortest, longest] by source: rail systems and yards report slower. */
function lagRange(code: string, mode: string | null): [number, number] {
  if (mode === 'RAIL') return [30, 480];
  if (code === 'DEPA' || code === 'ARRI') return [10, 180];
  if (code === 'LOAD' || code === 'DISC') return [15, 360];
  return [5, 240];
}

export class EventMaker {
  readonly #journey: Journey;
  readonly #lag: Prng;
  readonly #manifest: Date | null;
  readonly #events: JourneyEvent[] = [];
  readonly #keys = new Map<string, number>();

  /** `manifest`: nothing is published before it (a B/L the carrier manifests late). */
  constructor(journey: Journey, lag: Prng, manifest: Date | null) {
    this.#journey = journey;
    this.#lag = lag;
    this.#manifest = manifest;
  }

  /** Shipment events carry eventDateTime equal to eventCreatedDateTime (DCSA 2.2). */
  shipment(code: string, type: 'BKG' | 'TRD' | 'SRM', id: string, when: Date): void {
    const publishedAt = this.#gate(toSecond(when.getTime()));
    this.#add({ type: 'SHIPMENT', code, classifier: 'ACT', occurredAt: publishedAt, publishedAt, document: { type, id } });
  }

  equipment(
    code: string,
    container: string,
    when: Date,
    facility: Facility,
    emptyIndicator: 'EMPTY' | 'LADEN',
    milestones: string[],
    leg: Leg | null = null,
    legEnd: 'from' | 'to' | null = null,
  ): void {
    this.#add({
      type: 'EQUIPMENT',
      code,
      classifier: 'ACT',
      occurredAt: when,
      publishedAt: this.#publication(when, code, leg?.mode ?? null),
      milestones,
      container,
      facility,
      leg,
      legEnd,
      emptyIndicator,
    });
  }

  transport(code: 'ARRI' | 'DEPA', leg: Leg, legEnd: 'from' | 'to', when: Date, containers: string[], milestones: string[]): void {
    this.#add({
      type: 'TRANSPORT',
      code,
      classifier: 'ACT',
      occurredAt: when,
      publishedAt: this.#publication(when, code, leg.mode),
      milestones,
      containers,
      facility: legEnd === 'from' ? leg.from : leg.to,
      leg,
      legEnd,
    });
  }

  estimate(
    code: 'ARRI' | 'DEPA',
    classifier: 'EST' | 'PLN',
    leg: Leg,
    legEnd: 'from' | 'to',
    when: Date,
    publishedAt: Date,
    estimate: string,
    remark: { code: string; text: string } | null = null,
  ): void {
    this.#add({
      type: 'TRANSPORT',
      code,
      classifier,
      occurredAt: when,
      publishedAt: this.#gate(toSecond(publishedAt.getTime())),
      estimate,
      containers: this.#journey.containers.map((c) => c.number),
      facility: legEnd === 'from' ? leg.from : leg.to,
      leg,
      legEnd,
      delayReasonCode: remark?.code ?? null,
      changeRemark: remark?.text ?? null,
    });
  }

  /** Every event in publication order (ties by occurrence, then id, so the order is total). */
  ordered(): JourneyEvent[] {
    return [...this.#events].sort(byPublication);
  }

  #publication(when: Date, code: string, mode: string | null): Date {
    const [min, max] = lagRange(code, mode);
    let lag = this.#lag.skewed(min, max) * MINUTE;
    if (this.#lag.chance(LATE_SHARE)) lag += this.#lag.between(10, 40) * HOUR;
    return this.#gate(toSecond(when.getTime() + lag));
  }

  #gate(publishedAt: Date): Date {
    return this.#manifest && publishedAt < this.#manifest ? this.#manifest : publishedAt;
  }

  #add(fields: Partial<JourneyEvent> & Pick<JourneyEvent, 'type' | 'code' | 'classifier' | 'occurredAt' | 'publishedAt'>): void {
    const base = [fields.type, fields.code, fields.classifier, fields.container ?? '-', fields.leg?.index ?? '-', fields.legEnd ?? '-'].join('/');
    const n = this.#keys.get(base) ?? 0;
    this.#keys.set(base, n + 1);
    const { scac, number } = this.#journey;
    this.#events.push({
      id: stableId('sandbox-event', `${scac}:${number}:${base}/${n}`),
      milestones: [],
      estimate: null,
      container: null,
      containers: [],
      facility: null,
      leg: null,
      legEnd: null,
      emptyIndicator: null,
      document: null,
      delayReasonCode: null,
      changeRemark: null,
      quirks: [],
      reissueOf: null,
      ...fields,
    });
  }
}

/** Publication order; ties by occurrence, then id, so the order is total. */
export function byPublication(a: JourneyEvent, b: JourneyEvent): number {
  return a.publishedAt.getTime() - b.publishedAt.getTime() || a.occurredAt.getTime() - b.occurredAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const toSecond = (ms: number) => new Date(Math.round(ms / 1000) * 1000);
