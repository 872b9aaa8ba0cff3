// The custom-field condition of the shipment and container lists (filter[custom_fields][<slug>]):
// kept apart from tracking-lists.ts, which calls it in one line per list. Each filter is one
// containment test on the values' match keys, which migration 020's GIN index answers.
import type { Conditions } from './conditions.ts';

export interface CustomFieldMatch {
  /** Match keys (custom-fields.ts matchKey) the record must hold a value of, every one. */
  custom_fields?: string[];
}

/**
 * Adds a condition per key: the listed record (`table`, shipments or containers) has a value
 * holding it. A key begins with its definition's id, which is of one account and one entity type,
 * so the containment test alone names the values: the GIN index answers it exactly, where a
 * condition on the values' account_id would tempt the planner to read all of an account's values
 * instead. The list itself is the account's (its own account_id condition).
 */
export function customFieldConditions(where: Conditions, table: 'shipments' | 'containers', f: CustomFieldMatch): Conditions {
  for (const key of f.custom_fields ?? []) where.when(key, (p) => `${table}.id IN (SELECT v.entity_id FROM custom_fields v WHERE v.match_keys @> ARRAY[${p}]::text[])`);
  return where;
}
