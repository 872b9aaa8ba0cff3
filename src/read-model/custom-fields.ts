// Custom field values as the `custom_fields` relationship of shipments and containers: filled in
// only when an include asks for it (include=custom_fields, containers.custom_fields…), with the
// values of a whole page read in one statement, so documents without it cost nothing more.
import type { EntityType } from '../domain/custom-fields/types.ts';
import { toMany, type Resource } from '../jsonapi/document.ts';
import type { LoadContext } from '../jsonapi/include.ts';
import { customFieldDefinitionResource, customFieldResource } from '../jsonapi/serializers/custom-field.ts';
import { definitionViews, fieldViews, fieldViewsOfEntities } from '../services/custom-fields.ts';
import { findDefinitions, findFields } from '../store/custom-fields.ts';

/** Sets `custom_fields` on each record (of `entityType`, the account's) and returns the values as resources. */
export async function attachCustomFields({ db, accountId }: LoadContext, entityType: EntityType, records: Resource[]): Promise<Resource[]> {
  const views = await fieldViewsOfEntities(db, accountId, entityType, records.map((r) => r.id));
  const values: Resource[] = [];
  for (const record of records) {
    const own = (views.get(record.id) ?? []).map(customFieldResource);
    (record.relationships ??= {}).custom_fields = toMany('custom_field', own.map((v) => v.id));
    values.push(...own);
  }
  return values;
}

/** The account's values with these ids, as the include table loads records by id. */
export async function customFieldResourcesById({ db, accountId }: LoadContext, ids: string[]): Promise<Resource[]> {
  return (await fieldViews(db, accountId, await findFields(db, accountId, ids))).map(customFieldResource);
}

/** The account's definitions with these ids (include=custom_fields.definition). */
export async function customFieldDefinitionResourcesById({ db, accountId }: LoadContext, ids: string[]): Promise<Resource[]> {
  return (await definitionViews(db, await findDefinitions(db, accountId, ids))).map(customFieldDefinitionResource);
}
