// SQL for the events of a carrier's answer that could not be read: kept as sent with the
// reason, and counted by source and reason kind on the shipment and its containers.
import type { RejectedCarrierEvent } from '../domain/tracking/carrier-events.ts';
import type { Queryable } from './db.ts';

export interface RejectedEventRow {
  id: string;
  container_number: string | null;
  source_event_id: string | null;
  event_type: string | null;
  code: string | null;
  classifier: string | null;
  occurred_at: Date | null;
  published_at: Date | null;
  data_source: string;
  reason_kind: string;
  field: string | null;
  reason: string;
  payload: unknown;
  received_at: Date;
}

/** Rejected events by source and reason kind, as the shipments and containers columns hold them. */
export type RejectedEventCounts = Record<string, Record<string, number>>;

/** {source: {kind: count}} of the rows of relation `rows` (data_source, reason_kind). */
const countsOf = (rows: string) => `(SELECT jsonb_object_agg(data_source, kinds) FROM (
    SELECT data_source, jsonb_object_agg(reason_kind, n) AS kinds
      FROM (SELECT data_source, reason_kind, count(*) AS n FROM ${rows} GROUP BY 1, 2) k GROUP BY 1) s)`;

const SHIPMENT_COUNTS = countsOf('every_one');
// An event naming no container is about them all.
const CONTAINER_COUNTS = countsOf('every_one WHERE container_number IS NULL OR container_number = c.number');

const SAVE = `WITH r_in AS (
    SELECT * FROM jsonb_to_recordset($4::jsonb) AS r(container_number text, source_event_id text, event_type text, code text, classifier text,
         occurred_at timestamptz, published_at timestamptz, reason_kind text, field text, reason text, payload jsonb)
  ), inserted AS (
    INSERT INTO rejected_events (account_id, shipment_id, data_source, container_number, source_event_id, event_type, code, classifier,
                                 occurred_at, published_at, reason_kind, field, reason, payload, payload_digest, received_at)
    SELECT $1, $2, $3, r.container_number, r.source_event_id, r.event_type, r.code, r.classifier, r.occurred_at, r.published_at, r.reason_kind, r.field, r.reason, coalesce(r.payload, 'null'), md5(coalesce(r.payload, 'null')::text), $5 FROM r_in r
    ON CONFLICT (shipment_id, payload_digest) DO NOTHING
    RETURNING data_source, reason_kind, container_number
  ), every_one AS (
    -- The rows stored before this statement (it does not see its own) and the ones it stored.
    SELECT data_source, reason_kind, container_number FROM rejected_events WHERE shipment_id = $2
    UNION ALL SELECT * FROM inserted
  ), shipment AS (
    UPDATE shipments SET rejected_event_counts = ${SHIPMENT_COUNTS} WHERE id = $2 AND rejected_event_counts IS DISTINCT FROM ${SHIPMENT_COUNTS}
  ), boxes AS (
    -- Compared rather than written whenever something is new: a container the carrier named only
    -- after the rejected events were stored takes their counts the next time they are sent.
    UPDATE containers c SET rejected_event_counts = ${CONTAINER_COUNTS}
     WHERE c.shipment_id = $2 AND c.rejected_event_counts IS DISTINCT FROM ${CONTAINER_COUNTS}
  )
  SELECT reason_kind, count(*)::int AS n FROM inserted GROUP BY 1`;

/**
 * Stores the rejected events not stored already (the same payload is the same event) and brings
 * the shipment's and its containers' counts up to date, writing only those that differ; returns
 * how many new ones of each kind.
 */
export async function saveRejectedEvents(
  db: Queryable,
  b: { account_id: string; shipment_id: string; data_source: string; now: Date; rejected: RejectedCarrierEvent[] },
): Promise<Map<string, number>> {
  if (b.rejected.length === 0) return new Map();
  const rows = b.rejected.map((r) => ({
    container_number: r.equipmentReference,
    source_event_id: r.eventId,
    event_type: r.type,
    code: r.code,
    classifier: r.classifier,
    occurred_at: r.occurredAt?.toISOString() ?? null,
    published_at: r.publishedAt?.toISOString() ?? null,
    reason_kind: r.kind,
    field: r.field,
    reason: r.reason,
    payload: r.raw ?? null,
  }));
  const { rows: added } = await db.query<{ reason_kind: string; n: number }>(SAVE, [b.account_id, b.shipment_id, b.data_source, JSON.stringify(rows), b.now]);
  return new Map(added.map((r) => [r.reason_kind, r.n]));
}

/** A container's rejected events (and those naming no container), oldest first. */
export async function rejectedEventsOfContainer(db: Queryable, shipmentId: string, number: string): Promise<RejectedEventRow[]> {
  const { rows } = await db.query<RejectedEventRow>(
    `SELECT id, container_number, source_event_id, event_type, code, classifier, occurred_at, published_at, data_source, reason_kind, field, reason, payload, received_at FROM rejected_events
      WHERE shipment_id = $1 AND (container_number = $2 OR container_number IS NULL) ORDER BY received_at, id`,
    [shipmentId, number],
  );
  return rows;
}
