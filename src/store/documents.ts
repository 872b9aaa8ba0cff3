// SQL for documents: their bytes (document_blobs), the documents, each extraction's
// representation, and the processing job's queue (leased like tracking work, leases.ts).
import type { ExtractedNumbers } from '../domain/documents/extraction.ts';
import { pageOfAccount, type CountedPage } from './account-rows.ts';
import { withTransaction, type Db, type Queryable } from './db.ts';
import { dueAt1 } from './leases.ts';
import { isUuid } from './uuid.ts';

export interface BlobRow {
  id: string;
  account_id: string;
  filename: string;
  declared_content_type: string | null;
  byte_size: number;
  checksum: string;
  created_at: Date;
  uploaded_at: Date | null;
}

export type DocumentJob = 'extract' | 'relink';

export interface DocumentRow {
  id: string;
  account_id: string;
  blob_id: string;
  name: string;
  source: string;
  file_name: string;
  file_content_type: string;
  file_size_bytes: number;
  sha256: string;
  rotation: number;
  document_type: string;
  document_type_manual: string | null;
  classification_notes: string | null;
  extraction_status: 'pending' | 'extracted' | 'failed';
  extracted_text: string | null;
  numbers: Partial<ExtractedNumbers>;
  extracted_data_manual: Record<string, unknown> | null;
  shipment_ids: string[];
  container_ids: string[];
  last_representation_id: string | null;
  /** The e-mail the document came in (source 'email'). */
  email_submission_id: string | null;
  /** The numbers it names that svc did not track by itself, and why (migration 041). */
  not_tracked: NotTracked[];
  job: DocumentJob | null;
  job_attempts: number;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  discarded_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface NotTracked {
  number: string;
  request_type: 'container' | 'bill_of_lading' | 'booking_number';
  /** per_document_limit: past the numbers one document tracks; rate_limited: waiting for the account's limit; refused: svc cannot track it. */
  reason: 'per_document_limit' | 'rate_limited' | 'refused';
  detail: string;
}

export interface RepresentationRow {
  id: string;
  account_id: string;
  document_id: string;
  schema_version: string;
  payload: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

// Every column but the bytes: rows are read often, the bytes only to extract or download.
const BLOB_COLUMNS = 'id, account_id, filename, declared_content_type, byte_size::int AS byte_size, checksum, created_at, uploaded_at';
const DOCUMENT_COLUMNS = 'documents.*, file_size_bytes::int AS file_size_bytes';

export interface NewBlob {
  account_id: string;
  filename: string;
  declared_content_type: string | null;
  byte_size: number;
  checksum: string;
  /** The bytes, when they come with the request (multipart); a direct upload PUTs them later. */
  data?: Buffer;
  at: Date;
}

export async function insertBlob(db: Queryable, b: NewBlob): Promise<BlobRow> {
  const { rows } = await db.query<BlobRow>(
    `INSERT INTO document_blobs (account_id, filename, declared_content_type, byte_size, checksum, data, created_at, uploaded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $6::bytea IS NULL THEN NULL ELSE $7::timestamptz END) RETURNING ${BLOB_COLUMNS}`,
    [b.account_id, b.filename, b.declared_content_type, b.byte_size, b.checksum, b.data ?? null, b.at],
  );
  return rows[0];
}

export async function findBlob(db: Queryable, id: string): Promise<BlobRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<BlobRow>(`SELECT ${BLOB_COLUMNS} FROM document_blobs WHERE id = $1`, [id]);
  return rows[0];
}

/** Stores a direct upload's bytes once; false when they were stored already. */
export async function storeBlobData(db: Queryable, id: string, data: Buffer, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE document_blobs SET data = $2, uploaded_at = $3 WHERE id = $1 AND data IS NULL', [id, data, at]);
  return rowCount === 1;
}

export async function blobData(db: Queryable, id: string): Promise<Buffer | undefined> {
  const { rows } = await db.query<{ data: Buffer | null }>('SELECT data FROM document_blobs WHERE id = $1', [id]);
  return rows[0]?.data ?? undefined;
}

/** Deletes a blob no document or submission uses (one made for a file that turned out a duplicate). */
export async function deleteBlob(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM document_blobs WHERE id = $1', [id]);
}

export interface NewContent {
  data: Buffer;
  /** base64 MD5, as a blob's checksum. */
  checksum: string;
  sha256: string;
  rotation: number;
  at: Date;
}

/**
 * Gives the document new bytes (a rotated image) in a blob of their own, its extraction queued
 * again, and drops the old blob unless another document holds it (a blob attached twice). Only
 * while the document still has the bytes `expectedSha256` names, so of two rotations at once the
 * second is refused rather than lost: undefined then, and when the document is gone.
 * { duplicate } is the account's other document that already has these bytes.
 */
export async function replaceDocumentContent(db: Queryable, doc: DocumentRow, expectedSha256: string, c: NewContent): Promise<{ row: DocumentRow } | { duplicate: DocumentRow } | undefined> {
  const other = await db.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE account_id = $1 AND sha256 = $2 AND id <> $3 AND discarded_at IS NULL`, [doc.account_id, c.sha256, doc.id]);
  if (other.rows[0]) return { duplicate: other.rows[0] };
  const { rows } = await db.query<DocumentRow>(
    `WITH current AS (
       SELECT id, blob_id FROM documents WHERE id = $1 AND sha256 = $2 AND discarded_at IS NULL FOR UPDATE
     ), blob AS (
       INSERT INTO document_blobs (account_id, filename, declared_content_type, byte_size, checksum, data, created_at, uploaded_at)
       SELECT b.account_id, b.filename, b.declared_content_type, $4, $5, $6, $7, $7 FROM document_blobs b JOIN current ON b.id = current.blob_id
       RETURNING id
     ), updated AS (
       UPDATE documents d SET blob_id = (SELECT id FROM blob), sha256 = $3, file_size_bytes = $4, rotation = $8,
              job = 'extract', job_attempts = 0, next_attempt_at = $7, updated_at = $7
         FROM current WHERE d.id = current.id RETURNING d.*
     ), dropped AS (
       DELETE FROM document_blobs WHERE id = (SELECT blob_id FROM current)
          AND EXISTS (SELECT 1 FROM updated) AND NOT EXISTS (SELECT 1 FROM documents WHERE blob_id = (SELECT blob_id FROM current) AND id <> $1)
     )
     SELECT updated.*, file_size_bytes::int AS file_size_bytes FROM updated`,
    [doc.id, expectedSha256, c.sha256, c.data.length, c.checksum, c.data, c.at, c.rotation],
  );
  return rows[0] ? { row: rows[0] } : undefined;
}

export interface NewDocument {
  account_id: string;
  blob_id: string;
  name: string;
  source: 'api' | 'upload' | 'email';
  email_submission_id?: string;
  file_name: string;
  file_content_type: string;
  file_size_bytes: number;
  sha256: string;
  at: Date;
}

/**
 * Inserts the document with its extraction job due at once; { duplicate } is the account's
 * document with the same bytes, when there is one (the unique index decides, so two uploads of
 * one file at the same moment cannot both win).
 */
export async function insertDocument(db: Queryable, d: NewDocument): Promise<{ row: DocumentRow } | { duplicate: DocumentRow }> {
  const { rows } = await db.query<DocumentRow>(
    `INSERT INTO documents (account_id, blob_id, name, source, file_name, file_content_type, file_size_bytes, sha256, email_submission_id, job, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $10, 'extract', $9, $9, $9)
     ON CONFLICT (account_id, sha256) WHERE discarded_at IS NULL DO NOTHING RETURNING ${DOCUMENT_COLUMNS}`,
    [d.account_id, d.blob_id, d.name, d.source, d.file_name, d.file_content_type, d.file_size_bytes, d.sha256, d.at, d.email_submission_id ?? null],
  );
  if (rows[0]) return { row: rows[0] };
  const existing = await db.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE account_id = $1 AND sha256 = $2 AND discarded_at IS NULL`, [d.account_id, d.sha256]);
  return { duplicate: existing.rows[0] };
}

/** The account's documents with these ids (discarded ones are gone). */
export async function findDocuments(db: Queryable, accountId: string, ids: string[]): Promise<DocumentRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE account_id = $1 AND id = ANY($2::uuid[]) AND discarded_at IS NULL`,
    [accountId, valid],
  );
  return rows;
}

export const findDocument = async (db: Queryable, accountId: string, id: string): Promise<DocumentRow | undefined> => (await findDocuments(db, accountId, [id]))[0];

export interface DocumentFilters {
  /** Words of the file name (or the document's name), all of them, in any case. */
  filename?: string;
  /** A number or reference the document names: a container, bill of lading or booking number. */
  reference?: string;
  document_types?: string[];
}

export const DOCUMENT_SORTS = { created_at: 'created_at', document_type: 'coalesce(document_type_manual, document_type)', added_by: 'source' } as const;
export type DocumentSort = { field: keyof typeof DOCUMENT_SORTS; descending: boolean };

export const listDocuments = (db: Queryable, accountId: string, f: DocumentFilters, sort: DocumentSort, limit: number, offset: number): Promise<CountedPage<DocumentRow>> =>
  pageOfAccount<DocumentRow>(
    db,
    'documents',
    accountId,
    limit,
    offset,
    (where) => {
      where.either(true, 'discarded_at IS NULL', 'TRUE');
      for (const word of f.filename?.split(/\s+/).filter(Boolean) ?? []) {
        where.when(`%${word.replace(/[\\%_]/g, '\\$&')}%`, (p) => `(file_name ILIKE ${p} OR name ILIKE ${p})`);
      }
      where.when(f.reference?.toUpperCase(), (p) => `(numbers->'containers' ? ${p} OR numbers->'bills_of_lading' ? ${p} OR numbers->'bookings' ? ${p})`);
      where.oneOf('coalesce(document_type_manual, document_type)', f.document_types);
    },
    `${DOCUMENT_SORTS[sort.field]} ${sort.descending ? 'DESC' : 'ASC'}`,
  );

export interface DocumentEdit {
  document_type_manual?: string | null;
  /** null clears the manual data; undefined leaves it. */
  extracted_data_manual?: Record<string, unknown> | null;
}

export async function updateDocument(db: Queryable, accountId: string, id: string, edit: DocumentEdit, at: Date): Promise<DocumentRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<DocumentRow>(
    `UPDATE documents SET
       document_type_manual = CASE WHEN $3 THEN $4 ELSE document_type_manual END,
       extracted_data_manual = CASE WHEN $5 THEN $6::jsonb ELSE extracted_data_manual END,
       updated_at = $7
     WHERE account_id = $1 AND id = $2 AND discarded_at IS NULL RETURNING ${DOCUMENT_COLUMNS}`,
    [accountId, id, 'document_type_manual' in edit, edit.document_type_manual ?? null, 'extracted_data_manual' in edit, edit.extracted_data_manual === undefined ? null : JSON.stringify(edit.extracted_data_manual), at],
  );
  return rows[0];
}

/** Soft-deletes; false when the account has no such document. Its job, if any, is dropped. */
export async function discardDocument(db: Queryable, accountId: string, id: string, at: Date): Promise<boolean> {
  if (!isUuid(id)) return false;
  const { rowCount } = await db.query(
    'UPDATE documents SET discarded_at = $3, updated_at = $3, job = NULL, next_attempt_at = NULL WHERE account_id = $1 AND id = $2 AND discarded_at IS NULL',
    [accountId, id, at],
  );
  return rowCount === 1;
}

/**
 * Queues `job` for the document, due at once. An extraction already queued is not downgraded to
 * a relink (it relinks too). Undefined when the account has no such document.
 */
export async function queueDocumentJob(db: Queryable, accountId: string, id: string, job: DocumentJob, at: Date): Promise<DocumentRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<DocumentRow>(
    `UPDATE documents SET job = CASE WHEN job = 'extract' THEN 'extract' ELSE $3 END, job_attempts = 0,
            next_attempt_at = $4, updated_at = $4
      WHERE account_id = $1 AND id = $2 AND discarded_at IS NULL RETURNING ${DOCUMENT_COLUMNS}`,
    [accountId, id, job, at],
  );
  return rows[0];
}

// A document whose job is due ($1 now) and not leased: dueAt1 of leases.ts, for the alias d.
const DUE = dueAt1('documents').replace(/next_attempt_at|locked_until/g, 'd.$&');

/**
 * The claim ($1 now, $2 lease end, $3 how many, $4 jobs an account may have running): account by
 * account, at most one job each, the accounts with the fewest jobs running first and, among them,
 * the one whose oldest due job is oldest; an account with $4 running is passed over. So one
 * account's backlog, or its one slow file, never takes every slot. Each job's attempt is counted
 * as it is claimed, before it runs: a run that stops the process is an attempt too.
 */
export const CLAIM_SQL = `
  WITH RECURSIVE busy AS (
    (SELECT account_id FROM documents WHERE next_attempt_at IS NOT NULL ORDER BY account_id LIMIT 1)
    UNION ALL
    SELECT (SELECT d.account_id FROM documents d WHERE d.next_attempt_at IS NOT NULL AND d.account_id > busy.account_id ORDER BY d.account_id LIMIT 1)
      FROM busy WHERE busy.account_id IS NOT NULL
  ), turns AS (
    SELECT busy.account_id FROM busy
     CROSS JOIN LATERAL (SELECT count(*) AS n FROM documents d WHERE d.account_id = busy.account_id AND d.next_attempt_at IS NOT NULL AND d.locked_until > $1) running
     CROSS JOIN LATERAL (SELECT d.next_attempt_at AS at FROM documents d WHERE d.account_id = busy.account_id AND ${DUE} ORDER BY d.next_attempt_at LIMIT 1) oldest
     WHERE busy.account_id IS NOT NULL AND running.n < $4
     ORDER BY running.n, oldest.at LIMIT $3
  )
  UPDATE documents SET locked_until = $2, job_attempts = job_attempts + 1
   WHERE ctid = ANY (ARRAY(
     SELECT job.ctid FROM turns CROSS JOIN LATERAL (
       SELECT d.ctid FROM documents d WHERE d.account_id = turns.account_id AND ${DUE} ORDER BY d.next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED
     ) job))
  RETURNING ${DOCUMENT_COLUMNS}`;

/**
 * Leases up to `limit` documents whose job is due, fairly between accounts (CLAIM_SQL), their attempts
 * counted. Claims take turns (a transaction-scoped lock): two at once would both see an account
 * below `perAccount` and together take it over.
 */
export const claimDueDocuments = (db: Db, now: Date, leaseUntil: Date, limit: number, perAccount: number): Promise<DocumentRow[]> =>
  withTransaction(db, async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('documents:claim', 0))`);
    return (await tx.query<DocumentRow>(CLAIM_SQL, [now, leaseUntil, limit, perAccount])).rows;
  });

export interface ExtractionResult {
  document_type: string;
  classification_notes: string | null;
  status: 'extracted' | 'failed';
  text: string | null;
  numbers: ExtractedNumbers;
  schema_version: string;
  payload: Record<string, unknown>;
}

/** Records an extraction: a new representation, the document's type and numbers, its job done. */
export async function saveExtraction(db: Queryable, doc: DocumentRow, r: ExtractionResult, at: Date): Promise<DocumentRow> {
  const { rows } = await db.query<DocumentRow>(
    `WITH representation AS (
       INSERT INTO document_representations (account_id, document_id, schema_version, payload, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5) RETURNING id
     )
     UPDATE documents SET last_representation_id = (SELECT id FROM representation), document_type = $6, classification_notes = $7,
            extraction_status = $8, extracted_text = $9, numbers = $10, updated_at = $5
      WHERE id = $2 RETURNING ${DOCUMENT_COLUMNS}`,
    [doc.account_id, doc.id, r.schema_version, JSON.stringify(r.payload), at, r.document_type, r.classification_notes, r.status, r.text, JSON.stringify(r.numbers)],
  );
  return rows[0];
}

/** The shipments and containers the document names. */
export async function saveLinks(db: Queryable, doc: DocumentRow, shipmentIds: string[], containerIds: string[], at: Date): Promise<void> {
  await db.query('UPDATE documents SET shipment_ids = $2, container_ids = $3, updated_at = $4 WHERE id = $1', [doc.id, shipmentIds, containerIds, at]);
}

/**
 * A claimed job's next step, queued in its place (due at `at`, still under this worker's lease, so
 * it is retaken only if this worker dies); unless the job came due again meanwhile (a reextract
 * asked for while it ran): that one stands.
 */
export async function continueJob(db: Queryable, doc: DocumentRow, next: DocumentJob, at: Date): Promise<void> {
  await db.query(
    `UPDATE documents SET job = $3, next_attempt_at = $4, job_attempts = 0 WHERE id = $1 AND next_attempt_at = $2`,
    [doc.id, doc.next_attempt_at, next, at],
  );
}

/** The job is done (unless it came due again meanwhile) and its lease given back. */
export async function finishJob(db: Queryable, doc: DocumentRow, at: Date): Promise<void> {
  await db.query(
    `UPDATE documents SET job = CASE WHEN next_attempt_at = $2 THEN NULL ELSE job END,
            next_attempt_at = CASE WHEN next_attempt_at = $2 THEN NULL ELSE next_attempt_at END, locked_until = NULL, updated_at = $3
      WHERE id = $1`,
    [doc.id, doc.next_attempt_at, at],
  );
}

/**
 * The job waits until `until` (a relink waiting for the account's tracking limit): its lease given
 * back, its attempts not held against it, as this one ran to its end. Unless it came due again
 * meanwhile: that one stands.
 */
export async function deferJob(db: Queryable, doc: DocumentRow, until: Date, at: Date): Promise<void> {
  await db.query(
    `UPDATE documents SET next_attempt_at = $3, job_attempts = 0, locked_until = NULL, updated_at = $4 WHERE id = $1 AND next_attempt_at = $2`,
    [doc.id, doc.next_attempt_at, until, at],
  );
}

/** The numbers of the document svc did not track by itself, and why. */
export async function saveNotTracked(db: Queryable, doc: DocumentRow, notTracked: NotTracked[], at: Date): Promise<void> {
  await db.query('UPDATE documents SET not_tracked = $2, updated_at = $3 WHERE id = $1', [doc.id, JSON.stringify(notTracked), at]);
}

/** A failed attempt (counted when it was claimed): due again at `retryAt`, or given up (null). */
export async function jobAttemptFailed(db: Queryable, doc: DocumentRow, retryAt: Date | null, at: Date): Promise<void> {
  await db.query(
    `UPDATE documents SET next_attempt_at = $2, locked_until = NULL,
            job = CASE WHEN $2::timestamptz IS NULL THEN NULL ELSE job END, updated_at = $3
      WHERE id = $1`,
    [doc.id, retryAt, at],
  );
}

export interface NumberMatches {
  shipment_ids: string[];
  container_ids: string[];
  /** The numbers the account already tracks (a shipment or an active tracking request has them). */
  tracked: string[];
}

/** The account's shipments and containers these numbers name, and which numbers it tracks already. */
export async function matchNumbers(db: Queryable, accountId: string, numbers: ExtractedNumbers): Promise<NumberMatches> {
  const shipmentNumbers = [...numbers.bills_of_lading, ...numbers.bookings];
  const all = [...numbers.containers, ...shipmentNumbers];
  if (all.length === 0) return { shipment_ids: [], container_ids: [], tracked: [] };
  const { rows } = await db.query<{ kind: 'shipment' | 'container' | 'request'; id: string; number: string }>(
    `SELECT 'container' AS kind, c.id, c.number FROM containers c WHERE c.account_id = $1 AND c.number = ANY($2::text[])
     UNION ALL
     SELECT 'shipment', c.shipment_id, c.number FROM containers c WHERE c.account_id = $1 AND c.number = ANY($2::text[])
     UNION ALL
     SELECT 'shipment', s.id, n.number FROM shipments s
       CROSS JOIN LATERAL (VALUES (upper(s.bill_of_lading_number)), (upper(s.booking_number)), (upper(s.request_number))) AS n(number)
      WHERE s.account_id = $1 AND n.number = ANY($3::text[])
     UNION ALL
     SELECT 'request', t.id, upper(t.request_number) FROM tracking_requests t
      WHERE t.account_id = $1 AND upper(t.request_number) = ANY($4::text[]) AND t.status IN ('pending', 'awaiting_manifest', 'created')`,
    [accountId, numbers.containers, shipmentNumbers, all],
  );
  const ids = (kind: string) => [...new Set(rows.filter((r) => r.kind === kind).map((r) => r.id))];
  return { shipment_ids: ids('shipment'), container_ids: ids('container'), tracked: [...new Set(rows.map((r) => r.number))] };
}

export async function findRepresentations(db: Queryable, accountId: string, ids: string[]): Promise<RepresentationRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<RepresentationRow>('SELECT * FROM document_representations WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, valid]);
  return rows;
}

/** The link-signing key made by migration 021, shared by every process on this database. */
export async function storedLinkSecret(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ secret: string }>('SELECT secret FROM document_link_secret');
  return rows[0].secret;
}

/** The account a document belongs to (a signed link names the document alone). */
export async function accountOfDocument(db: Queryable, id: string): Promise<string | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<{ account_id: string }>('SELECT account_id FROM documents WHERE id = $1 AND discarded_at IS NULL', [id]);
  return rows[0]?.account_id;
}
