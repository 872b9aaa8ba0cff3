// SQL for tracking requests.
import type { StagedFields } from './custom-fields.ts';
import type { Queryable } from './db.ts';
import { findOfAccount, pageOfAccount, updateLabelsOfAccount, type CountedPage, type LabelEdit } from './account-rows.ts';
import type { TimeRange } from './conditions.ts';
import { claimDue } from './leases.ts';
import { searchText, trackingRequestNumbers } from './search.ts';

export type TrackingRequestStatus = 'pending' | 'awaiting_manifest' | 'created' | 'failed' | 'tracking_stopped';

/**
 * A number and SCAC can have one request in these statuses per account: the duplicate rule, which
 * the unique index tracking_requests_active_number enforces (migrations 003 and 007).
 */
export const ACTIVE_STATUSES: readonly TrackingRequestStatus[] = ['pending', 'awaiting_manifest', 'created'];

export interface TrackingRequestRow {
  id: string;
  account_id: string;
  request_number: string;
  request_type: 'bill_of_lading' | 'booking_number' | 'container';
  scac: string;
  status: TrackingRequestStatus;
  failed_reason: string | null;
  ref_numbers: string[];
  tags: string[];
  is_retrying: boolean;
  retry_count: number;
  customer_id: string | null;
  /** Custom field values for the shipment and containers it becomes (migration 023); null when none were sent. */
  initial_custom_fields: StagedFields | null;
  shipment_id: string | null;
  awaiting_since: Date | null;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewTrackingRequest {
  account_id: string;
  request_number: string;
  request_type: TrackingRequestRow['request_type'];
  scac: string;
  ref_numbers: string[];
  customer_id: string | null;
  initial_custom_fields?: StagedFields | null;
  at: Date;
}

/** Inserts a pending request, due at once; undefined when one in an ACTIVE_STATUSES status exists. */
export async function insertTrackingRequest(db: Queryable, r: NewTrackingRequest): Promise<TrackingRequestRow | undefined> {
  try {
    const { rows } = await db.query<TrackingRequestRow>(
      `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, ref_numbers, customer_id, initial_custom_fields, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $8) RETURNING *`,
      [r.account_id, r.request_number, r.request_type, r.scac, r.ref_numbers, r.customer_id, r.initial_custom_fields ? JSON.stringify(r.initial_custom_fields) : null, r.at],
    );
    return rows[0];
  } catch (err) {
    if ((err as { code?: string; constraint?: string }).constraint === 'tracking_requests_active_number') return undefined;
    throw err;
  }
}

/**
 * Ends the account's request for this number and SCAC that awaits its manifest, as failed with
 * reason `duplicate`, so that a new request takes its place: the duplicate rule refuses a second
 * request only while the first is pending or created (the spec). Not while the worker holds it
 * (its lease runs past `now`): that lookup's answer is about to be written. The row is locked
 * until the caller's transaction ends, so no claim takes it meanwhile. The request ended, if any.
 */
export async function endAwaitingRequest(db: Queryable, accountId: string, requestNumber: string, scac: string, now: Date): Promise<TrackingRequestRow | undefined> {
  const { rows } = await db.query<TrackingRequestRow>(
    `UPDATE tracking_requests
        SET status = 'failed', failed_reason = 'duplicate', is_retrying = false, next_attempt_at = NULL, locked_until = NULL, updated_at = $4
      WHERE account_id = $1 AND upper(request_number) = upper($2) AND scac = $3 AND status = 'awaiting_manifest'
        AND (locked_until IS NULL OR locked_until <= $4)
      RETURNING *`,
    [accountId, requestNumber, scac, now],
  );
  return rows[0];
}

export interface TrackingRequestFilters {
  q?: string;
  request_number?: string;
  status?: string;
  scac?: string;
  request_type?: string;
  created?: TimeRange;
  updated?: TimeRange;
}

/**
 * A page of the account's requests, newest first. q compares numbers bare, as the search does
 * (search.ts); migration 015 indexes status, scac and request_type ahead of the list's order and
 * the request number by upper().
 */
export function listTrackingRequests(db: Queryable, accountId: string, f: TrackingRequestFilters, limit: number, offset: number): Promise<CountedPage<TrackingRequestRow>> {
  const q = searchText(f.q);
  return pageOfAccount(db, 'tracking_requests', accountId, limit, offset, (where) =>
    where
      .when(q?.value, (p) => `${q?.holds(trackingRequestNumbers('tracking_requests'), p)}`)
      .when(f.request_number, (p) => `upper(request_number) = upper(${p})`)
      .when(f.status, (p) => `status = ${p}`)
      .when(f.scac, (p) => `scac = upper(${p})`)
      .when(f.request_type, (p) => `request_type = ${p}`)
      .within('created_at', f.created)
      .within('updated_at', f.updated),
  );
}

export const findTrackingRequests = (db: Queryable, accountId: string, ids: string[]): Promise<TrackingRequestRow[]> =>
  findOfAccount(db, 'tracking_requests', accountId, ids);

export const updateTrackingRequestLabels = (db: Queryable, accountId: string, id: string, labels: LabelEdit, at: Date): Promise<TrackingRequestRow | undefined> =>
  updateLabelsOfAccount(db, 'tracking_requests', accountId, id, labels, at);

/** Claims up to `limit` requests whose next lookup is due, leasing them until `leaseUntil`. */
export const claimDueTrackingRequests = (db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<TrackingRequestRow[]> =>
  claimDue(db, 'tracking_requests', now, leaseUntil, limit);

/** Writes the outcome of a lookup and releases the lease. */
export async function settleTrackingRequest(
  db: Queryable,
  id: string,
  change: Pick<TrackingRequestRow, 'status' | 'failed_reason' | 'is_retrying' | 'retry_count' | 'next_attempt_at' | 'awaiting_since' | 'shipment_id'>,
  at: Date,
): Promise<TrackingRequestRow> {
  const { rows } = await db.query<TrackingRequestRow>(
    `UPDATE tracking_requests
        SET status = $2, failed_reason = $3, is_retrying = $4, retry_count = $5, next_attempt_at = $6,
            awaiting_since = $7, shipment_id = $8, locked_until = NULL, updated_at = $9
      WHERE id = $1 RETURNING *`,
    [id, change.status, change.failed_reason, change.is_retrying, change.retry_count, change.next_attempt_at, change.awaiting_since, change.shipment_id, at],
  );
  return rows[0];
}

/** Marks the shipment's created requests tracking_stopped; returns the ids of those it changed. */
export async function stopTrackingRequestsOfShipment(db: Queryable, shipmentId: string, at: Date): Promise<{ id: string }[]> {
  const { rows } = await db.query<{ id: string }>(
    "UPDATE tracking_requests SET status = 'tracking_stopped', updated_at = $2 WHERE shipment_id = $1 AND status = 'created' RETURNING id",
    [shipmentId, at],
  );
  return rows;
}

/** The shipment's stopped requests count as active again, unless the account has since made another active request for the same number. */
export async function resumeTrackingRequestsOfShipment(db: Queryable, shipmentId: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE tracking_requests t SET status = 'created', updated_at = $2
      WHERE t.shipment_id = $1 AND t.status = 'tracking_stopped'
        AND NOT EXISTS (SELECT 1 FROM tracking_requests o WHERE o.account_id = t.account_id AND o.id <> t.id
                         AND upper(o.request_number) = upper(t.request_number) AND o.scac = t.scac AND o.status = ANY($3))`,
    [shipmentId, at, ACTIVE_STATUSES],
  );
}
