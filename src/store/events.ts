// SQL for the events recorded about a shipment: milestones, estimates, terminal changes and the
// carrier's raw events. Each new row yields the outbox record that announces it.
import { randomUUID } from 'node:crypto';
import type { CarrierEvent } from '../domain/tracking/carrier-events.ts';
import type { Diff, TransportEventName } from '../domain/tracking/types.ts';
import { domainEvent, type DomainEvent } from '../domain/events/domain-event.ts';
import { EVENT_NAMES, EVENTS, type EventName } from '../domain/events/vocabulary.ts';
import type { Queryable } from './db.ts';

/**
 * Changeset attributes that have an event of their own besides container.updated, by attribute
 * name: the order they are announced (and numbered) in does not depend on the table's layout.
 */
const CHANGE_EVENTS = EVENT_NAMES.flatMap((name): [string, EventName][] => {
  const attribute = EVENTS[name].announces;
  return attribute ? [[attribute, name]] : [];
}).sort(([a], [b]) => (a < b ? -1 : 1));

/**
 * Changeset attributes only the carrier reports (the seal is applied at stuffing and comes with its
 * equipment events). A changeset of nothing else is the shipping line's news, not the terminal's:
 * it appears at full-in, long before the box reaches a terminal of discharge.
 */
const CARRIER_ATTRIBUTES: ReadonlySet<string> = new Set(['seal_number']);

/** `data_source` of a container_updated_event: `shipping_line` when only carrier attributes changed. */
export function changesetSource(changeset: object): 'shipping_line' | 'terminal' {
  const attributes = Object.keys(changeset);
  return attributes.length > 0 && attributes.every((a) => CARRIER_ATTRIBUTES.has(a)) ? 'shipping_line' : 'terminal';
}

interface Batch {
  account_id: string;
  shipment_id: string;
  containerIds: Map<string, string>;
  diff: Diff;
  /** Carrier events not stored yet (or newer versions of stored ones). */
  rawEvents: CarrierEvent[];
  now: Date;
}

const json = (rows: unknown[]) => JSON.stringify(rows);

/** The columns an actual and an expected event share, as jsonb_to_recordset reads them. */
const observedColumns = (e: Diff['transportEvents'][number] | Diff['estimatedEvents'][number]) => ({
  timezone: e.timezone,
  location_locode: e.locode,
  vessel_imo: e.vessel?.imo ?? null,
  vessel_name: e.vessel?.name ?? null,
  voyage_number: e.voyageNumber,
  data_source: e.dataSource,
  published_at: e.publishedAt?.toISOString() ?? null,
});

/** A stored raw event's normalised form as a CarrierEvent again (the carrier's payload stays in the table). */
export const carrierEventOf = (n: Record<string, unknown>): CarrierEvent => ({
  ...(n as unknown as CarrierEvent),
  occurredAt: new Date(n.occurredAt as string),
  publishedAt: new Date(n.publishedAt as string),
  raw: null,
});

/** The events stored for a shipment, as CarrierEvents again (for merging with an incremental refresh). */
export async function storedCarrierEvents(db: Queryable, shipmentId: string): Promise<CarrierEvent[]> {
  const { rows } = await db.query<{ normalized: Record<string, unknown> }>('SELECT normalized FROM raw_events WHERE shipment_id = $1', [shipmentId]);
  return rows.map((r) => carrierEventOf(r.normalized));
}

/**
 * Inserts what is new (a milestone already stored under its key is skipped) and returns the outbox
 * records: milestones, estimates, changesets and raw events in one statement (a data-modifying
 * WITH per table), whatever the number of rows.
 */
export async function insertTrackingEvents(db: Queryable, b: Batch): Promise<DomainEvent[]> {
  const base = { account_id: b.account_id, shipment_id: b.shipment_id };

  const inScope = b.diff.transportEvents.filter((e) => b.containerIds.has(e.containerNumber));
  // A correction renames the milestone recorded under its key (diff engine: correctionOf) and is announced under its new name.
  const renamed = new Set(inScope.filter((e) => e.correctionOf !== undefined).map((e) => `${b.containerIds.get(e.containerNumber)}|${e.key}`));
  const transport = inScope.map((e) => ({
    container_id: b.containerIds.get(e.containerNumber),
    event: e.event,
    key: e.key,
    timestamp: e.timestamp.toISOString(),
    ...observedColumns(e),
    terminal_code: e.terminalCode,
    source_event_id: e.sourceEventId,
  }));
  // Ids of estimates and changesets are made here: their rows need not be read back to be announced.
  const estimated = b.diff.estimatedEvents.map((e) => ({
    id: randomUUID(),
    event: e.event,
    estimated_timestamp: e.estimatedTimestamp.toISOString(),
    previous_timestamp: e.previousTimestamp?.toISOString() ?? null,
    ...observedColumns(e),
  }));
  const changes = b.diff.containerChanges.flatMap((c) => {
    const containerId = b.containerIds.get(c.containerNumber);
    return containerId ? [{ id: randomUUID(), container_id: containerId, change: c }] : [];
  });
  const raw = b.rawEvents.map((e) => ({
    container_number: e.equipmentReference,
    source_event_id: e.id,
    event_type: e.type,
    code: e.code,
    classifier: e.classifier,
    occurred_at: e.occurredAt.toISOString(),
    location_locode: e.locode,
    payload: e.raw,
    normalized: { ...e, raw: undefined },
    published_at: e.publishedAt.toISOString(),
  }));
  if (transport.length + estimated.length + changes.length + raw.length === 0) return [];

  const { rows } = await db.query<{ id: string; container_id: string; event: TransportEventName; key: string; inserted: boolean }>(
    `WITH estimated AS (
       INSERT INTO estimated_events (id, account_id, shipment_id, event, estimated_timestamp, previous_timestamp, timezone, location_locode,
                                     vessel_imo, vessel_name, voyage_number, data_source, published_at, created_at)
       SELECT e.id, $1, $2, e.event, e.estimated_timestamp, e.previous_timestamp, e.timezone, e.location_locode,
              e.vessel_imo, e.vessel_name, e.voyage_number, e.data_source, e.published_at, $4
         FROM jsonb_to_recordset($5::jsonb) AS e(id uuid, event text, estimated_timestamp timestamptz, previous_timestamp timestamptz, timezone text,
              location_locode text, vessel_imo text, vessel_name text, voyage_number text, data_source text, published_at timestamptz)
     ), changesets AS (
       INSERT INTO container_updated_events (id, account_id, container_id, changeset, terminal_code, timestamp, timezone, data_source, created_at)
       SELECT c.id, $1, c.container_id, c.changeset, c.terminal_code, c.timestamp, c.timezone, c.data_source, $4
         FROM jsonb_to_recordset($6::jsonb) AS c(id uuid, container_id uuid, changeset jsonb, terminal_code text, timestamp timestamptz, timezone text, data_source text)
     ), raw AS (
       INSERT INTO raw_events (account_id, shipment_id, container_number, source_event_id, event_type, code, classifier, occurred_at,
                               location_locode, payload, normalized, published_at, received_at)
       SELECT $1, $2, r.container_number, r.source_event_id, r.event_type, r.code, r.classifier, r.occurred_at, r.location_locode,
              r.payload, r.normalized, r.published_at, $4
         FROM jsonb_to_recordset($7::jsonb) AS r(container_number text, source_event_id text, event_type text, code text, classifier text,
              occurred_at timestamptz, location_locode text, payload jsonb, normalized jsonb, published_at timestamptz)
       ON CONFLICT (shipment_id, source_event_id) DO UPDATE
         SET occurred_at = EXCLUDED.occurred_at, payload = EXCLUDED.payload, normalized = EXCLUDED.normalized, published_at = EXCLUDED.published_at
         WHERE raw_events.published_at < EXCLUDED.published_at
     )
     INSERT INTO transport_events (account_id, shipment_id, container_id, event, key, timestamp, timezone, location_locode,
                                   terminal_code, terminal_id, vessel_imo, vessel_name, voyage_number, data_source, source_event_id, published_at, created_at)
     SELECT $1, $2, t.container_id, t.event, t.key, t.timestamp, t.timezone, t.location_locode, t.terminal_code,
            terminal_id_of(t.terminal_code, t.location_locode), t.vessel_imo, t.vessel_name, t.voyage_number, t.data_source, t.source_event_id, t.published_at, $4
       FROM jsonb_to_recordset($3::jsonb) AS t(container_id uuid, event text, key text, timestamp timestamptz, timezone text,
            location_locode text, terminal_code text, vessel_imo text, vessel_name text, voyage_number text, data_source text,
            source_event_id text, published_at timestamptz)
     -- A milestone the carrier corrected keeps its identity and takes the new time (and the new name, when the
     -- route showed its leg was a feeder after all); a new one, or a renamed one, is announced. An arrival
     -- AIS recorded first becomes the carrier's: its time, source and vessel, without a second announcement.
     ON CONFLICT (container_id, key) DO UPDATE
       SET event = EXCLUDED.event, timestamp = EXCLUDED.timestamp, timezone = EXCLUDED.timezone, source_event_id = EXCLUDED.source_event_id,
           published_at = EXCLUDED.published_at, data_source = EXCLUDED.data_source,
           vessel_imo = coalesce(EXCLUDED.vessel_imo, transport_events.vessel_imo), vessel_name = coalesce(EXCLUDED.vessel_name, transport_events.vessel_name),
           voyage_number = coalesce(EXCLUDED.voyage_number, transport_events.voyage_number),
           terminal_code = coalesce(EXCLUDED.terminal_code, transport_events.terminal_code),
           terminal_id = coalesce(EXCLUDED.terminal_id, transport_events.terminal_id)
       WHERE transport_events.timestamp IS DISTINCT FROM EXCLUDED.timestamp OR transport_events.event IS DISTINCT FROM EXCLUDED.event
          OR transport_events.data_source IS DISTINCT FROM EXCLUDED.data_source
     RETURNING id, container_id, event, key, (xmax = 0) AS inserted`,
    [
      b.account_id,
      b.shipment_id,
      json(transport),
      b.now,
      json(estimated),
      json(changes.map(({ id, container_id, change: c }) => ({ id, container_id, changeset: c.changeset, terminal_code: c.terminalCode, timestamp: c.timestamp.toISOString(), timezone: c.timezone, data_source: changesetSource(c.changeset) }))),
      json(raw),
    ],
  );

  // Announced in this order: milestones, estimates, changesets.
  const events: DomainEvent[] = [];
  for (const r of rows.filter((r) => r.inserted || renamed.has(`${r.container_id}|${r.key}`))) {
    events.push(domainEvent(r.event, { ...base, reference_id: r.id, container_id: r.container_id }));
  }
  for (const e of estimated) events.push(domainEvent(e.event, { ...base, reference_id: e.id }));
  for (const { id, container_id, change } of changes) {
    const updated = { ...base, reference_id: id, container_id };
    events.push(domainEvent('container.updated', updated));
    // Receivers may subscribe to these changes alone; the changeset is their reference object too.
    for (const [attribute, name] of CHANGE_EVENTS) if (attribute in change.changeset) events.push(domainEvent(name, updated));
  }
  return events;
}
