// SQL for shipments and their containers. This is the only module that writes the shipments row.
import type { RejectedEventCounts } from './rejected-events.ts';
import type { Queryable } from './db.ts';
import { findOfAccount, updateLabelsOfAccount, type LabelEdit } from './account-rows.ts';
import { claimDueSql } from './leases.ts';
import { scheduleRefreshes } from './shipment-refreshes.ts';
import { isUuid } from './uuid.ts';

export interface ShipmentRow {
  id: string;
  account_id: string;
  scac: string;
  request_type: string;
  request_number: string;
  bill_of_lading_number: string | null;
  booking_number: string | null;
  ref_numbers: string[];
  tags: string[];
  customer_id: string | null;
  state: Record<string, unknown>;
  line_tracking_last_attempted_at: Date | null;
  line_tracking_last_succeeded_at: Date | null;
  line_tracking_last_changed_at: Date | null;
  line_tracking_stopped_at: Date | null;
  line_tracking_stopped_reason: string | null;
  /** The digest of the carrier answer the stored state was last brought up to date with (028). */
  carrier_answer_digest?: string | null;
  /**
   * The last check that found that answer again, recorded on the schedule row alone (migration
   * 039: lastCheckedColumn), where the statement read it; lineTrackingTimes counts it.
   */
  line_tracking_last_checked_at?: Date | null;
  /** Rejected carrier events by source and reason kind (044); null: none. */
  rejected_event_counts?: RejectedEventCounts | null;
  created_at: Date;
  updated_at: Date;
}

const later = (a: Date | null, b: Date | null | undefined): Date | null => (b && (!a || b > a) ? b : a);

/** When the line last answered: the shipment's last lookup that wrote its row, or a later check recorded on its schedule row alone. */
export const lineLastAnsweredAt = (row: Pick<ShipmentRow, 'line_tracking_last_succeeded_at' | 'line_tracking_last_checked_at'>): Date | null =>
  later(row.line_tracking_last_succeeded_at, row.line_tracking_last_checked_at);

/** When svc last asked the line and when the line last answered, checks recorded on the schedule row alone included. */
export function lineTrackingTimes(row: ShipmentRow): { attemptedAt: Date | null; succeededAt: Date | null } {
  return { attemptedAt: later(row.line_tracking_last_attempted_at, row.line_tracking_last_checked_at), succeededAt: lineLastAnsweredAt(row) };
}

export interface ContainerRow {
  id: string;
  account_id: string;
  shipment_id: string;
  number: string;
  ref_numbers: string[];
  state: Record<string, unknown>;
  /** Rejected carrier events about it (or naming no container) by source and reason kind (044); null: none. */
  rejected_event_counts?: RejectedEventCounts | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertShipment(
  db: Queryable,
  s: Pick<ShipmentRow, 'account_id' | 'scac' | 'request_type' | 'request_number' | 'ref_numbers' | 'customer_id'> & { at: Date },
): Promise<ShipmentRow> {
  const { rows } = await db.query<ShipmentRow>(
    `INSERT INTO shipments (account_id, scac, request_type, request_number, ref_numbers, customer_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING *`,
    [s.account_id, s.scac, s.request_type, s.request_number, s.ref_numbers, s.customer_id, s.at],
  );
  return rows[0];
}

/**
 * The account's shipments with a line that a number may name: as the number asked, its B/L or
 * booking number, or one of its containers; newest first.
 */
export async function shipmentsNamedBy(db: Queryable, accountId: string, scac: string, number: string): Promise<ShipmentRow[]> {
  const { rows } = await db.query<ShipmentRow>(
    `SELECT s.* FROM shipments s
      WHERE s.account_id = $1 AND s.scac = $2
        AND (upper($3) IN (upper(s.request_number), upper(s.bill_of_lading_number), upper(s.booking_number))
             OR EXISTS (SELECT 1 FROM containers c WHERE c.account_id = $1 AND c.shipment_id = s.id AND c.number = upper($3)))
      ORDER BY s.created_at DESC, s.id DESC`,
    [accountId, scac, number],
  );
  return rows;
}

/**
 * A shipment tracked again: tracking resumes if it had stopped (as a user's resume does, counting
 * from now for the silence rule) and the new request's reference numbers are added.
 */
export async function resumeShipment(db: Queryable, id: string, refNumbers: string[], at: Date): Promise<ShipmentRow> {
  const { rows } = await db.query<ShipmentRow>(
    `UPDATE shipments
        SET ref_numbers = ref_numbers || ARRAY(SELECT r FROM unnest($2::text[]) r WHERE r <> ALL(ref_numbers)),
            line_tracking_last_changed_at = CASE WHEN line_tracking_stopped_at IS NULL THEN line_tracking_last_changed_at ELSE $3 END,
            line_tracking_stopped_at = NULL, line_tracking_stopped_reason = NULL, updated_at = $3
      WHERE id = $1 RETURNING *`,
    [id, refNumbers, at],
  );
  return rows[0];
}

export const findShipments = (db: Queryable, accountId: string, ids: string[]): Promise<ShipmentRow[]> => findOfAccount(db, 'shipments', accountId, ids);

export const findContainers = (db: Queryable, accountId: string, ids: string[]): Promise<ContainerRow[]> => findOfAccount(db, 'containers', accountId, ids);

/**
 * The ids of these shipments' containers, by number: what a list of shipments shows of them.
 * (Not their rows: each container's state is a kilobyte or more to carry and parse, twice a
 * shipment's, and a page of shipments names about two containers each.)
 */
export async function containerIdsOfShipments(db: Queryable, shipmentIds: string[]): Promise<{ id: string; shipment_id: string }[]> {
  if (shipmentIds.length === 0) return [];
  const { rows } = await db.query<{ id: string; shipment_id: string }>('SELECT id, shipment_id FROM containers WHERE shipment_id = ANY($1::uuid[]) ORDER BY number', [shipmentIds]);
  return rows;
}

export async function containersOfShipments(db: Queryable, shipmentIds: string[]): Promise<ContainerRow[]> {
  if (shipmentIds.length === 0) return [];
  const { rows } = await db.query<ContainerRow>('SELECT * FROM containers WHERE shipment_id = ANY($1::uuid[]) ORDER BY number', [shipmentIds]);
  return rows;
}

/** Inserts or updates a container's state; reports whether it is new. */
export async function upsertContainer(
  db: Queryable,
  c: { account_id: string; shipment_id: string; number: string; ref_numbers: string[]; state: unknown; at: Date },
): Promise<{ row: ContainerRow; inserted: boolean }> {
  const { rows } = await db.query<ContainerRow & { inserted: boolean }>(
    `INSERT INTO containers (account_id, shipment_id, number, ref_numbers, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (shipment_id, number) DO UPDATE SET state = EXCLUDED.state,
       updated_at = CASE WHEN containers.state = EXCLUDED.state THEN containers.updated_at ELSE EXCLUDED.updated_at END
     RETURNING *, (xmax = 0) AS inserted`,
    [c.account_id, c.shipment_id, c.number, c.ref_numbers, JSON.stringify(c.state), c.at],
  );
  const { inserted, ...row } = rows[0];
  return { row, inserted };
}

export const updateShipmentLabels = (db: Queryable, accountId: string, id: string, labels: LabelEdit, at: Date): Promise<ShipmentRow | undefined> =>
  updateLabelsOfAccount(db, 'shipments', accountId, id, labels, at);

export async function updateContainerRefNumbers(db: Queryable, accountId: string, id: string, refNumbers: string[], at: Date): Promise<ContainerRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<ContainerRow>(
    'UPDATE containers SET ref_numbers = $3, updated_at = $4 WHERE account_id = $1 AND id = $2 RETURNING *',
    [accountId, id, refNumbers, at],
  );
  return rows[0];
}

/** Claims up to `limit` shipments due for a refresh, leasing them until `leaseUntil` (prepared, as claimDue is). */
export async function claimDueShipments(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ShipmentRow[]> {
  const { rows } = await db.query<ShipmentRow>(`WITH claimed AS (${claimDueSql('shipment_refreshes')}) SELECT s.* FROM claimed c JOIN shipments s ON s.id = c.shipment_id`, [
    now,
    leaseUntil,
    limit,
  ]);
  return rows;
}

/** Stores the carrier's push subscription for a shipment, so its callbacks can be verified. */
export async function saveCarrierSubscription(db: Queryable, shipmentId: string, subscriptionId: string, secret: Buffer): Promise<void> {
  await db.query('UPDATE shipments SET carrier_subscription_id = $2, carrier_subscription_secret = $3 WHERE id = $1', [shipmentId, subscriptionId, secret]);
}

/** The secret a carrier signs its callbacks for a shipment with; null when there is none (or no such shipment). */
export async function carrierSubscriptionSecret(db: Queryable, shipmentId: string): Promise<Buffer | null> {
  if (!isUuid(shipmentId)) return null;
  const { rows } = await db.query<{ secret: Buffer | null }>('SELECT carrier_subscription_secret AS secret FROM shipments WHERE id = $1', [shipmentId]);
  return rows[0]?.secret ?? null;
}

/** Brings a tracked shipment's next refresh forward to `now` (never later than it already was); a stopped one stays stopped. */
export async function makeDueNow(db: Queryable, shipmentId: string, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO shipment_refreshes AS r (shipment_id, next_refresh_at) SELECT id, $2 FROM shipments WHERE id = $1 AND line_tracking_stopped_at IS NULL
     ON CONFLICT (shipment_id) DO UPDATE SET next_refresh_at = LEAST(coalesce(r.next_refresh_at, $2), $2)`,
    [shipmentId, now],
  );
}

/** Writes what a snapshot made of the shipment; numbers the carrier left out are kept. */
export async function saveShipmentState(
  db: Queryable,
  shipmentId: string,
  s: { state: object; billOfLadingNumber: string | null; bookingNumber: string | null; at: Date },
): Promise<void> {
  await db.query(
    // The state is no longer what the last carrier answer made of it: the next answer is diffed in full, even the same one.
    `UPDATE shipments SET state = $2, bill_of_lading_number = coalesce($3, bill_of_lading_number),
            booking_number = coalesce($4, booking_number), updated_at = $5, carrier_answer_digest = NULL WHERE id = $1`,
    [shipmentId, JSON.stringify(s.state), s.billOfLadingNumber, s.bookingNumber, s.at],
  );
}

/** A lookup that answered: records when it was asked and when the shipment last changed, and releases the lease. */
export async function markLookupSucceeded(db: Queryable, shipmentId: string, askedAt: Date, lastChangedAt: Date): Promise<void> {
  await db.query(
    `WITH answered AS (UPDATE shipments SET line_tracking_last_attempted_at = $2, line_tracking_last_succeeded_at = $2, line_tracking_last_changed_at = $3 WHERE id = $1)
     UPDATE shipment_refreshes SET locked_until = NULL WHERE shipment_id = $1`,
    [shipmentId, askedAt, lastChangedAt],
  );
}

/** A lookup that failed: records the attempt, releases the lease and schedules the retry. */
export async function markLookupFailed(db: Queryable, shipmentId: string, now: Date, nextRefreshAt: Date): Promise<void> {
  await db.query(
    `WITH attempted AS (UPDATE shipments SET line_tracking_last_attempted_at = $2 WHERE id = $1)
     ${scheduleRefreshes('SELECT $1::uuid, $3::timestamptz')}`,
    [shipmentId, now, nextRefreshAt],
  );
}

/** Stops tracking the shipment: no more refreshes, and its lease is released. */
export async function stopShipment(db: Queryable, shipmentId: string, reason: string, now: Date): Promise<void> {
  await db.query(
    `WITH stopped AS (UPDATE shipments SET line_tracking_stopped_at = $2, line_tracking_stopped_reason = $3, updated_at = $2 WHERE id = $1)
     UPDATE shipment_refreshes SET next_refresh_at = NULL, locked_until = NULL WHERE shipment_id = $1`,
    [shipmentId, now, reason],
  );
}

/**
 * The user's resume_tracking: due at once, and the silence rule counts from now (unlike
 * resumeShipment, which a new tracking request for the same journey brings about).
 */
export async function resumeStoppedShipment(db: Queryable, shipmentId: string, now: Date): Promise<void> {
  await db.query(
    `WITH resumed AS (UPDATE shipments SET line_tracking_stopped_at = NULL, line_tracking_stopped_reason = NULL,
                                          line_tracking_last_changed_at = $2, updated_at = $2 WHERE id = $1)
     ${scheduleRefreshes('SELECT $1::uuid, $2::timestamptz')}`,
    [shipmentId, now],
  );
}
