// Custom fields: the decisions about definitions, options and values. The value rules themselves
// are pure (src/domain/custom-fields); this checks what needs the account's records (slugs taken,
// options in use, entities and references that exist) and says where in the request a problem is.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { apiSlugProblem, defaultFormatProblem, referenceTypeProblem } from '../domain/custom-fields/definition.ts';
import { OPTION_TYPES, isProblem, type DataType, type EntityType, type FieldDefinition, type FieldOption, type ValueProblem } from '../domain/custom-fields/types.ts';
import { checkValidation } from '../domain/custom-fields/validation.ts';
import { displayValue, parseValue } from '../domain/custom-fields/values.ts';
import { Conflict, Invalid, NotFound, type FieldPath } from '../domain/errors.ts';
import {
  deleteDefinition as deleteDefinitionRow,
  deleteField,
  deleteOption as deleteOptionRow,
  entityExists,
  findDefinitions,
  findDefinitionsBySlug,
  findFieldOf,
  fieldsOfEntities,
  findFields,
  findOption,
  insertDefinition,
  insertOption,
  listFields,
  optionsOf,
  referenceLabels,
  updateDefinition as updateDefinitionRow,
  updateField,
  updateOption as updateOptionRow,
  valuesOfDefinition,
  valuesHoldingOption,
  writeField,
  type DefinitionChanges,
  type DefinitionRow,
  type FieldRow,
  type OptionRow,
  type StoredValue,
} from '../store/custom-fields.ts';
import type { CountedPage } from '../store/account-rows.ts';
import type { Queryable } from '../store/db.ts';

const ATTRIBUTES = ['data', 'attributes'];
const at = (...path: (string | number)[]): FieldPath => [...ATTRIBUTES, ...path];

/** A domain problem as a refusal of the member at `base` (a path into the request document). */
const invalid = (base: FieldPath, p: ValueProblem, name = String(base[base.length - 1])) => new Invalid([...base, ...p.at], p.at.length > 0 ? p.problem : `${name} ${p.problem}`, p.code);

// ---- definitions ------------------------------------------------------------------------------

export interface DefinitionInput {
  entity_type: EntityType;
  api_slug: string;
  display_name: string;
  description?: string | null;
  data_type: DataType;
  reference_type?: string | null;
  validation?: Record<string, unknown> | null;
  default_format?: string | null;
  default_value?: unknown;
}

/** The definition's options as the value rules read them. */
const optionList = async (db: Queryable, definitionId: string): Promise<OptionRow[]> => optionsOf(db, [definitionId]);

/**
 * `input` as `def` stores it, or a refusal pointing at `base`. A reference must name a record of
 * the account that exists.
 */
export async function storedValue(db: Queryable, accountId: string, def: DefinitionRow, options: readonly FieldOption[], input: unknown, base: FieldPath): Promise<StoredValue> {
  const parsed = parseValue(def, options, input);
  if (isProblem(parsed)) throw invalid(base, parsed);
  if (parsed.reference) {
    const found = await referenceLabels(db, accountId, [parsed.reference]);
    if (!found.has(parsed.keys[0])) throw new Invalid([...base, 'id'], `No ${parsed.reference.type} ${parsed.reference.id} in this account.`, 'not_found');
  }
  return { value: parsed.value, keys: parsed.keys };
}

/** The rules of validation, default_format and default_value against the definition they would belong to. */
async function checkedRules(db: Queryable, accountId: string, def: DefinitionRow, options: readonly FieldOption[]): Promise<DefinitionRow> {
  const formatProblem = defaultFormatProblem(def.data_type, def.default_format);
  if (formatProblem) throw invalid(ATTRIBUTES, formatProblem);
  const validation = checkValidation(def.data_type, def.validation as Record<string, unknown> | null);
  if (isProblem(validation)) throw invalid(at('validation'), validation);
  const checked = { ...def, validation };
  if (def.default_value === null || def.default_value === undefined) return { ...checked, default_value: null };
  if (OPTION_TYPES.includes(def.data_type) && options.length === 0) {
    throw new Invalid(at('default_value'), `default_value of an ${def.data_type} field must name its options: create them (POST …/options), then set default_value with PATCH.`, 'not_an_option');
  }
  // The default is checked as a value would be (a required field's default may not be blank either).
  const { value } = await storedValue(db, accountId, checked, options, def.default_value, at('default_value'));
  return { ...checked, default_value: value };
}

export async function createDefinition(db: Queryable, accountId: string, input: DefinitionInput, now: Date): Promise<DefinitionRow> {
  const slugProblem = apiSlugProblem(input.api_slug);
  if (slugProblem) throw new Invalid(at('api_slug'), slugProblem);
  const referenceProblem = referenceTypeProblem(input.data_type, input.reference_type);
  if (referenceProblem) throw invalid(ATTRIBUTES, referenceProblem);
  const draft: DefinitionRow = {
    id: '',
    account_id: accountId,
    entity_type: input.entity_type,
    api_slug: input.api_slug,
    display_name: input.display_name,
    description: input.description ?? null,
    data_type: input.data_type,
    reference_type: input.reference_type ?? null,
    validation: (input.validation ?? null) as DefinitionRow['validation'],
    default_format: input.default_format ?? null,
    default_value: input.default_value ?? null,
    created_at: now,
    updated_at: now,
  };
  const { id: _id, created_at: _c, updated_at: _u, ...fields } = await checkedRules(db, accountId, draft, []);
  const row = await insertDefinition(db, fields, now);
  if (!row) throw new Conflict('taken', `api_slug '${input.api_slug}' is taken: the account has a custom field definition by that slug.`, at('api_slug'));
  return row;
}

/**
 * What a PATCH of a definition sends: the attributes it may change (one left out stays, null
 * clears), and perhaps immutable ones, accepted only when they equal the definition's.
 */
export interface DefinitionPatch {
  display_name?: string;
  description?: string | null;
  validation?: Record<string, unknown> | null;
  default_format?: string | null;
  default_value?: unknown;
  api_slug?: string | null;
  entity_type?: string | null;
  data_type?: string | null;
  reference_type?: string | null;
}

const IMMUTABLE = ['api_slug', 'entity_type', 'data_type', 'reference_type'] as const;

/** Undefined when the account has no such definition. */
export async function updateDefinition(db: Queryable, accountId: string, id: string, patch: DefinitionPatch, now: Date): Promise<DefinitionRow | undefined> {
  const [existing] = await findDefinitions(db, accountId, [id]);
  if (!existing) return undefined;
  for (const name of IMMUTABLE) {
    if (patch[name] !== undefined && patch[name] !== existing[name]) {
      throw new Invalid(at(name), `${name} can't be changed once the field exists (it is '${existing[name]}'); create another definition instead.`, 'immutable');
    }
  }
  const given = <K extends keyof DefinitionPatch>(name: K) => patch[name] !== undefined;
  // The rules are checked on the definition as it would be, and stored as they were checked.
  const merged: DefinitionRow = {
    ...existing,
    ...(given('display_name') ? { display_name: patch.display_name! } : {}),
    ...(given('description') ? { description: patch.description! } : {}),
    ...(given('validation') ? { validation: patch.validation as DefinitionRow['validation'] } : {}),
    ...(given('default_format') ? { default_format: patch.default_format! } : {}),
    ...(given('default_value') ? { default_value: patch.default_value } : {}),
  };
  const options = await optionList(db, existing.id);
  const checked = await checkedRules(db, accountId, merged, options);
  if (given('validation') && !isDeepStrictEqual(checked.validation, existing.validation)) await assertValuesPass(db, accountId, checked, options);
  const changes: DefinitionChanges = {};
  for (const name of ['display_name', 'description', 'validation', 'default_format', 'default_value'] as const) {
    if (given(name)) Object.assign(changes, { [name]: checked[name] });
  }
  return updateDefinitionRow(db, accountId, id, changes, now);
}

const SCAN_BATCH = 5_000;
const EXAMPLES = 5;
/** How long the check runs before it lets other requests in: a pattern takes a fraction of a second per value at worst, and a definition may have many. */
const TURN_MS = 20;

/**
 * New rules must hold for the values stored under the old ones: a value the definition would now
 * refuse is refused here instead (422 at validation, naming how many break and the first few, by
 * id with why), so no stored value ever breaks its definition's rules and nothing is changed or
 * dropped behind the user's back. Values of none (null) break no rule, as an entity without a
 * value does not: `required` binds writes. Read in batches, the whole definition once.
 */
async function assertValuesPass(db: Queryable, accountId: string, def: DefinitionRow, options: readonly FieldOption[]): Promise<void> {
  let broken = 0;
  const examples: { id: string; entity_type: EntityType; entity_id: string; problem: string }[] = [];
  let turn = performance.now();
  for (let cursor: FieldRow | null = null; ; ) {
    const rows: FieldRow[] = await valuesOfDefinition(db, accountId, def.id, cursor, SCAN_BATCH);
    for (const row of rows) {
      if (performance.now() - turn > TURN_MS) {
        await nextTurn();
        turn = performance.now();
      }
      // A number is checked by its exact decimal (its key), as it was written.
      const stored = def.data_type === 'number' && row.match_keys.length > 0 ? row.match_keys[0].slice(def.id.length + 1) : row.value;
      const parsed = parseValue(def, options, stored);
      if (!isProblem(parsed)) continue;
      broken++;
      if (examples.length < EXAMPLES) examples.push({ id: row.id, entity_type: row.entity_type, entity_id: row.entity_id, problem: `value ${parsed.problem}` });
    }
    if (rows.length < SCAN_BATCH) break;
    cursor = rows[rows.length - 1];
  }
  if (broken === 0) return;
  const listed = examples.map((e) => `${e.id} (${e.entity_type} ${e.entity_id}: ${e.problem})`).join('; ');
  throw new Invalid(
    at('validation'),
    `${broken} stored value(s) of ${def.api_slug} would break the new validation, e.g. ${listed}. Change or clear them first (PATCH /v2/custom_fields/{id}), then change the validation.`,
    'values_break_validation',
    { values: broken, examples },
  );
}

export const deleteDefinition = (db: Queryable, accountId: string, id: string): Promise<DefinitionRow | undefined> => deleteDefinitionRow(db, accountId, id);

/** The definition by id, or a 404: the parent of the options routes. */
export async function definitionOf(db: Queryable, accountId: string, id: string): Promise<DefinitionRow> {
  const [def] = await findDefinitions(db, accountId, [id]);
  if (!def) throw new NotFound('No custom field definition by that id in this account.');
  return def;
}

// ---- options ----------------------------------------------------------------------------------

export interface OptionInput {
  label: string;
  value: string;
  position?: number | null;
}

export async function createOption(db: Queryable, accountId: string, definitionId: string, input: OptionInput, now: Date): Promise<OptionRow> {
  const def = await definitionOf(db, accountId, definitionId);
  if (!OPTION_TYPES.includes(def.data_type)) {
    throw new Invalid(['data'], `Options belong to enum and enum_multi fields; ${def.api_slug} is a ${def.data_type} field.`, 'options_not_allowed');
  }
  const row = await insertOption(db, { account_id: accountId, definition_id: def.id, label: input.label, value: input.value, position: input.position ?? null }, now);
  if (!row) throw new Conflict('taken', `${def.api_slug} has an option of value '${input.value}' already.`, at('value'));
  return row;
}

/** Undefined when there is no such option (or definition) in the account. */
export async function updateOption(db: Queryable, accountId: string, definitionId: string, id: string, patch: { label?: string; position?: number | null; value?: string }, now: Date): Promise<OptionRow | undefined> {
  const def = await definitionOf(db, accountId, definitionId);
  const existing = await findOption(db, accountId, def.id, id);
  if (!existing) return undefined;
  if (patch.value !== undefined && patch.value !== existing.value) {
    throw new Invalid(at('value'), `value can't be changed (it is '${existing.value}'): stored values hold it. Change the label, or add another option.`, 'immutable');
  }
  const { value: _value, ...changes } = patch;
  return updateOptionRow(db, accountId, def.id, id, changes, now);
}

/** Refused while values or the default hold the option: they would name an option that is gone. */
export async function deleteOption(db: Queryable, accountId: string, definitionId: string, id: string): Promise<OptionRow | undefined> {
  const def = await definitionOf(db, accountId, definitionId);
  const existing = await findOption(db, accountId, def.id, id);
  if (!existing) return undefined;
  const holding = await valuesHoldingOption(db, def.id, existing.value);
  if (holding > 0) {
    throw new Conflict('option_in_use', `${holding} value(s) of ${def.api_slug} hold the option '${existing.value}': change them first.`, undefined, { values: holding });
  }
  const defaults = def.default_value === null ? [] : [def.default_value].flat();
  if (defaults.includes(existing.value)) throw new Conflict('option_in_use', `The option '${existing.value}' is the default_value of ${def.api_slug}: change it first.`);
  return deleteOptionRow(db, accountId, def.id, id);
}

// ---- values -----------------------------------------------------------------------------------

/** Where a write of a value names its entity and which member holds the slug. */
export interface ValueTarget {
  entityType: EntityType;
  entityId: string;
  /** The slug as sent, and where the client sent it: a body member, or the path. */
  apiSlug: string;
  slugIn: 'body' | 'path';
}

/** The account's definition by slug for entities of `entityType`. */
async function definitionBySlug(db: Queryable, accountId: string, t: ValueTarget): Promise<DefinitionRow> {
  const [def] = await findDefinitionsBySlug(db, accountId, [t.apiSlug]);
  const refuse = (detail: string, code: string) => (t.slugIn === 'path' ? new NotFound(detail, code) : new Invalid(at('api_slug'), detail, code));
  if (!def) throw refuse(`No custom field definition with api_slug '${t.apiSlug.slice(0, 80)}' in this account.`, 'not_found');
  if (def.entity_type !== t.entityType) throw refuse(`'${def.api_slug}' is a field of ${def.entity_type} records, not of ${t.entityType} records.`, 'wrong_entity_type');
  return def;
}

/** The value to write: the one sent, or the definition's default when `value` was left out. */
async function valueFor(db: Queryable, accountId: string, def: DefinitionRow, input: unknown): Promise<StoredValue> {
  const given = input === undefined ? def.default_value : input;
  return storedValue(db, accountId, def, await optionList(db, def.id), given ?? null, at('value'));
}

/**
 * POST /custom_fields: a new value of an entity named by the body's relationship. A value the
 * entity has already is a 422 (its id in meta): PATCH changes it.
 */
export async function createField(db: Queryable, accountId: string, t: ValueTarget, input: unknown, now: Date): Promise<FieldRow> {
  if (!(await entityExists(db, accountId, t.entityType, t.entityId))) {
    throw new Invalid(['data', 'relationships', 'entity', 'data', 'id'], `No ${t.entityType} ${t.entityId.slice(0, 80)} in this account.`, 'not_found');
  }
  const def = await definitionBySlug(db, accountId, t);
  const value = await valueFor(db, accountId, def, input);
  const written = outcomeOf(await writeField(db, { account_id: accountId, definition_id: def.id, entity_type: t.entityType, entity_id: t.entityId }, value, now, false), def);
  if (!written) {
    const existing = await findFieldOf(db, accountId, t.entityType, t.entityId, def.id);
    throw new Conflict('taken', `This ${t.entityType} has a value of ${def.api_slug} already: PATCH /v2/custom_fields/${existing?.id} changes it.`, at('api_slug'), { id: existing?.id });
  }
  return written.row;
}

/** A write's outcome: the row, or undefined when the entity had a value already; a 404 when the definition went away meanwhile. */
function outcomeOf<T>(outcome: T | 'exists' | 'gone', def: DefinitionRow): T | undefined {
  if (outcome === 'gone') throw new NotFound(`The custom field definition ${def.api_slug} was deleted while the value was written.`);
  return outcome === 'exists' ? undefined : outcome;
}

/** The entity a nested route names, or a 404. */
async function assertEntity(db: Queryable, accountId: string, entityType: EntityType, entityId: string): Promise<void> {
  if (!(await entityExists(db, accountId, entityType, entityId))) throw new NotFound(`No ${entityType} by that id in this account.`);
}

/** A page of the values of an entity a nested route names (a 404 when the account has no such entity). */
export async function entityFields(db: Queryable, accountId: string, entityType: EntityType, entityId: string, limit: number, offset: number): Promise<CountedPage<FieldRow>> {
  await assertEntity(db, accountId, entityType, entityId);
  return listFields(db, accountId, { entity_type: entityType, entity_id: entityId }, limit, offset);
}

/** POST /<entities>/{id}/custom_fields: sets the entity's value of the slug, whether or not it had one. */
export async function upsertField(db: Queryable, accountId: string, t: ValueTarget, input: unknown, now: Date): Promise<{ row: FieldRow; created: boolean }> {
  await assertEntity(db, accountId, t.entityType, t.entityId);
  const def = await definitionBySlug(db, accountId, t);
  const value = await valueFor(db, accountId, def, input);
  return outcomeOf(await writeField(db, { account_id: accountId, definition_id: def.id, entity_type: t.entityType, entity_id: t.entityId }, value, now, true), def)!;
}

/** The entity's existing value of the slug (a path), or a 404. */
async function fieldAt(db: Queryable, accountId: string, t: ValueTarget): Promise<{ def: DefinitionRow; field: FieldRow }> {
  await assertEntity(db, accountId, t.entityType, t.entityId);
  const def = await definitionBySlug(db, accountId, t);
  const field = await findFieldOf(db, accountId, t.entityType, t.entityId, def.id);
  if (!field) throw new NotFound(`This ${t.entityType} has no value of ${def.api_slug}; POST sets one.`);
  return { def, field };
}

/** PATCH …/custom_fields/{api_slug}. */
export async function updateFieldAt(db: Queryable, accountId: string, t: ValueTarget, input: unknown, now: Date): Promise<FieldRow> {
  const { def, field } = await fieldAt(db, accountId, t);
  return (await updateField(db, accountId, field.id, def.id, await valueFor(db, accountId, def, input), now))!;
}

/** DELETE …/custom_fields/{api_slug}. */
export async function deleteFieldAt(db: Queryable, accountId: string, t: ValueTarget): Promise<void> {
  const { field } = await fieldAt(db, accountId, t);
  await deleteField(db, accountId, field.id);
}

/** PATCH /custom_fields/{id}; undefined when there is no such value. */
export async function updateFieldById(db: Queryable, accountId: string, id: string, input: unknown, now: Date): Promise<FieldRow | undefined> {
  const [field] = await findFields(db, accountId, [id]);
  if (!field) return undefined;
  const [def] = await findDefinitions(db, accountId, [field.definition_id]);
  return updateField(db, accountId, field.id, def.id, await valueFor(db, accountId, def, input), now);
}


// ---- what responses show ----------------------------------------------------------------------

/** A value with what its resource shows beside it: its definition's slug and the display value. */
export interface FieldView {
  row: FieldRow;
  apiSlug: string;
  displayValue: string | null;
}

/** How one value shows: a number by its exact decimal (its key: the JSON number served may round past 15 digits), by label or name otherwise. */
function viewOf(row: FieldRow, def: FieldDefinition & { id: string; api_slug: string }, options: readonly FieldOption[], referenceLabel: string | undefined): FieldView {
  const shown = def.data_type === 'number' && row.match_keys.length > 0 ? row.match_keys[0].slice(def.id.length + 1) : row.value;
  return { row, apiSlug: def.api_slug, displayValue: displayValue(def, options, shown, referenceLabel) };
}

/** The views of these values (of one account), in their order. */
export async function fieldViews(db: Queryable, accountId: string, rows: FieldRow[]): Promise<FieldView[]> {
  const defIds = [...new Set(rows.map((r) => r.definition_id))];
  const [defs, options] = await Promise.all([findDefinitions(db, accountId, defIds), optionsOf(db, defIds)]);
  const byId = new Map(defs.map((d) => [d.id, d]));
  const refs = rows.flatMap((r) => (byId.get(r.definition_id)?.data_type === 'reference' && r.value ? [r.value as { type: string; id: string }] : []));
  const labels = await referenceLabels(db, accountId, refs);
  return rows.map((row) => {
    const def = byId.get(row.definition_id)!;
    const ref = def.data_type === 'reference' && row.value ? (row.value as { type: string; id: string }) : undefined;
    return viewOf(row, def, options.filter((o) => o.definition_id === def.id), ref && labels.get(`${ref.type}:${ref.id}`));
  });
}

/**
 * The values of the account's entities of `entityType` with these ids, by entity (newest first,
 * as the nested route lists them): what include=custom_fields shows, read in one statement.
 */
export async function fieldViewsOfEntities(db: Queryable, accountId: string, entityType: EntityType, entityIds: string[]): Promise<Map<string, FieldView[]>> {
  const byEntity = new Map<string, FieldView[]>();
  for (const { definition, options, reference_label, ...row } of await fieldsOfEntities(db, accountId, entityType, entityIds)) {
    const view = viewOf(row, definition, options, reference_label ?? undefined);
    const views = byEntity.get(row.entity_id);
    if (views) views.push(view);
    else byEntity.set(row.entity_id, [view]);
  }
  return byEntity;
}

/** A definition with the ids of its options, in display order (its `options` relationship). */
export interface DefinitionView {
  row: DefinitionRow;
  optionIds: string[];
}

/** DELETE /custom_fields/{id}: the value as it was (read first: its slug and display value go with it); undefined when there was none. */
export async function deleteFieldById(db: Queryable, accountId: string, id: string): Promise<FieldView | undefined> {
  const [row] = await findFields(db, accountId, [id]);
  if (!row) return undefined;
  const [view] = await fieldViews(db, accountId, [row]);
  return (await deleteField(db, accountId, row.id)) ? view : undefined;
}

export async function definitionViews(db: Queryable, rows: DefinitionRow[]): Promise<DefinitionView[]> {
  const options = await optionsOf(db, rows.map((r) => r.id));
  return rows.map((row) => ({ row, optionIds: options.filter((o) => o.definition_id === row.id).map((o) => o.id) }));
}
