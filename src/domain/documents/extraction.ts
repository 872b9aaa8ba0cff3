// The seam between svc's document pipeline and its extraction engine (src/documents/extract.ts):
// the processing job calls an ExtractDocument and nothing else, so a test can hand it another.
import type { Classification, DocumentFields, ExtractedNumbers } from './extract/types.ts';
import { schemaId } from './schemas/index.ts';

export type { ExtractedNumbers };

export interface Extraction extends Classification {
  /** The schema `fields` follow, `<type>@<version>` (GET /v2/document_schemas/{id}). */
  schema_version: string;
  /** The document's text as read (empty when none could be read). */
  text: string;
  /** Extracted fields, keyed as the type's JSON Schema names them. */
  fields: DocumentFields;
  numbers: ExtractedNumbers;
  /** The document is an image (or a scan) and no OCR engine is installed: nothing was read. */
  needs_ocr: boolean;
  /** Why the file could not be read at all (a damaged PDF or image): the extraction fails at once, unretried. */
  unreadable?: string;
}

export type ExtractDocument = (bytes: Uint8Array, contentType: string) => Promise<Extraction>;

/** An extraction that read nothing; `unreadable` says why when the file itself is at fault. */
export const nothingRead = (unreadable?: string): Extraction => ({
  type: 'other',
  confidence: 0,
  schema_version: schemaId('other'),
  text: '',
  fields: {},
  numbers: { containers: [], bills_of_lading: [], bookings: [] },
  needs_ocr: false,
  ...(unreadable === undefined ? {} : { unreadable }),
});
