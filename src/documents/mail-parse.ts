// An e-mail message parsed (postal-mime) into what svc keeps of it: run in an extraction process
// (extraction-processes.ts), never on the thread that answers requests, since a message is
// whatever a sender made it. Attachments past MAX_MAIL_ATTACHMENTS come back by name only.
import PostalMime, { type Address, type Email } from 'postal-mime';
import { MAX_MAIL_ATTACHMENTS, MAX_MIME_DEPTH, MAX_RFC822_DEPTH } from './limits.ts';

export interface MailAttachment {
  filename: string | null;
  mimeType: string;
  content: Uint8Array;
  /** A message/rfc822 part nested past MAX_RFC822_DEPTH: postal-mime left it unparsed, and so does extraction. */
  tooDeep: boolean;
}

export interface ParsedMail {
  subject: string;
  /** The body as text (see mailBodyText). */
  body: string;
  from: string[];
  to: string[];
  cc: string[];
  /** The Date header as written. */
  date: string | null;
  messageId: string | null;
  inReplyTo: string | null;
  references: string | null;
  /** The top part's media type, lower case, without parameters. */
  contentType: string | null;
  /** A header field's name is printable ASCII without spaces: text without one is no message. */
  hasHeaderFields: boolean;
  /** The first MAX_MAIL_ATTACHMENTS attachments. */
  attachments: MailAttachment[];
  /** The names of the attachments after those (null: none given). */
  overflow: (string | null)[];
}

/** A message's body as text: an HTML-only message's without the tags is enough to find labels and numbers. */
export const mailBodyText = (mail: Pick<Email, 'text' | 'html'>): string =>
  mail.text ?? mail.html?.replace(/<(?:br|\/p|\/div|\/tr)[^>]*>/gi, '\n').replace(/<[^>]+>/g, ' ') ?? '';

const addresses = (list: Address[] | Address | undefined): string[] =>
  [list ?? []].flat().flatMap((a) => (a.address !== undefined ? [a.address] : a.group.map((m) => m.address))).filter(Boolean);

/** Throws what postal-mime throws for bytes it cannot read as a message. */
export async function parseMail(raw: Uint8Array): Promise<ParsedMail> {
  const mail = await PostalMime.parse(raw, { maxNestingDepth: MAX_MIME_DEPTH, maxRfc822NestingDepth: MAX_RFC822_DEPTH });
  // Only with an attachmentEncoding option, not used here, is an attachment's content a string.
  const binary = mail.attachments.filter((a) => typeof a.content !== 'string');
  return {
    subject: mail.subject ?? '',
    body: mailBodyText(mail),
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    date: mail.date ?? null,
    messageId: mail.messageId ?? null,
    inReplyTo: mail.inReplyTo ?? null,
    references: mail.references ?? null,
    contentType: mail.headers.find((h) => h.key === 'content-type')?.value.split(';')[0].trim().toLowerCase() ?? null,
    hasHeaderFields: mail.headers.some((h) => /^[!-9;-~]+$/.test(h.originalKey)),
    attachments: binary.slice(0, MAX_MAIL_ATTACHMENTS).map((a) => ({ filename: a.filename ?? null, mimeType: a.mimeType, content: a.content instanceof Uint8Array ? a.content : new Uint8Array(a.content as ArrayBuffer), tooDeep: a.rfc822DepthExceeded === true })),
    overflow: binary.slice(MAX_MAIL_ATTACHMENTS).map((a) => a.filename ?? null),
  };
}
