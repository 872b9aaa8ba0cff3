// SQL for the events recorded about a shipment: milestones, estimates, terminal changes and the
// carrier's raw events. Each new row yields the outbox record that announces it.
import { randomUUID } from 'node:crypto';
import type { CarrierEvent } from '../domain/tracking/carrier-events.ts';
import type { Diff } from '../domain/tracking/types.ts';
import type { DomainEvent } from '../domain/events/domain-event.ts';
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

/** What a lookup found that goes in the event tables: milestones, estimates, changesets and the carrier's raw events. */
export interface TrackingEvents {
  diff: Pick<Diff, 'transportEvents' | 'estimatedEvents' | 'containerChanges'>;
  /** Carrier events not stored yet (or newer versions of stored ones). */
  rawEvents: CarrierEvent[];
}

/** An outbox record for a statement to announce, its container named by number (resolved in SQL). */
interface Announcement {
  name: EventName;
  reference_type: string;
  reference_id: string;
  container_number: string | null;
  /** News about the shipment (an estimate, a changeset), as opposed to a record of the lookup itself. */
  news: boolean;
}

/**
 * The parameters of trackingEventCtes, in order from `first`: milestones, estimates, changesets,
 * raw events, and the outbox records known before writing (estimates, then changesets with the
 * events of the attributes they change, then `later`; milestones are announced by the statement,
 * as only it knows which are new). Containers are named by number; the statement resolves them.
 */
export function trackingEventParams(e: TrackingEvents, later: DomainEvent[] = []): unknown[] {
  const transport = e.diff.transportEvents.map((t, ord) => ({
    ord,
    container_number: t.containerNumber,
    event: t.event,
    reference_type: EVENTS[t.event].reference,
    // A correction renames the milestone recorded under its key (diff engine: correctionOf) and is announced under its new name.
    renamed: t.correctionOf !== undefined,
    key: t.key,
    timestamp: t.timestamp.toISOString(),
    ...observedColumns(t),
    terminal_code: t.terminalCode,
    source_event_id: t.sourceEventId,
  }));
  // Ids of estimates and changesets are made here: their rows need not be read back to be announced.
  const estimated = e.diff.estimatedEvents.map((x) => ({
    id: randomUUID(),
    event: x.event,
    estimated_timestamp: x.estimatedTimestamp.toISOString(),
    previous_timestamp: x.previousTimestamp?.toISOString() ?? null,
    ...observedColumns(x),
  }));
  const changes = e.diff.containerChanges.map((c) => ({
    id: randomUUID(),
    container_number: c.containerNumber,
    changeset: c.changeset,
    terminal_code: c.terminalCode,
    timestamp: c.timestamp.toISOString(),
    timezone: c.timezone,
    // Every attribute a changeset reports is the terminal's data (domain/tracking/changeset.ts).
    data_source: 'terminal',
  }));
  const raw = e.rawEvents.map((r) => ({
    container_number: r.equipmentReference,
    source_event_id: r.id,
    event_type: r.type,
    code: r.code,
    classifier: r.classifier,
    occurred_at: r.occurredAt.toISOString(),
    location_locode: r.locode,
    payload: r.raw,
    normalized: { ...r, raw: undefined },
    published_at: r.publishedAt.toISOString(),
  }));
  const announce = (name: EventName, reference_id: string, container_number: string | null): Announcement => ({ name, reference_type: EVENTS[name].reference, reference_id, container_number, news: true });
  const known: Announcement[] = [
    ...estimated.map((x) => announce(x.event as EventName, x.id, null)),
    ...changes.flatMap(({ id, container_number, changeset }) => [
      announce('container.updated', id, container_number),
      // Receivers may subscribe to these changes alone; the changeset is their reference object too.
      ...CHANGE_EVENTS.filter(([attribute]) => attribute in changeset).map(([, name]) => announce(name, id, container_number)),
    ]),
    // What the caller records after the lookup's own (e.g. tracking_request.succeeded): not news about the shipment.
    ...later.map((e) => ({ name: e.name, reference_type: e.reference_type, reference_id: e.reference_id, container_number: null, news: false })),
  ];
  return [json(transport), json(estimated), json(changes), json(raw), json(known)];
}

/**
 * The CTEs that write a lookup's events (parameters: `$1` account, `$2` shipment, `$3` now, and
 * trackingEventParams' from `$first`), given a relation `ids` (number, id) of the shipment's
 * containers: a row about a container not in it is left out. They end in `announced` (grp, ord,
 * name, reference_type, reference_id, container_id, news): the outbox records of what is new,
 * milestones first (group 1), then the records known before writing (group 2), then `extra`
 * (a UNION ALL of rows of group 0, before them all, or 3, after them all).
 */
export function trackingEventCtes(first: number, extra = ''): string {
  const [transport, estimated, changes, raw, known] = [0, 1, 2, 3, 4].map((i) => `$${first + i}::jsonb`);
  return `t_in AS (
       SELECT t.*, ids.id AS container_id
         FROM jsonb_to_recordset(${transport}) AS t(ord int, container_number text, event text, reference_type text, renamed boolean, key text,
              timestamp timestamptz, timezone text, location_locode text, terminal_code text, vessel_imo text, vessel_name text,
              voyage_number text, data_source text, source_event_id text, published_at timestamptz)
         JOIN ids ON ids.number = t.container_number
     ), milestones AS (
       INSERT INTO transport_events (account_id, shipment_id, container_id, event, key, timestamp, timezone, location_locode,
                                     terminal_code, terminal_id, vessel_imo, vessel_name, voyage_number, data_source, source_event_id, published_at, created_at)
       SELECT $1, $2, t.container_id, t.event, t.key, t.timestamp, t.timezone, t.location_locode, t.terminal_code,
              terminal_id_of(t.terminal_code, t.location_locode), t.vessel_imo, t.vessel_name, t.voyage_number, t.data_source, t.source_event_id, t.published_at, $3
         FROM t_in t ORDER BY t.ord
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
       RETURNING id, container_id, event, key, (xmax = 0) AS inserted
     ), estimated AS (
       INSERT INTO estimated_events (id, account_id, shipment_id, event, estimated_timestamp, previous_timestamp, timezone, location_locode,
                                     vessel_imo, vessel_name, voyage_number, data_source, published_at, created_at)
       SELECT e.id, $1, $2, e.event, e.estimated_timestamp, e.previous_timestamp, e.timezone, e.location_locode,
              e.vessel_imo, e.vessel_name, e.voyage_number, e.data_source, e.published_at, $3
         FROM jsonb_to_recordset(${estimated}) AS e(id uuid, event text, estimated_timestamp timestamptz, previous_timestamp timestamptz, timezone text,
              location_locode text, vessel_imo text, vessel_name text, voyage_number text, data_source text, published_at timestamptz)
     ), changesets AS (
       INSERT INTO container_updated_events (id, account_id, container_id, changeset, terminal_code, timestamp, timezone, data_source, created_at)
       SELECT c.id, $1, ids.id, c.changeset, c.terminal_code, c.timestamp, c.timezone, c.data_source, $3
         FROM jsonb_to_recordset(${changes}) AS c(id uuid, container_number text, changeset jsonb, terminal_code text, timestamp timestamptz, timezone text, data_source text)
         JOIN ids ON ids.number = c.container_number
     ), raw AS (
       INSERT INTO raw_events (account_id, shipment_id, container_number, source_event_id, event_type, code, classifier, occurred_at,
                               location_locode, payload, normalized, published_at, received_at)
       SELECT $1, $2, r.container_number, r.source_event_id, r.event_type, r.code, r.classifier, r.occurred_at, r.location_locode,
              r.payload, r.normalized, r.published_at, $3
         FROM jsonb_to_recordset(${raw}) AS r(container_number text, source_event_id text, event_type text, code text, classifier text,
              occurred_at timestamptz, location_locode text, payload jsonb, normalized jsonb, published_at timestamptz)
       ON CONFLICT (shipment_id, source_event_id) DO UPDATE
         SET occurred_at = EXCLUDED.occurred_at, payload = EXCLUDED.payload, normalized = EXCLUDED.normalized, published_at = EXCLUDED.published_at
         WHERE raw_events.published_at < EXCLUDED.published_at
     ), announced AS (
       SELECT 1 AS grp, t.ord::bigint AS ord, m.event AS name, t.reference_type, m.id AS reference_id, m.container_id, true AS news
         FROM milestones m JOIN t_in t ON t.container_id = m.container_id AND t.key = m.key
        WHERE m.inserted OR t.renamed
       UNION ALL
       -- A changeset of a container not in ids was not written: nor is its announcement.
       SELECT 2, k.ord, k.name, k.reference_type, k.reference_id, ids.id, k.news
         FROM ROWS FROM (jsonb_to_recordset(${known}) AS (name text, reference_type text, reference_id uuid, container_number text, news boolean))
              WITH ORDINALITY AS k(name, reference_type, reference_id, container_number, news, ord)
         LEFT JOIN ids ON ids.number = k.container_number
        WHERE k.container_number IS NULL OR ids.id IS NOT NULL
       ${extra}
     )`;
}

/** Domain events of `announced` rows read back as json (in their order), about the shipment `base` names. */
export const announcedEvents = (rows: { name: EventName; reference_type: string; reference_id: string; container_id: string | null }[] | null, base: { account_id: string; shipment_id: string }): DomainEvent[] =>
  (rows ?? []).map((r) => ({ ...base, name: r.name, reference_type: r.reference_type as DomainEvent['reference_type'], reference_id: r.reference_id, container_id: r.container_id }));

/**
 * Inserts what is new (a milestone already stored under its key is skipped) and returns the outbox
 * records: milestones, estimates, changesets and raw events in one statement (a data-modifying
 * WITH per table), whatever the number of rows.
 */
export async function insertTrackingEvents(
  db: Queryable,
  b: TrackingEvents & { account_id: string; shipment_id: string; containerIds: Map<string, string>; now: Date },
): Promise<DomainEvent[]> {
  const { rows } = await db.query<{ announced: Parameters<typeof announcedEvents>[0] }>(
    `WITH ids AS (SELECT * FROM jsonb_to_recordset($4::jsonb) AS k(number text, id uuid)),
     ${trackingEventCtes(5)}
     SELECT json_agg(a ORDER BY a.grp, a.ord) AS announced FROM announced a`,
    [b.account_id, b.shipment_id, b.now, json([...b.containerIds].map(([number, id]) => ({ number, id }))), ...trackingEventParams(b)],
  );
  return announcedEvents(rows[0].announced, b);
}
