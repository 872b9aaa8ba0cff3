// SQL for e-mail submissions: the messages, the account an inbound alias names, and the
// documents each message became.
import { findOfAccount, pageOfAccount, type CountedPage } from './account-rows.ts';
import type { Queryable } from './db.ts';

export interface EmailSubmissionRow {
  id: string;
  account_id: string;
  subject: string;
  body: string | null;
  from: string[];
  to: string[];
  cc: string[];
  sent_at: Date | null;
  message_id: string | null;
  in_reply_to: string | null;
  references: string[];
  content_type: string | null;
  received_by: 'smtp' | 'api';
  raw_blob_id: string;
  /** SHA-256 (hex) of the raw message: the account's one submission of these bytes. */
  raw_sha256: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewEmailSubmission = Omit<EmailSubmissionRow, 'id' | 'created_at' | 'updated_at'> & { at: Date };

export async function insertEmailSubmission(db: Queryable, s: NewEmailSubmission): Promise<EmailSubmissionRow> {
  const { rows } = await db.query<EmailSubmissionRow>(
    `INSERT INTO email_submissions (account_id, subject, body, "from", "to", cc, sent_at, message_id, in_reply_to, "references", content_type, received_by, raw_blob_id, raw_sha256, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) RETURNING *`,
    [s.account_id, s.subject, s.body, s.from, s.to, s.cc, s.sent_at, s.message_id, s.in_reply_to, s.references, s.content_type, s.received_by, s.raw_blob_id, s.raw_sha256, s.at],
  );
  return rows[0];
}

/**
 * The account's submission of the message with this SHA-256, if any, once no other transaction
 * can be storing it: the lock (held to the end of the caller's transaction) makes two deliveries
 * of one message at the same moment store it once.
 */
export async function lockedSubmissionOfDigest(tx: Queryable, accountId: string, rawSha256: string): Promise<EmailSubmissionRow | undefined> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('email_submission:' || $1 || ':' || $2, 0))`, [accountId, rawSha256]);
  const { rows } = await tx.query<EmailSubmissionRow>('SELECT * FROM email_submissions WHERE account_id = $1 AND raw_sha256 = $2', [accountId, rawSha256]);
  return rows[0];
}

export const findEmailSubmissions = (db: Queryable, accountId: string, ids: string[]): Promise<EmailSubmissionRow[]> => findOfAccount<EmailSubmissionRow>(db, 'email_submissions', accountId, ids);

export const listEmailSubmissions = (db: Queryable, accountId: string, limit: number, offset: number): Promise<CountedPage<EmailSubmissionRow>> =>
  pageOfAccount<EmailSubmissionRow>(db, 'email_submissions', accountId, limit, offset);

/** The (not discarded) documents of each submission, oldest first: submission id → document ids. */
export async function documentIdsOfSubmissions(db: Queryable, ids: string[]): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ email_submission_id: string; ids: string[] }>(
    `SELECT email_submission_id, array_agg(id ORDER BY created_at, id) AS ids FROM documents
     WHERE email_submission_id = ANY($1::uuid[]) AND discarded_at IS NULL GROUP BY email_submission_id`,
    [ids],
  );
  return new Map(rows.map((r) => [r.email_submission_id, r.ids]));
}

/** The account whose inbound address has this local part (any case). */
export async function accountOfInboundAlias(db: Queryable, alias: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM accounts WHERE inbound_alias = lower($1)', [alias]);
  return rows[0]?.id;
}

export async function inboundAliasOf(db: Queryable, accountId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ inbound_alias: string }>('SELECT inbound_alias FROM accounts WHERE id = $1', [accountId]);
  return rows[0]?.inbound_alias;
}
