// The seam between svc's document pipeline and its extraction engine: the processing job calls
// extractDocument() and nothing else. The full engine (PDF text layer, OCR, classification and
// field extraction in src/domain/documents/extract/) plugs in behind this one function; what
// ships here reads plain text (and e-mails, which are text) only.
import { normaliseContainerNumber, normaliseNumber } from '../carrier-numbers.ts';
import { checkContainerNumber } from '../inference/iso6346.ts';

export interface ExtractedNumbers {
  containers: string[];
  bills_of_lading: string[];
  bookings: string[];
}

export interface Extraction {
  /** A code of DOCUMENT_TYPES (src/domain/documents/types.ts). */
  type: string;
  /** 0..1: how sure the classification is. */
  confidence: number;
  /** The document's text as read (empty when none could be read). */
  text: string;
  /** Extracted fields, keyed as the type's JSON Schema names them. */
  fields: Record<string, unknown>;
  numbers: ExtractedNumbers;
  /** The bytes hold no text layer: only OCR could read them (the job then reports extraction_failed). */
  needs_ocr: boolean;
}

export type ExtractDocument = (bytes: Uint8Array, contentType: string) => Promise<Extraction>;

// Four letters (the fourth U, J or Z), six digits and a check digit, as people write them:
// "MSKU 123456-5", "MSKU1234565". The check digit decides whether it is one.
const CONTAINER = /\b([A-Z]{3}[UJZ])[\s-]?(\d{6})[\s-]?(\d)\b/g;
// A bill of lading or booking number is whatever token follows its label.
const LABELLED = (label: string) => new RegExp(`\\b(?:${label})\\s*(?:no\\.?|number|#)?\\s*[:#]?\\s*([A-Z0-9][A-Z0-9-]{5,34})\\b`, 'gi');
const BILL_OF_LADING = LABELLED('b/l|bl|bill of lading|mbl|hbl');
const BOOKING = LABELLED('booking|bkg');

// Words that name each type, strongest first; the first type whose words appear wins.
const CLASSIFIERS: readonly [string, RegExp][] = [
  ['arrival_notice', /\barrival notice\b/i],
  ['delivery_order', /\bdelivery order\b/i],
  ['booking_confirmation', /\bbooking confirmation\b/i],
  ['commercial_invoice', /\b(commercial )?invoice\b/i],
  ['packing_list', /\bpacking list\b/i],
  ['customs_entry', /\b(customs entry|entry summary)\b/i],
  ['bill_of_lading', /\b(bill of lading|sea ?waybill)\b/i],
];

const unique = (items: string[]) => [...new Set(items)];

/** The numbers a text names: container numbers only when their ISO 6346 check digit holds. */
export function findNumbers(text: string): ExtractedNumbers {
  const upper = text.toUpperCase();
  const containers = [...upper.matchAll(CONTAINER)].map((m) => normaliseContainerNumber(m[1] + m[2] + m[3])).filter((n) => checkContainerNumber(n).reason === null);
  const labelled = (re: RegExp) => [...text.matchAll(re)].map((m) => normaliseNumber(m[1])).filter((n) => /\d/.test(n));
  return { containers: unique(containers), bills_of_lading: unique(labelled(BILL_OF_LADING)), bookings: unique(labelled(BOOKING)) };
}

/** The minimal engine: text and e-mails are read; anything else needs the full engine (and OCR). */
export const extractDocument: ExtractDocument = async (bytes, contentType) => {
  if (contentType !== 'text/plain' && contentType !== 'message/rfc822') {
    return { type: 'other', confidence: 0, text: '', fields: {}, numbers: { containers: [], bills_of_lading: [], bookings: [] }, needs_ocr: true };
  }
  const text = new TextDecoder().decode(bytes);
  const numbers = findNumbers(text);
  const classified = CLASSIFIERS.find(([, words]) => words.test(text));
  return {
    type: classified?.[0] ?? 'other',
    confidence: classified ? 0.6 : 0.1,
    text,
    fields: { container_numbers: numbers.containers, bill_of_lading_numbers: numbers.bills_of_lading, booking_numbers: numbers.bookings },
    numbers,
    needs_ocr: false,
  };
};
