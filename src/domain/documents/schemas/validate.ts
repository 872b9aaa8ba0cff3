// Extraction output is checked against its schema before anyone stores it: a field the schema does
// not know, or a value of the wrong shape, is a bug in the engine, not data.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { DocumentFields, DocumentType } from '../extract/types.ts';
import { currentSchema } from './index.ts';

// ajv-formats is CommonJS with a default export the NodeNext types do not see as callable.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020, formats: string[]) => void;

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv, ['date']);

const compiled = new Map<DocumentType, ValidateFunction>();

/** The schema's complaints about `fields` (empty when they conform). */
export function schemaErrors(type: DocumentType, fields: DocumentFields): string[] {
  let validate = compiled.get(type);
  if (!validate) compiled.set(type, (validate = ajv.compile(currentSchema(type).schema_payload)));
  return validate(fields) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/**
 * `fields` without the ones its schema rejects. The engine's readers are meant to produce only
 * conforming values; this keeps a reader's slip from reaching storage as data.
 */
export function conformingFields(type: DocumentType, fields: DocumentFields): DocumentFields {
  if (schemaErrors(type, fields).length === 0) return fields;
  const kept: Record<string, unknown> = { ...fields };
  for (const error of compiled.get(type)!.errors ?? []) {
    const field = error.instancePath.split('/')[1] || error.params?.additionalProperty;
    if (field) delete kept[field];
  }
  return kept as DocumentFields;
}
