// The custom field values of a shipment or container asked for with include=custom_fields (or a
// path ending in it, such as containers.custom_fields), typed, and by slug.
import type { CustomField } from './types.ts';

/** The record's values, newest first, as included; empty when the request did not include them. */
export function customFieldsOf(record: { custom_fields?: unknown }): CustomField[] {
  const values = record.custom_fields;
  // Records resolved from `included` carry their attributes; bare identifiers (not included) do not.
  return Array.isArray(values) ? (values.filter((v) => v && typeof v === 'object' && 'api_slug' in v) as CustomField[]) : [];
}

/** The record's values by api_slug (`customFieldValues(shipment).po_number`). */
export function customFieldValues(record: { custom_fields?: unknown }): Record<string, CustomField['value']> {
  return Object.fromEntries(customFieldsOf(record).map((v) => [v.api_slug, v.value]));
}
