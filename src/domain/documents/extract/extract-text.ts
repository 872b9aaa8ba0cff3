// The engine from text on: classify, find the numbers, read the fields of the type's schema.
// Pure: the catalogue and the port index come in with the context.
import { currentSchema, DOCUMENT_FIELDS } from '../schemas/index.ts';
import { classify } from './classify.ts';
import { findContainerNumbers } from './containers.ts';
import { findFields, findNumbers, type ExtractionContext } from './fields.ts';
import { layoutOf } from './layout.ts';
import type { DocumentFields, DocumentType, TextExtraction } from './types.ts';

export type { ExtractionContext } from './fields.ts';

/** The fields `type`'s schema carries, without the ones the document did not show. */
function fieldsOf(type: DocumentType, all: DocumentFields): DocumentFields {
  const kept: Record<string, unknown> = {};
  for (const name of DOCUMENT_FIELDS[type]) {
    const value = all[name];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) kept[name] = value;
  }
  return kept as DocumentFields;
}

/** `ocr`: the text came from OCR, whose letter/digit confusions container numbers forgive. */
export function extractFromText(text: string, context: ExtractionContext, ocr = false): TextExtraction {
  const layout = layoutOf(text);
  const { type, confidence } = classify(layout);
  const numbers = findNumbers(layout, findContainerNumbers(text.normalize('NFKC'), ocr), context.catalogue);
  return {
    type,
    confidence,
    schema_version: currentSchema(type).full_version,
    fields: fieldsOf(type, findFields(layout, numbers, context)),
    numbers,
  };
}
