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

/** The definition a match key belongs to: the uuid before its first colon (custom-fields.ts matchKey). */
const definitionOf = (key: string) => key.slice(0, key.indexOf(':'));

/**
 * Adds a condition per key: the listed record (`table`, shipments or containers) has a value
 * holding it. Written as a correlated EXISTS naming the value exactly (account, entity type,
 * entity, definition: migration 020's unique index) as well as by its key (the GIN index), so the
 * planner may find the records through the key when it is rare, or check each record of a page
 * through the unique index when another filter already narrowed them (two keys at once: 0.2 ms,
 * where matching the second key by the GIN index alone read 9,000 entries).
 */
export function customFieldConditions(where: Conditions, table: keyof typeof ENTITY_OF_TABLE, f: CustomFieldMatch): Conditions {
  for (const key of f.custom_fields ?? []) {
    const definition = where.param(definitionOf(key));
    where.when(
      key,
      (p) => `EXISTS (SELECT 1 FROM custom_fields v WHERE v.account_id = ${ACCOUNT} AND v.entity_type = '${ENTITY_OF_TABLE[table]}' AND v.entity_id = ${table}.id
                AND v.definition_id = ${definition}::uuid AND v.match_keys @> ARRAY[${p}]::text[])`,
    );
  }
  return where;
}
