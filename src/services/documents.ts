// Documents: uploads (multipart, or the reference's direct upload: create a blob, PUT its bytes,
// attach it by signed id), duplicates, signed download links, and the jobs a document queues.
// Processing itself is the document worker's (documents-worker.ts).
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { loadConfig, type Config } from '../config/index.ts';
import { Conflict, Invalid, NotFound, TooLarge, type FieldPath } from '../domain/errors.ts';
import { isImage, sniffContentType, SNIFFED_TYPES } from '../domain/documents/sniff.ts';
import { documentFileName } from '../domain/documents/file-name.ts';
import { signToken, verifyToken } from '../domain/documents/signed-token.ts';
import { SECOND } from '../domain/time-units.ts';
import type { ExtractionLimits } from '../documents/extraction-processes.ts';
import { NotRotatable, rotateImage, type Rotation } from '../documents/rotate-image.ts';
import type { Db, Queryable } from '../store/db.ts';
import {
  accountOfDocument,
  blobData,
  deleteBlob,
  findBlob,
  findDocument,
  insertBlob,
  insertDocument,
  queueDocumentJob,
  replaceDocumentContent,
  storeBlobData,
  storedLinkSecret,
  type BlobRow,
  type DocumentJob,
  type DocumentRow,
} from '../store/documents.ts';
import { admitDocuments } from './intake-budget.ts';

export interface DocumentSettings {
  /** Largest file accepted, in bytes (SVC_DOCUMENT_MAX_BYTES). */
  maxBytes: number;
  /** How long a download or upload link is valid (SVC_DOCUMENT_LINK_TTL_S). */
  linkTtlMs: number;
  /** The signing key (SVC_DOCUMENT_LINK_SECRET); unset, the one kept in the database. */
  linkSecret?: string;
  /** The domain of the accounts' inbound e-mail addresses (SVC_INBOUND_DOMAIN). */
  inboundDomain: string;
  /** The bounds of a process reading a document or parsing a message (SVC_DOCUMENT_EXTRACT_MEMORY_MB, _TIMEOUT_S). */
  extraction: ExtractionLimits;
}

export const documentSettingsFrom = (config: Pick<Config, 'SVC_DOCUMENT_MAX_BYTES' | 'SVC_DOCUMENT_LINK_TTL_S' | 'SVC_DOCUMENT_LINK_SECRET' | 'SVC_INBOUND_DOMAIN' | 'SVC_DOCUMENT_EXTRACT_MEMORY_MB' | 'SVC_DOCUMENT_EXTRACT_TIMEOUT_S'>): DocumentSettings => ({
  maxBytes: config.SVC_DOCUMENT_MAX_BYTES,
  linkTtlMs: config.SVC_DOCUMENT_LINK_TTL_S * SECOND,
  linkSecret: config.SVC_DOCUMENT_LINK_SECRET,
  inboundDomain: config.SVC_INBOUND_DOMAIN,
  extraction: { memoryMb: config.SVC_DOCUMENT_EXTRACT_MEMORY_MB, timeoutMs: config.SVC_DOCUMENT_EXTRACT_TIMEOUT_S * SECOND },
});

/** The settings of a svc configured with nothing: the config's defaults, written there alone. */
export const defaultDocumentSettings: DocumentSettings = Object.freeze(documentSettingsFrom(loadConfig({})));

// The database's key is read once per process (it never changes).
let storedSecret: Promise<string> | undefined;
/** The key links are signed with: SVC_DOCUMENT_LINK_SECRET, else the database's. */
export const linkSecret = (db: Queryable, settings: DocumentSettings): Promise<string> =>
  settings.linkSecret ? Promise.resolve(settings.linkSecret) : (storedSecret ??= storedLinkSecret(db).catch((err: unknown) => {
    storedSecret = undefined;
    throw err;
  }));

/** A file over the cap (a 413 over HTTP). */
export const tooLarge = (maxBytes: number) =>
  new TooLarge(`The document is larger than ${maxBytes} bytes (${(maxBytes / 1024 / 1024).toFixed(1)} MB), the most svc accepts (SVC_DOCUMENT_MAX_BYTES).`, maxBytes);

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The 409 for bytes the account already has in `existing`. */
const duplicateOf = (existing: DocumentRow) =>
  new Conflict('duplicate_document', `This account already has a document with the same content: ${existing.name} (${existing.id}).`, undefined, {
    existing_document_id: existing.id,
    existing_document_name: existing.name,
  });

export interface Upload {
  name?: string;
  filename: string;
  declaredContentType: string | null;
  bytes: Buffer;
  /** The e-mail submission it came in; absent, an upload through the API. */
  emailSubmissionId?: string;
}

/**
 * A new document from `upload`'s bytes, its extraction queued in the same statement. The content
 * type is the bytes' own; the same bytes twice in one account are a 409 naming the first; past
 * the account's limit on new documents, a LimitExceeded.
 */
export async function createDocument(db: Queryable, clock: Clock, settings: DocumentSettings, accountId: string, upload: Upload, field: FieldPath, blob?: BlobRow): Promise<DocumentRow> {
  if (upload.bytes.length > settings.maxBytes) throw tooLarge(settings.maxBytes);
  if (upload.bytes.length === 0) throw new Invalid(field, 'The document is empty (0 bytes).', 'empty_document');
  const contentType = sniffContentType(upload.bytes);
  if (!contentType) {
    throw new Invalid(field, `svc cannot read this kind of file: its bytes are none of ${SNIFFED_TYPES.join(', ')}.`, 'unsupported_content_type');
  }
  // An e-mail's documents were admitted together, with their message (acceptEmail).
  if (!upload.emailSubmissionId) await admitDocuments(db, clock, accountId);
  const at = clock.now();
  const stored = blob ?? (await insertBlob(db, { account_id: accountId, filename: upload.filename, declared_content_type: upload.declaredContentType, byte_size: upload.bytes.length, checksum: md5(upload.bytes), data: upload.bytes, at }));
  const result = await insertDocument(db, {
    account_id: accountId,
    blob_id: stored.id,
    name: upload.name?.trim() || upload.filename,
    source: upload.emailSubmissionId ? 'email' : 'api',
    email_submission_id: upload.emailSubmissionId,
    file_name: upload.filename,
    file_content_type: contentType,
    file_size_bytes: upload.bytes.length,
    sha256: sha256(upload.bytes),
    at,
  });
  if ('duplicate' in result) {
    // The blob made for these bytes above serves nothing now. A direct upload's blob (given) was
    // made by the client's own request and is left as it is.
    if (!blob) await deleteBlob(db, stored.id);
    throw duplicateOf(result.duplicate);
  }
  return result.row;
}

// ---- direct upload: blob, PUT, attach ------------------------------------------------------

export interface DirectUploadRequest {
  filename: string;
  content_type?: string | null;
  byte_size: number;
  /** base64 MD5 of the bytes to come; the PUT is refused when they differ. */
  checksum: string;
}

export interface DirectUpload {
  blob: BlobRow;
  signedId: string;
  /** The token of the PUT URL; it expires with the link TTL. */
  uploadToken: string;
}

const BLOB_FIELD = ['blob', 'byte_size'];

export async function createDirectUpload(db: Db, clock: Clock, settings: DocumentSettings, accountId: string, input: DirectUploadRequest): Promise<DirectUpload> {
  if (input.byte_size > settings.maxBytes) throw tooLarge(settings.maxBytes);
  if (input.byte_size < 1) throw new Invalid(BLOB_FIELD, 'byte_size must be at least 1.', 'empty_document');
  // Refused before the bytes are sent when the document they are for would be.
  await admitDocuments(db, clock, accountId);
  const at = clock.now();
  const blob = await insertBlob(db, { account_id: accountId, filename: documentFileName(input.filename), declared_content_type: input.content_type ?? null, byte_size: input.byte_size, checksum: input.checksum, at });
  const secret = await linkSecret(db, settings);
  return {
    blob,
    // A signed id lasts as long as an upload may reasonably wait to be attached: a day.
    signedId: signToken(secret, 'blob', blob.id, new Date(at.getTime() + 86_400 * SECOND)),
    uploadToken: signToken(secret, 'upload', blob.id, new Date(at.getTime() + settings.linkTtlMs)),
  };
}

/** The bytes of a direct upload, PUT to its signed URL (verified by the route): stored when their size and MD5 are the ones declared. */
export async function receiveDirectUpload(db: Db, clock: Clock, id: string, bytes: Buffer): Promise<void> {
  const blob = await findBlob(db, id);
  if (!blob) throw new NotFound('The upload this URL was made for no longer exists.');
  if (bytes.length !== blob.byte_size) throw new Invalid([], `The upload has ${bytes.length} bytes; the blob was declared with byte_size ${blob.byte_size}.`, 'byte_size_mismatch');
  if (md5(bytes) !== blob.checksum) throw new Invalid([], 'The bytes do not match the checksum (base64 MD5) the blob was declared with.', 'checksum_mismatch');
  if (!(await storeBlobData(db, id, bytes, clock.now()))) throw new Conflict('already_uploaded', 'The bytes of this upload were sent already.');
}

const ATTACHED = ['data', 'attributes', 'attached_document'];

/** POST /documents with `attached_document`: the document made from a direct upload's blob. */
export async function attachDocument(db: Db, clock: Clock, settings: DocumentSettings, accountId: string, name: string, signedId: string): Promise<DocumentRow> {
  const result = verifyToken(await linkSecret(db, settings), 'blob', signedId, clock.now());
  if (!('id' in result)) throw new Invalid(ATTACHED, 'attached_document is not a signed blob id from POST /v2/direct_uploads (or it has expired).', 'invalid_signed_id');
  const blob = await findBlob(db, result.id);
  // Another account's blob is as unknown as none.
  if (!blob || blob.account_id !== accountId) throw new Invalid(ATTACHED, 'attached_document names no upload of this account.', 'invalid_signed_id');
  const bytes = await blobData(db, blob.id);
  if (!bytes) throw new Invalid(ATTACHED, 'The upload has no bytes yet: PUT them to its direct_upload URL first.', 'not_uploaded');
  return createDocument(db, clock, settings, accountId, { name, filename: blob.filename, declaredContentType: blob.declared_content_type, bytes }, ATTACHED, blob);
}

// ---- download -------------------------------------------------------------------------------

/** A signed link to the document's bytes, valid for the link TTL. */
export async function downloadToken(db: Queryable, clock: Clock, settings: DocumentSettings, doc: DocumentRow): Promise<string> {
  return signToken(await linkSecret(db, settings), 'download', doc.id, new Date(clock.now().getTime() + settings.linkTtlMs));
}

/** The document a (verified) download link names and its bytes, if it is still there. */
export async function openDownload(db: Db, id: string): Promise<{ doc: DocumentRow; bytes: Buffer }> {
  const doc = await findDocumentById(db, id);
  const bytes = doc && (await blobData(db, doc.blob_id));
  if (!doc || !bytes) throw new NotFound("Couldn't find Document");
  return { doc, bytes };
}

// The link carries the id alone; the account is the document's own.
async function findDocumentById(db: Db, id: string): Promise<DocumentRow | undefined> {
  const accountId = await accountOfDocument(db, id);
  return accountId ? findDocument(db, accountId, id) : undefined;
}

// ---- jobs -------------------------------------------------------------------------------------

/** Queues processing again (reextract, reclassify: 'extract'; relink: 'relink'). */
export async function queueJob(db: Db, clock: Clock, accountId: string, id: string, job: DocumentJob): Promise<DocumentRow> {
  const row = await queueDocumentJob(db, accountId, id, job, clock.now());
  if (!row) throw new NotFound("Couldn't find Document");
  return row;
}

export const ROTATIONS = [90, 180, 270] as const;

const ROTATE_FIELD = ['degrees'];

/**
 * Turns an image document's pixels clockwise by `degrees`: the turned bytes become its file (a
 * new SHA-256; bytes another document of the account has already are a 409 naming it, as at
 * upload) and its extraction is queued again, as the text reads differently turned. PDFs are
 * refused, as the reference refuses them (images only).
 */
export async function rotateDocument(db: Db, clock: Clock, accountId: string, id: string, degrees: Rotation): Promise<DocumentRow> {
  const doc = await findDocument(db, accountId, id);
  if (!doc) throw new NotFound("Couldn't find Document");
  if (!isImage(doc.file_content_type)) throw new Invalid(ROTATE_FIELD, `Only images (PNG, JPEG, TIFF) can be rotated; this document is ${doc.file_content_type}.`, 'not_rotatable');
  const bytes = await blobData(db, doc.blob_id);
  if (!bytes) throw new Invalid(ROTATE_FIELD, 'No document attached: the document has no file to rotate.', 'no_document_attached');
  let turned: Buffer;
  try {
    turned = await rotateImage(bytes, doc.file_content_type, degrees);
  } catch (err) {
    if (err instanceof NotRotatable) throw new Invalid(ROTATE_FIELD, err.message, 'not_rotatable');
    throw err;
  }
  const result = await replaceDocumentContent(db, doc, doc.sha256, {
    data: turned,
    checksum: md5(turned),
    sha256: sha256(turned),
    rotation: (doc.rotation + degrees) % 360,
    at: clock.now(),
  });
  if (!result) throw new Conflict('document_changed', 'The document was rotated or deleted while this rotation ran; read it again and retry.');
  if ('duplicate' in result) throw duplicateOf(result.duplicate);
  return result.row;
}
