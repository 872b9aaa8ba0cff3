// SQL for custom fields: definitions, their options, and values on shipments, containers and
// tracking requests (migration 020). Every statement is scoped to one account.
import type { DataType, EntityType, ReferenceValue, Validation } from '../domain/custom-fields/types.ts';
import { findOfAccount, pageOfAccount, type CountedPage } from './account-rows.ts';
import type { Queryable } from './db.ts';
import { likeLiteral } from './like.ts';
import { isUuid } from './uuid.ts';

export interface DefinitionRow {
  id: string;
  account_id: string;
  entity_type: EntityType;
  api_slug: string;
  display_name: string;
  description: string | null;
  data_type: DataType;
  reference_type: string | null;
  validation: Validation | null;
  default_format: string | null;
  default_value: unknown;
  created_at: Date;
  updated_at: Date;
}

export interface OptionRow {
  id: string;
  account_id: string;
  definition_id: string;
  label: string;
  value: string;
  position: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface FieldRow {
  id: string;
  account_id: string;
  definition_id: string;
  entity_type: EntityType;
  entity_id: string;
  value: unknown;
  match_keys: string[];
  created_at: Date;
  updated_at: Date;
}

/** A value as written: canonical, with its filter keys (domain/custom-fields/values.ts). */
export interface StoredValue {
  value: unknown;
  keys: string[];
}

/**
 * Keys as stored: each behind its definition's id, so one containment test finds one field's
 * value (migration 020's GIN index) without a second condition on the definition.
 */
export const matchKey = (definitionId: string, key: string) => `${definitionId}:${key}`;
const matchKeys = (definitionId: string, keys: string[]) => keys.map((k) => matchKey(definitionId, k));

/** A JSON value as a jsonb parameter (node-postgres would send an array as a PostgreSQL array). */
const jsonb = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

// ---- definitions ------------------------------------------------------------------------------

export interface DefinitionFilters {
  entity_type?: EntityType;
  data_type?: DataType;
  /** The start of the display name, in any case. */
  display_name?: string;
}

export const listDefinitions = (db: Queryable, accountId: string, f: DefinitionFilters, limit: number, offset: number): Promise<CountedPage<DefinitionRow>> =>
  pageOfAccount(db, 'custom_field_definitions', accountId, limit, offset, (where) =>
    where
      .when(f.entity_type, (p) => `entity_type = ${p}`)
      .when(f.data_type, (p) => `data_type = ${p}`)
      .when(f.display_name === undefined ? undefined : `${likeLiteral(f.display_name)}%`, (p) => `display_name ILIKE ${p}`),
  );

export const findDefinitions = (db: Queryable, accountId: string, ids: string[]): Promise<DefinitionRow[]> => findOfAccount(db, 'custom_field_definitions', accountId, ids);

/** The account's definitions with these slugs. */
export async function findDefinitionsBySlug(db: Queryable, accountId: string, slugs: string[]): Promise<DefinitionRow[]> {
  if (slugs.length === 0) return [];
  const { rows } = await db.query<DefinitionRow>('SELECT * FROM custom_field_definitions WHERE account_id = $1 AND api_slug = ANY($2::text[])', [accountId, slugs]);
  return rows;
}

export type NewDefinition = Omit<DefinitionRow, 'id' | 'created_at' | 'updated_at'>;

/** Inserts, or returns undefined when the account has a definition of that slug already. */
export async function insertDefinition(db: Queryable, d: NewDefinition, at: Date): Promise<DefinitionRow | undefined> {
  const { rows } = await db.query<DefinitionRow>(
    `INSERT INTO custom_field_definitions
       (account_id, entity_type, api_slug, display_name, description, data_type, reference_type, validation, default_format, default_value, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
     ON CONFLICT (account_id, api_slug) DO NOTHING RETURNING *`,
    [d.account_id, d.entity_type, d.api_slug, d.display_name, d.description, d.data_type, d.reference_type, jsonb(d.validation), d.default_format, jsonb(d.default_value), at],
  );
  return rows[0];
}

/** The attributes a PATCH may change; one left out stays as it is. */
export interface DefinitionChanges {
  display_name?: string;
  description?: string | null;
  validation?: Validation | null;
  default_format?: string | null;
  default_value?: unknown;
}

export async function updateDefinition(db: Queryable, accountId: string, id: string, c: DefinitionChanges, at: Date): Promise<DefinitionRow | undefined> {
  // A flag per nullable attribute tells "set to null" from "left out".
  const { rows } = await db.query<DefinitionRow>(
    `UPDATE custom_field_definitions SET
       display_name = coalesce($3, display_name),
       description = CASE WHEN $4 THEN $5 ELSE description END,
       validation = CASE WHEN $6 THEN $7::jsonb ELSE validation END,
       default_format = CASE WHEN $8 THEN $9 ELSE default_format END,
       default_value = CASE WHEN $10 THEN $11::jsonb ELSE default_value END,
       updated_at = $12
     WHERE account_id = $1 AND id = $2 RETURNING *`,
    [
      accountId,
      id,
      c.display_name ?? null,
      'description' in c,
      c.description ?? null,
      'validation' in c,
      jsonb(c.validation),
      'default_format' in c,
      c.default_format ?? null,
      'default_value' in c,
      jsonb(c.default_value),
      at,
    ],
  );
  return rows[0];
}

/** Deletes the definition with its options and values (foreign keys cascade within this statement). */
export async function deleteDefinition(db: Queryable, accountId: string, id: string): Promise<DefinitionRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<DefinitionRow>('DELETE FROM custom_field_definitions WHERE account_id = $1 AND id = $2 RETURNING *', [accountId, id]);
  return rows[0];
}

// ---- options ----------------------------------------------------------------------------------

/** Options in the order people see them: by position (unpositioned last), then oldest first. */
const OPTION_ORDER = 'position ASC NULLS LAST, created_at ASC';

export const listOptions = (db: Queryable, accountId: string, definitionId: string, limit: number, offset: number): Promise<CountedPage<OptionRow>> =>
  pageOfAccount(db, 'custom_field_options', accountId, limit, offset, (where) => where.when(definitionId, (p) => `definition_id = ${p}`), OPTION_ORDER);

/** Every option of these definitions, in display order. */
export async function optionsOf(db: Queryable, definitionIds: string[]): Promise<OptionRow[]> {
  if (definitionIds.length === 0) return [];
  const { rows } = await db.query<OptionRow>(`SELECT * FROM custom_field_options WHERE definition_id = ANY($1::uuid[]) ORDER BY ${OPTION_ORDER}, id`, [definitionIds]);
  return rows;
}

export async function findOption(db: Queryable, accountId: string, definitionId: string, id: string): Promise<OptionRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<OptionRow>('SELECT * FROM custom_field_options WHERE account_id = $1 AND definition_id = $2 AND id = $3', [accountId, definitionId, id]);
  return rows[0];
}

/** Inserts, or returns undefined when the definition has an option of that value already. */
export async function insertOption(db: Queryable, o: Pick<OptionRow, 'account_id' | 'definition_id' | 'label' | 'value' | 'position'>, at: Date): Promise<OptionRow | undefined> {
  const { rows } = await db.query<OptionRow>(
    `INSERT INTO custom_field_options (account_id, definition_id, label, value, position, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (definition_id, value) DO NOTHING RETURNING *`,
    [o.account_id, o.definition_id, o.label, o.value, o.position, at],
  );
  return rows[0];
}

export async function updateOption(db: Queryable, accountId: string, definitionId: string, id: string, c: { label?: string; position?: number | null }, at: Date): Promise<OptionRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<OptionRow>(
    `UPDATE custom_field_options SET label = coalesce($4, label), position = CASE WHEN $5 THEN $6 ELSE position END, updated_at = $7
      WHERE account_id = $1 AND definition_id = $2 AND id = $3 RETURNING *`,
    [accountId, definitionId, id, c.label ?? null, 'position' in c, c.position ?? null, at],
  );
  return rows[0];
}

export async function deleteOption(db: Queryable, accountId: string, definitionId: string, id: string): Promise<OptionRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<OptionRow>('DELETE FROM custom_field_options WHERE account_id = $1 AND definition_id = $2 AND id = $3 RETURNING *', [accountId, definitionId, id]);
  return rows[0];
}

/** How many values of the definition hold the option (through the filter index). */
export async function valuesHoldingOption(db: Queryable, definitionId: string, value: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM custom_fields WHERE match_keys @> ARRAY[$1]::text[]', [matchKey(definitionId, value)]);
  return rows[0].n;
}

// ---- values -----------------------------------------------------------------------------------

/** Where a scan of a definition's values goes on from: the last row read, in the index's order. */
export interface ValueCursor {
  created_at: Date;
  id: string;
}

/**
 * A batch of the definition's values that hold something (null ones hold nothing), newest first,
 * after `cursor`: read off custom_fields_definition, so a scan of them all never sorts.
 */
export async function valuesOfDefinition(db: Queryable, accountId: string, definitionId: string, cursor: ValueCursor | null, limit: number): Promise<FieldRow[]> {
  const { rows } = await db.query<FieldRow>(
    `SELECT * FROM custom_fields
      WHERE definition_id = $1 AND account_id = $2 AND value IS NOT NULL AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $5`,
    [definitionId, accountId, cursor?.created_at ?? null, cursor?.id ?? null, limit],
  );
  return rows;
}

export interface FieldFilters {
  entity_type?: EntityType;
  entity_id?: string;
  definition_id?: string;
}

export async function listFields(db: Queryable, accountId: string, f: FieldFilters, limit: number, offset: number): Promise<CountedPage<FieldRow>> {
  // An id that is not a uuid names nothing.
  if ((f.entity_id !== undefined && !isUuid(f.entity_id)) || (f.definition_id !== undefined && !isUuid(f.definition_id))) return { rows: [], total: 0 };
  return pageOfAccount(db, 'custom_fields', accountId, limit, offset, (where) =>
    where
      .when(f.entity_type, (p) => `entity_type = ${p}`)
      .when(f.entity_id, (p) => `entity_id = ${p}`)
      .when(f.definition_id, (p) => `definition_id = ${p}`),
  );
}

export const findFields = (db: Queryable, accountId: string, ids: string[]): Promise<FieldRow[]> => findOfAccount(db, 'custom_fields', accountId, ids);

/** The entity's value of the definition. */
export async function findFieldOf(db: Queryable, accountId: string, entityType: EntityType, entityId: string, definitionId: string): Promise<FieldRow | undefined> {
  const { rows } = await db.query<FieldRow>(
    'SELECT * FROM custom_fields WHERE account_id = $1 AND entity_type = $2 AND entity_id = $3 AND definition_id = $4',
    [accountId, entityType, entityId, definitionId],
  );
  return rows[0];
}

export interface FieldTarget {
  account_id: string;
  definition_id: string;
  entity_type: EntityType;
  entity_id: string;
}

/**
 * Writes the entity's value of the definition: a new row, or with `replace` the existing one
 * updated in place (same id). Without `replace`, an existing value is left alone: 'exists'.
 * 'gone' when the definition was deleted meanwhile (its foreign key refused the row).
 */
export async function writeField(db: Queryable, t: FieldTarget, v: StoredValue, at: Date, replace: boolean): Promise<{ row: FieldRow; created: boolean } | 'exists' | 'gone'> {
  try {
    const { rows } = await db.query<FieldRow & { created: boolean }>(
      `INSERT INTO custom_fields (account_id, definition_id, entity_type, entity_id, value, match_keys, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $7)
       ON CONFLICT (account_id, entity_type, entity_id, definition_id) DO ${replace ? 'UPDATE SET value = EXCLUDED.value, match_keys = EXCLUDED.match_keys, updated_at = EXCLUDED.updated_at' : 'NOTHING'}
       RETURNING *, (xmax = 0) AS created`,
      [t.account_id, t.definition_id, t.entity_type, t.entity_id, jsonb(v.value), matchKeys(t.definition_id, v.keys), at],
    );
    if (!rows[0]) return 'exists';
    const { created, ...row } = rows[0];
    return { row, created };
  } catch (err) {
    if ((err as { code?: string }).code === '23503') return 'gone';
    throw err;
  }
}

export async function updateField(db: Queryable, accountId: string, id: string, definitionId: string, v: StoredValue, at: Date): Promise<FieldRow | undefined> {
  const { rows } = await db.query<FieldRow>(
    'UPDATE custom_fields SET value = $3::jsonb, match_keys = $4, updated_at = $5 WHERE account_id = $1 AND id = $2 RETURNING *',
    [accountId, id, jsonb(v.value), matchKeys(definitionId, v.keys), at],
  );
  return rows[0];
}

export async function deleteField(db: Queryable, accountId: string, id: string): Promise<FieldRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<FieldRow>('DELETE FROM custom_fields WHERE account_id = $1 AND id = $2 RETURNING *', [accountId, id]);
  return rows[0];
}

// ---- values staged by tracking requests (migration 023) ----------------------------------------

/** A value checked when its tracking request was accepted, for the definition it names. */
export interface StagedValue extends StoredValue {
  definition_id: string;
}

/** initial_custom_fields as a tracking request keeps them; a container entry without number is for every container. */
export interface StagedFields {
  shipment: StagedValue[];
  containers: (StagedValue & { number: string | null })[];
}

/**
 * Writes values where the entity has none of that definition yet (one statement, however many),
 * skipping those whose definition is gone from the account; returns how many it wrote.
 */
export async function writeFieldsIfAbsent(db: Queryable, accountId: string, fields: (StagedValue & { entity_type: EntityType; entity_id: string })[], at: Date): Promise<number> {
  if (fields.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO custom_fields (account_id, definition_id, entity_type, entity_id, value, match_keys, created_at, updated_at)
     SELECT $1, d.id, v.entity_type, v.entity_id, v.value, v.match_keys, $3, $3
       FROM jsonb_to_recordset($2::jsonb) AS v(definition_id uuid, entity_type text, entity_id uuid, value jsonb, match_keys text[])
       JOIN custom_field_definitions d ON d.account_id = $1 AND d.id = v.definition_id AND d.entity_type = v.entity_type
     ON CONFLICT (account_id, entity_type, entity_id, definition_id) DO NOTHING`,
    [accountId, JSON.stringify(fields.map((f) => ({ definition_id: f.definition_id, entity_type: f.entity_type, entity_id: f.entity_id, value: f.value, match_keys: matchKeys(f.definition_id, f.keys) }))), at],
  );
  return rowCount ?? 0;
}

// ---- entities and references ------------------------------------------------------------------

const ENTITY_TABLES = { Shipment: 'shipments', Container: 'containers', TrackingRequest: 'tracking_requests' } as const;

/** Whether the account has the entity (a shipment, container or tracking request) by that id. */
export async function entityExists(db: Queryable, accountId: string, entityType: EntityType, id: string): Promise<boolean> {
  return (await findOfAccount(db, ENTITY_TABLES[entityType], accountId, [id])).length > 0;
}

/** How each record type a reference may name reads to people, by table. */
const REFERENCE_LABELS: Record<string, { table: string; label: string }> = {
  shipment: { table: 'shipments', label: 'coalesce(bill_of_lading_number, booking_number, request_number)' },
  container: { table: 'containers', label: 'number' },
  tracking_request: { table: 'tracking_requests', label: 'request_number' },
  party: { table: 'parties', label: 'company_name' },
};

/** The labels of the account's records these references name, by `type:id`; a missing record has none. */
export async function referenceLabels(db: Queryable, accountId: string, refs: ReferenceValue[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  for (const [type, { table, label }] of Object.entries(REFERENCE_LABELS)) {
    const ids = [...new Set(refs.filter((r) => r.type === type && isUuid(r.id)).map((r) => r.id))];
    if (ids.length === 0) continue;
    const { rows } = await db.query<{ id: string; label: string }>(`SELECT id, ${label} AS label FROM ${table} WHERE account_id = $1 AND id = ANY($2::uuid[])`, [accountId, ids]);
    for (const row of rows) labels.set(`${type}:${row.id}`, row.label);
  }
  return labels;
}

// ---- values of many entities at once (include=custom_fields) -----------------------------------

/** A value with what its resource shows beside it, read in the same statement. */
export interface FieldWithDefinition extends FieldRow {
  definition: Pick<DefinitionRow, 'id' | 'api_slug' | 'data_type' | 'reference_type' | 'validation' | 'default_format'>;
  /** The definition's options the value holds (enum and enum_multi only), for their labels. */
  options: Pick<OptionRow, 'value' | 'label'>[];
  /** How the record a reference value names reads (its number or name); null when it is gone or the value is no reference. */
  reference_label: string | null;
}

/** A reference's label: one scalar subquery per record type, on the account's own rows only. */
const referenceLabelSql = Object.entries(REFERENCE_LABELS)
  .map(([type, { table, label }]) => `WHEN '${type}' THEN (SELECT ${label} FROM ${table} r WHERE r.account_id = f.account_id AND r.id = (f.value->>'id')::uuid)`)
  .join('\n          ');

/**
 * Every value of the account's entities of `entityType` with these ids, newest first within an
 * entity (as the nested route lists them), each with its definition, the options it holds and the
 * label of the record it refers to: one statement for a whole page, through custom_fields_entity.
 */
export async function fieldsOfEntities(db: Queryable, accountId: string, entityType: EntityType, entityIds: string[]): Promise<FieldWithDefinition[]> {
  const ids = entityIds.filter(isUuid);
  if (ids.length === 0) return [];
  const { rows } = await db.query<FieldWithDefinition>(
    `SELECT f.*,
            json_build_object('id', d.id, 'api_slug', d.api_slug, 'data_type', d.data_type, 'reference_type', d.reference_type,
                              'validation', d.validation, 'default_format', d.default_format) AS definition,
            CASE WHEN d.data_type IN ('enum', 'enum_multi') AND f.value IS NOT NULL THEN
              (SELECT coalesce(json_agg(json_build_object('value', o.value, 'label', o.label)), '[]') FROM custom_field_options o
                WHERE o.definition_id = d.id AND o.value = ANY (ARRAY(SELECT jsonb_array_elements_text(CASE jsonb_typeof(f.value) WHEN 'array' THEN f.value ELSE jsonb_build_array(f.value) END))))
            ELSE '[]'::json END AS options,
            CASE WHEN d.data_type = 'reference' AND jsonb_typeof(f.value) = 'object' THEN
              CASE f.value->>'type'
          ${referenceLabelSql}
              END
            END AS reference_label
       FROM custom_fields f JOIN custom_field_definitions d ON d.id = f.definition_id
      WHERE f.account_id = $1 AND f.entity_type = $2 AND f.entity_id = ANY ($3::uuid[])
      ORDER BY f.entity_id, f.created_at DESC, f.id DESC`,
    [accountId, entityType, ids],
  );
  return rows;
}
