// The document types svc classifies into and the schema of each type's fields, as the API serves
// them (GET /v2/documents/types, GET /v2/document_schemas/{type@version}). The vocabulary is the
// extraction engine's (extract/types.ts, schemas/index.ts): this file only names it for the API.
import { DOCUMENT_TYPES as CODES, DOCUMENT_TYPE_LABELS, type DocumentType } from './extract/types.ts';
import { documentSchemas, type DocumentSchema } from './schemas/index.ts';

export type { DocumentSchema, DocumentType };

export const DOCUMENT_TYPE_CODES: readonly string[] = CODES;
export const DOCUMENT_TYPES: readonly { code: DocumentType; label: string }[] = CODES.map((code) => ({ code, label: DOCUMENT_TYPE_LABELS[code] }));
export const isDocumentType = (code: string): code is DocumentType => DOCUMENT_TYPE_CODES.includes(code);

/** The schema named `<type>@<version>`, or undefined when there is none by that name. */
export const findDocumentSchema = (id: string): DocumentSchema | undefined => documentSchemas.get(id);
