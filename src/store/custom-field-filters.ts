// The custom-field condition of the shipment and container lists (filter[custom_fields][<slug>]):
// kept apart from tracking-lists.ts, which calls it in one line per list. Each filter is one
// containment test on the values' match keys, which migration 020's GIN index answers.
import { ACCOUNT } from './account-rows.ts';
import type { Conditions } from './conditions.ts';

export interface CustomFieldMatch {
  /** Match keys (custom-fields.ts matchKey) the record must hold a value of, every one. */
  custom_fields?: string[];
}

const ENTITY_OF_TABLE = { shipments: 'Shipment', containers: 'Container' } as const;

/** Adds a condition per key: the listed record (`table`) has a value holding it. */
export function customFieldConditions(where: Conditions, table: keyof typeof ENTITY_OF_TABLE, f: CustomFieldMatch): Conditions {
  for (const key of f.custom_fields ?? []) {
    where.when(
      key,
      (p) => `${table}.id IN (SELECT v.entity_id FROM custom_fields v WHERE v.match_keys @> ARRAY[${p}]::text[] AND v.account_id = ${ACCOUNT} AND v.entity_type = '${ENTITY_OF_TABLE[table]}')`,
    );
  }
  return where;
}
