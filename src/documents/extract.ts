// The document extraction engine's entry: bytes and their (sniffed) content type in, the document's
// type, text, numbers and schema fields out. This adapter turns bytes into text (PDF text layer,
// OCR, e-mail parts); src/domain/documents/extract/ reads the text.
import PostalMime, { type Email } from 'postal-mime';
import { extractFromText } from '../domain/documents/extract/extract-text.ts';
import { nothingRead, type Extraction } from '../domain/documents/extraction.ts';
import { conformingFields } from '../domain/documents/schemas/validate.ts';
import { inferenceCatalogue } from '../refdata/inference.ts';
import { ocrAvailable, ocrImage, ocrPdf, rasteriserAvailable } from './ocr.ts';
import { pdfText } from './pdf-text.ts';
import { portIndex } from './ports.ts';


interface ReadText {
  text: string;
  /** Some of the text came from OCR. */
  ocr: boolean;
  needsOcr: boolean;
}

/** Fewer letters and digits than this on a PDF's text layer: a scan. */
const SCANNED_BELOW = 20;

async function readImage(bytes: Uint8Array): Promise<ReadText> {
  if (!(await ocrAvailable())) return { text: '', ocr: false, needsOcr: true };
  return { text: await ocrImage(bytes), ocr: true, needsOcr: false };
}

async function readPdf(bytes: Uint8Array): Promise<ReadText> {
  const { text } = await pdfText(bytes);
  if (text.replace(/[^A-Za-z0-9]/g, '').length >= SCANNED_BELOW) return { text, ocr: false, needsOcr: false };
  if (!(await ocrAvailable()) || !(await rasteriserAvailable())) return { text, ocr: false, needsOcr: true };
  return { text: await ocrPdf(bytes), ocr: true, needsOcr: false };
}

/** A message's body as text: an HTML-only message's without the tags is enough to find labels and numbers. */
export const mailBodyText = (mail: Pick<Email, 'text' | 'html'>): string =>
  mail.text ?? mail.html?.replace(/<(?:br|\/p|\/div|\/tr)[^>]*>/gi, '\n').replace(/<[^>]+>/g, ' ') ?? '';

/** A message's subject and body, then the text of each attachment svc can read. */
async function readEmail(bytes: Uint8Array): Promise<ReadText> {
  const mail = await PostalMime.parse(bytes);
  const body = mailBodyText(mail);
  const parts: ReadText[] = [{ text: `Subject: ${mail.subject ?? ''}\n${body}`, ocr: false, needsOcr: false }];
  for (const attachment of mail.attachments) {
    const type = attachment.mimeType.toLowerCase();
    if (typeof attachment.content === 'string') continue; // only with an attachmentEncoding option, not used here
    if (type === 'message/rfc822' || type === 'application/pdf' || type.startsWith('image/') || type.startsWith('text/')) {
      parts.push(await readText(new Uint8Array(attachment.content), type));
    }
  }
  return {
    text: parts.map((p) => p.text).join('\n\f'),
    ocr: parts.some((p) => p.ocr),
    needsOcr: parts.some((p) => p.needsOcr),
  };
}

function readText(bytes: Uint8Array, contentType: string): Promise<ReadText> {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === 'application/pdf') return readPdf(bytes);
  if (type.startsWith('image/')) return readImage(bytes);
  if (type === 'message/rfc822') return readEmail(bytes);
  return Promise.resolve({ text: new TextDecoder('utf-8').decode(bytes), ocr: false, needsOcr: false });
}

/**
 * Reads a document. `contentType` is one of the types svc accepts (PDF, PNG, JPEG, TIFF, plain
 * text, message/rfc822), best sniffed from the bytes; anything else is read as text.
 */
export async function extractDocument(bytes: Uint8Array, contentType: string): Promise<Extraction> {
  let read: ReadText;
  try {
    read = await readText(bytes, contentType);
  } catch (err) {
    // The PDF library or the OCR engine refused the bytes: trying again reads the same bytes.
    return nothingRead(`The file could not be read: ${(err as Error).message}`);
  }
  const found = extractFromText(read.text, { catalogue: inferenceCatalogue(), ports: portIndex() }, read.ocr);
  return {
    type: found.type,
    confidence: read.needsOcr && !read.text.trim() ? 0 : found.confidence,
    schema_version: found.schema_version,
    text: read.text,
    fields: conformingFields(found.type, found.fields),
    numbers: found.numbers,
    needs_ocr: read.needsOcr,
  };
}
