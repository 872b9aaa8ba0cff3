// The document extraction engine's entry: bytes and their (sniffed) content type in, the document's
// type, text, numbers and schema fields out. This adapter turns bytes into text (PDF text layer,
// OCR, e-mail parts); src/domain/documents/extract/ reads the text. It runs in an extraction
// process (extraction-processes.ts), under the bounds of limits.ts.
import { extractFromText } from '../domain/documents/extract/extract-text.ts';
import { nothingRead, type Extraction } from '../domain/documents/extraction.ts';
import { conformingFields } from '../domain/documents/schemas/validate.ts';
import { inferenceCatalogue } from '../refdata/inference.ts';
import { MAX_RFC822_DEPTH, MAX_TEXT_CHARS } from './limits.ts';
import { parseMail } from './mail-parse.ts';
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

/** A message's subject and body, then the text of each attachment svc can read (the first MAX_MAIL_ATTACHMENTS). */
async function readEmail(bytes: Uint8Array, depth: number): Promise<ReadText> {
  const mail = await parseMail(bytes);
  const parts: ReadText[] = [{ text: `Subject: ${mail.subject}\n${mail.body}`, ocr: false, needsOcr: false }];
  let chars = parts[0].text.length;
  for (const attachment of mail.attachments) {
    if (chars >= MAX_TEXT_CHARS) break;
    const type = attachment.mimeType.toLowerCase();
    // A message inside messages deeper than MAX_RFC822_DEPTH is left unread (postal-mime reads
    // inline ones itself, to the same depth, and marks the next).
    if (type === 'message/rfc822' && (attachment.tooDeep || depth >= MAX_RFC822_DEPTH)) continue;
    if (type === 'message/rfc822' || type === 'application/pdf' || type.startsWith('image/') || type.startsWith('text/')) {
      const part = await readText(attachment.content, type, depth + 1);
      parts.push(part);
      chars += part.text.length;
    }
  }
  return {
    text: parts.map((p) => p.text).join('\n\f'),
    ocr: parts.some((p) => p.ocr),
    needsOcr: parts.some((p) => p.needsOcr),
  };
}

function readText(bytes: Uint8Array, contentType: string, depth = 0): Promise<ReadText> {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === 'application/pdf') return readPdf(bytes);
  if (type.startsWith('image/')) return readImage(bytes);
  if (type === 'message/rfc822') return readEmail(bytes, depth);
  // UTF-8 takes at most four bytes a character: the bytes past those of MAX_TEXT_CHARS are not decoded.
  return Promise.resolve({ text: new TextDecoder('utf-8').decode(bytes.subarray(0, MAX_TEXT_CHARS * 4)), ocr: false, needsOcr: false });
}

/**
 * Reads a document. `contentType` is one of the types svc accepts (PDF, PNG, JPEG, TIFF, plain
 * text, message/rfc822), best sniffed from the bytes; anything else is read as text.
 */
export async function extractDocument(bytes: Uint8Array, contentType: string): Promise<Extraction> {
  let read: ReadText;
  try {
    read = await readText(bytes, contentType);
    read.text = read.text.slice(0, MAX_TEXT_CHARS);
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
