// E-mail submissions: a message (from the SMTP listener or POST /v2/email_submissions) stored with
// the documents it becomes, in one transaction, before the sender is told it was accepted: what
// is acknowledged is in the database, extraction jobs queued, and a crash before the commit leaves
// the sender to try again. Trying again is safe: the same bytes for the same account are the
// submission stored before (a crash after the commit but before the answer, or a message for
// several accounts that failed for a later one).
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { Conflict, Invalid, NotFound, TooLarge } from '../domain/errors.ts';
import { documentFileName } from '../domain/documents/file-name.ts';
import { MAX_MAIL_ATTACHMENTS } from '../documents/limits.ts';
import { withTransaction, type Db, type Queryable } from '../store/db.ts';
import { findDocuments, insertBlob, type DocumentRow } from '../store/documents.ts';
import {
  accountOfInboundAlias,
  documentIdsOfSubmissions,
  inboundAliasOf,
  insertEmailSubmission,
  lockedSubmissionOfDigest,
  type EmailSubmissionRow,
} from '../store/email-submissions.ts';
import { createDocument, tooLarge, type DocumentSettings } from './documents.ts';
import { admitDocuments } from './intake-budget.ts';

export interface AcceptedEmail {
  submission: EmailSubmissionRow;
  documents: DocumentRow[];
  /** Attachments that became no document, and why (the same bytes already there, a kind of file svc cannot read…). */
  skipped: { filename: string; reason: string }[];
  /** The account had this very message already: `submission` is the one stored then, nothing new was. */
  repeated: boolean;
}

const validDate = (raw: string | null): Date | null => {
  const date = raw ? new Date(raw) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
};

// A document's name and text cannot hold NUL (PostgreSQL text).
const clean = (text: string) => text.replaceAll('\u0000', '');

/** The subject and body as one text document, the subject first and apart, so extraction reads both and it stays text/plain. */
function messageText(subject: string, body: string): Buffer | undefined {
  const text = `${subject}\n\n${body}`;
  return text.trim() ? Buffer.from(text, 'utf8') : undefined;
}

const SKIPPABLE = (err: unknown): err is Invalid | Conflict | TooLarge => err instanceof Invalid || err instanceof TooLarge || (err instanceof Conflict && err.code === 'duplicate_document');

/**
 * Stores `raw` (an RFC 822 message) for the account with a document (source 'email') for each
 * attachment and one for its subject and body, their extraction queued. An attachment that
 * cannot be a document is skipped, never the mail.
 */
export async function acceptEmail(db: Db, clock: Clock, settings: DocumentSettings, accountId: string, raw: Buffer, receivedBy: 'smtp' | 'api'): Promise<AcceptedEmail> {
  if (raw.length > settings.maxBytes) throw tooLarge(settings.maxBytes);
  if (raw.length === 0) throw new Invalid([], 'The message is empty (0 bytes).', 'empty_message');
  // Parsed in an extraction process: a message is whatever its sender made it. Loaded with the
  // first message, as the parse is no part of svc serve's start.
  const parsed = await (await import('../documents/extraction-processes.ts')).parseMailInChild(raw, settings.extraction);
  if ('refused' in parsed) throw new Invalid([], parsed.refused, 'malformed_message');
  const mail = parsed.mail;
  if (!mail.hasHeaderFields) throw new Invalid([], 'The message has no header fields: it is no RFC 822 message.', 'malformed_message');
  const subject = clean(mail.subject);
  const body = clean(mail.body);
  const rawSha256 = createHash('sha256').update(raw).digest('hex');
  return withTransaction(db, async (tx) => {
    const stored = await lockedSubmissionOfDigest(tx, accountId, rawSha256);
    if (stored) return { submission: stored, documents: await documentsOf(tx, stored), skipped: [], repeated: true };
    // The message is taken whole or not at all (the sender tries again later): a message may take
    // the account past its limit on new documents by its own attachments, and then none is taken.
    await admitDocuments(tx, clock, accountId);
    const at = clock.now();
    const rawBlob = await insertBlob(tx, {
      account_id: accountId,
      filename: 'message.eml',
      declared_content_type: 'message/rfc822',
      byte_size: raw.length,
      checksum: createHash('md5').update(raw).digest('base64'),
      data: raw,
      at,
    });
    const submission = await insertEmailSubmission(tx, {
      account_id: accountId,
      subject,
      body: body || null,
      from: mail.from,
      to: mail.to,
      cc: mail.cc,
      sent_at: validDate(mail.date),
      message_id: mail.messageId,
      in_reply_to: mail.inReplyTo,
      references: mail.references?.split(/\s+/).filter(Boolean) ?? [],
      content_type: mail.contentType,
      received_by: receivedBy,
      raw_blob_id: rawBlob.id,
      raw_sha256: rawSha256,
      at,
    });
    const files: { filename: string; declaredContentType: string; bytes: Buffer }[] = mail.attachments.map((a, i) => ({
      filename: documentFileName(a.filename, `attachment-${i + 1}`),
      declaredContentType: a.mimeType,
      bytes: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
    }));
    const text = messageText(subject, body);
    if (text) files.unshift({ filename: 'message.txt', declaredContentType: 'text/plain', bytes: text });
    const past = mail.attachments.length;
    const overflow = mail.overflow.map((name, i) => ({ filename: documentFileName(name, `attachment-${past + i + 1}`), reason: `The message has more than ${MAX_MAIL_ATTACHMENTS} attachments; svc takes the first ${MAX_MAIL_ATTACHMENTS}.` }));
    const accepted: AcceptedEmail = { submission, documents: [], skipped: overflow, repeated: false };
    for (const file of files) {
      const name = file.bytes === text ? `${subject || '(no subject)'} (message text)` : undefined;
      try {
        accepted.documents.push(await createDocument(tx, clock, settings, accountId, { ...file, name, emailSubmissionId: submission.id }, ['attachments']));
      } catch (err) {
        if (!SKIPPABLE(err)) throw err;
        accepted.skipped.push({ filename: file.filename, reason: err.detail });
      }
    }
    return accepted;
  });
}

async function documentsOf(db: Queryable, submission: EmailSubmissionRow): Promise<DocumentRow[]> {
  const ids = (await documentIdsOfSubmissions(db, [submission.id])).get(submission.id) ?? [];
  return findDocuments(db, submission.account_id, ids);
}

/** The address mail for the account goes to: <its alias>@<the inbound domain>. */
export async function inboundAddress(db: Queryable, settings: DocumentSettings, accountId: string): Promise<string> {
  const alias = await inboundAliasOf(db, accountId);
  if (!alias) throw new NotFound("Couldn't find Account");
  return `${alias}@${settings.inboundDomain}`;
}

/** The account an inbound address (<alias>@<domain>) names, when the domain is svc's. */
export async function recipientAccount(db: Queryable, inboundDomain: string, address: string): Promise<string | undefined> {
  const at = address.lastIndexOf('@');
  if (at < 1 || address.slice(at + 1).toLowerCase() !== inboundDomain.toLowerCase()) return undefined;
  return accountOfInboundAlias(db, address.slice(0, at));
}

export const submissionNotFound = () => new NotFound("Couldn't find EmailSubmission");
