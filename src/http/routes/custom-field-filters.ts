// filter[custom_fields][<api_slug>]=<value> on the shipment and container lists: each names one of
// the account's fields of that entity type, and its value is read by the field's data type (a
// number as a decimal, a date in YYYY-MM-DD or the field's default_format, an option value, a
// referenced record's id). The bracketed form is the reference's own filter[…] form, one level
// deeper; the reference has no filter on custom fields of its lists.
import { ENTITY_RESOURCE, isProblem, type EntityType } from '../../domain/custom-fields/types.ts';
import { filterKey } from '../../domain/custom-fields/values.ts';
import { badParameter } from '../../jsonapi/errors.ts';
import { optionalParam, type Query } from '../../jsonapi/query.ts';
import { findDefinitionsBySlug, matchKey, optionsOf } from '../../store/custom-fields.ts';
import type { Db } from '../../store/db.ts';
import type { QueryParamSpec } from '../route.ts';

const PARAM = /^filter\[custom_fields\]\[([^\]]+)\]$/;

export const customFieldFilterParam = (entityType: EntityType): QueryParamSpec => ({
  name: 'filter[custom_fields][{api_slug}]',
  description: `Records whose custom field {api_slug} (a ${entityType} field) has this value, read by its data type; an enum_multi field matches when it holds the option. Several such filters must all hold`,
});

/** The match keys the list's records must hold (store/custom-field-filters.ts); undefined without such filters. */
export async function customFieldFilterKeys(db: Db, accountId: string, entityType: EntityType, query: Query): Promise<string[] | undefined> {
  const given = Object.keys(query).flatMap((name) => {
    const slug = PARAM.exec(name)?.[1];
    const value = slug === undefined ? undefined : optionalParam(query, name);
    return slug === undefined || value === undefined ? [] : [{ name, slug, value }];
  });
  if (given.length === 0) return undefined;
  const defs = await findDefinitionsBySlug(db, accountId, given.map((g) => g.slug));
  const options = await optionsOf(db, defs.map((d) => d.id));
  return given.map(({ name, slug, value }) => {
    const def = defs.find((d) => d.api_slug === slug);
    if (!def) throw badParameter(name, `${name}: no custom field definition with api_slug '${slug.slice(0, 80)}' in this account.`, 'not_found');
    if (def.entity_type !== entityType) {
      throw badParameter(name, `${name}: '${slug}' is a field of ${def.entity_type} records; ${ENTITY_RESOURCE[entityType].path} have fields of their own.`, 'wrong_entity_type');
    }
    const key = filterKey(def, options.filter((o) => o.definition_id === def.id), value);
    if (isProblem(key)) throw badParameter(name, `${name} ${key.problem}`, key.code);
    return matchKey(def.id, key);
  });
}
