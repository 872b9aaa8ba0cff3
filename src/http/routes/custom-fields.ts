// Custom fields: an account's own fields on shipments, containers and tracking requests. The
// reference service's 27 operations: definitions, options of enum definitions, values by id
// (/custom_fields) and values by slug under each entity (/<entities>/{id}/custom_fields).
import { z } from 'zod';
import { DATA_TYPES, ENTITY_RESOURCE, ENTITY_TYPES, entityTypeOfResource, type EntityType } from '../../domain/custom-fields/types.ts';
import { resourceDocument, validateBody } from '../../jsonapi/body.ts';
import { badParameter } from '../../jsonapi/errors.ts';
import { enumParam, optionalParam, type Query } from '../../jsonapi/query.ts';
import { customFieldDefinitionResource, customFieldOptionResource, customFieldResource } from '../../jsonapi/serializers/custom-field.ts';
import {
  createDefinition,
  createField,
  createOption,
  definitionOf,
  definitionViews,
  deleteDefinition,
  deleteFieldAt,
  deleteFieldById,
  deleteOption,
  fieldViews,
  entityFields,
  updateDefinition,
  updateFieldAt,
  updateFieldById,
  updateOption,
  upsertField,
  type ValueTarget,
} from '../../services/custom-fields.ts';
import { findDefinitions, findFields, findOption, listDefinitions, listFields, listOptions, type DefinitionRow, type FieldRow } from '../../store/custom-fields.ts';
import type { Db } from '../../store/db.ts';
import { recordDocument, resourceSchema, toManySchema, toOneSchema } from '../openapi-schemas.ts';
import { listRoute, showRoute } from '../read-routes.ts';
import type { AnyRouteSpec, Ctx } from '../route.ts';
import { createdReply, writeRecordRoute } from '../write-routes.ts';

const TAG = 'Custom fields';
const PAGE_SIZE = 25;

// ---- schemas ----------------------------------------------------------------------------------

/** A value: its form depends on the definition's data type, so the value rules, not this schema, check it. */
const valueSchema = z.unknown().meta({
  description:
    'short_text: a string; number: a number (decimal(18,6)); date: YYYY-MM-DD (or the default_format); datetime: ISO 8601; boolean: true/false; enum: an option value; enum_multi: a list of option values; reference: {type, id}; null: no value',
  anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }, { type: 'null' }],
});

const slugAttribute = z.string().trim().min(1).max(200);
const displayName = z.string().trim().min(1).max(200);
const description = z.string().trim().max(2000).nullish();
const validationAttribute = z.record(z.string(), z.unknown()).nullish().describe('Rules beyond the data type: required (all), max_length, min_length, pattern (short_text), min, max (number)');
const defaultFormat = z.string().trim().max(20).nullish().describe('Date fields only: another form dates may be written in, e.g. MM/DD/YYYY');

const createDefinitionBody = resourceDocument(
  'custom_field_definition',
  z.object({
    entity_type: z.enum(ENTITY_TYPES).describe('The records the field is on (immutable)'),
    api_slug: slugAttribute.describe('The name values are addressed by: lowercase letters, digits and underscores (immutable, unique in the account)'),
    display_name: displayName,
    description,
    data_type: z.enum(DATA_TYPES).describe('immutable'),
    reference_type: z.string().nullish().describe('Reference fields only (required there): shipment, container, tracking_request or party'),
    validation: validationAttribute,
    default_format: defaultFormat,
    default_value: valueSchema.optional(),
  }),
);

const immutable = (name: string) => z.string().nullish().describe(`Immutable: accepted only when it equals the ${name} the definition has`);
const patchDefinitionBody = resourceDocument(
  'custom_field_definition',
  z.object({
    display_name: displayName.optional(),
    description,
    validation: validationAttribute,
    default_format: defaultFormat,
    default_value: valueSchema.optional(),
    api_slug: immutable('api_slug'),
    entity_type: immutable('entity_type'),
    data_type: immutable('data_type'),
    reference_type: immutable('reference_type'),
  }),
);

const optionLabel = z.string().trim().min(1).max(200);
const position = z.int().min(0).max(1_000_000).nullish().describe('Where the option comes in lists (ascending; options without one come last)');
const createOptionBody = resourceDocument(
  'custom_field_option',
  z.object({
    label: optionLabel,
    value: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine((v) => !v.includes(','), { message: 'value may not hold a comma (enum_multi values are written comma-separated)' })
      .describe('What values hold (unique in the definition, immutable)'),
    position,
  }),
);
const patchOptionBody = resourceDocument('custom_field_option', z.object({ label: optionLabel.optional(), position, value: z.string().optional().describe('Immutable: accepted only when unchanged') }));

/** `value` left out of a write takes the definition's default_value. */
const valueAttributes = { api_slug: slugAttribute, value: valueSchema.optional().describe("The value; left out, the definition's default_value") };
const entityTypes = ENTITY_TYPES.map((e) => ENTITY_RESOURCE[e].type) as [string, ...string[]];
const createFieldBody = z.object({
  data: z.object({
    type: z.literal('custom_field').optional(),
    attributes: z.object(valueAttributes),
    relationships: z.object({ entity: z.object({ data: z.object({ type: z.enum(entityTypes), id: z.string().trim().min(1) }) }) }),
  }),
});
const upsertFieldBody = resourceDocument('custom_field', z.object(valueAttributes));
const patchFieldBody = resourceDocument(
  'custom_field',
  z.object({ value: valueSchema }).superRefine((a, ctx) => {
    if (a.value === undefined) ctx.addIssue({ code: 'custom', path: ['value'], message: "value can't be blank (send null to clear it)", params: { code: 'blank' } });
  }),
);

const timestamps = { created_at: z.string(), updated_at: z.string() };

const definitionSchema = resourceSchema(
  'custom_field_definition',
  z.object({
    entity_type: z.enum(ENTITY_TYPES),
    api_slug: z.string(),
    display_name: z.string(),
    description: z.string().nullable(),
    data_type: z.enum(DATA_TYPES),
    reference_type: z.string().nullable(),
    validation: z.record(z.string(), z.unknown()).nullable(),
    default_format: z.string().nullable(),
    default_value: valueSchema,
    template_id: z.string().nullable().describe('Always null: svc has no service-wide templates'),
    ...timestamps,
  }),
  { relationships: { account: toOneSchema('account'), options: toManySchema('custom_field_option', 'Its options, in display order (enum and enum_multi fields)') }, selfLink: true },
);

const optionSchema = resourceSchema(
  'custom_field_option',
  z.object({ label: z.string(), value: z.string(), position: z.int().nullable(), ...timestamps }),
  { relationships: { definition: toOneSchema('custom_field_definition') }, selfLink: true },
);

const fieldSchema = resourceSchema(
  'custom_field',
  z.object({
    api_slug: z.string(),
    value: valueSchema,
    display_value: z.string().nullable().describe('The value as people read it: dates YYYY-MM-DD, datetimes YYYY-MM-DD HH:MM:SS (UTC), Yes/No, option labels, the referenced record’s number or name'),
    ...timestamps,
  }),
  {
    relationships: {
      entity: z.object({ data: z.object({ type: z.enum(entityTypes), id: z.string() }) }),
      definition: toOneSchema('custom_field_definition'),
    },
    selfLink: true,
  },
);

// ---- query parameters -------------------------------------------------------------------------

/** filter[entity_type]: as definitions name it (Shipment) or as resources are typed (shipment). */
function entityTypeParam(query: Query): EntityType | undefined {
  const raw = optionalParam(query, 'filter[entity_type]');
  if (raw === undefined) return undefined;
  const type = (ENTITY_TYPES as readonly string[]).includes(raw) ? (raw as EntityType) : entityTypeOfResource(raw);
  if (!type) throw badParameter('filter[entity_type]', `filter[entity_type] must be one of ${ENTITY_TYPES.join(', ')}; '${raw.slice(0, 40)}' is not.`);
  return type;
}

const dataTypeParam = (query: Query) => enumParam(query, 'filter[data_type]', DATA_TYPES);

// ---- handlers ---------------------------------------------------------------------------------

const definitionResources = async (db: Db, rows: DefinitionRow[]) => (await definitionViews(db, rows)).map(customFieldDefinitionResource);
const fieldResources = async ({ services, accountId }: Ctx<unknown>, rows: FieldRow[]) => (await fieldViews(services.db, accountId, rows)).map(customFieldResource);

const definitionRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/custom_field_definitions',
    summary: 'List custom field definitions, newest first',
    tag: TAG,
    type: 'custom_field_definition',
    schema: definitionSchema,
    description: 'A page of custom field definitions',
    pageSize: PAGE_SIZE,
    filters: [
      { name: 'filter[entity_type]', description: ENTITY_TYPES.join(', '), schema: { type: 'string', enum: [...ENTITY_TYPES] } },
      { name: 'filter[data_type]', description: DATA_TYPES.join(', '), schema: { type: 'string', enum: [...DATA_TYPES] } },
      { name: 'filter[display_name]', description: 'The start of the display name (any case)' },
    ],
    list: ({ services, accountId, query }, limit, offset) =>
      listDefinitions(services.db, accountId, { entity_type: entityTypeParam(query), data_type: dataTypeParam(query), display_name: optionalParam(query, 'filter[display_name]') }, limit, offset),
    serialize: (rows, { services }) => definitionResources(services.db, rows),
  }),
  {
    method: 'POST',
    url: '/v2/custom_field_definitions',
    summary: 'Create a custom field definition',
    tag: TAG,
    body: createDefinitionBody,
    parseBody: validateBody,
    response: { status: 201, description: 'The created definition', schema: recordDocument(definitionSchema) },
    async handler({ services, accountId, body, url }) {
      const row = await createDefinition(services.db, accountId, body.data.attributes, services.clock.now());
      return createdReply((await definitionResources(services.db, [row]))[0], url);
    },
  },
  showRoute({
    url: '/v2/custom_field_definitions/:id',
    summary: 'Get a custom field definition',
    tag: TAG,
    type: 'custom_field_definition',
    schema: definitionSchema,
    find: async ({ services, accountId, params }) => (await definitionResources(services.db, await findDefinitions(services.db, accountId, [params.id])))[0],
    serialize: (resource) => resource,
  }),
  writeRecordRoute({
    method: 'PATCH',
    url: '/v2/custom_field_definitions/:id',
    summary: 'Change the display name, description, validation, default format or default value of a definition',
    tag: TAG,
    body: patchDefinitionBody,
    schema: definitionSchema,
    description: 'The updated definition',
    write: ({ services, accountId, params, body }) => updateDefinition(services.db, accountId, params.id, body.data.attributes, services.clock.now()),
    serialize: async (row, { services }) => (await definitionResources(services.db, [row]))[0],
  }),
  writeRecordRoute({
    method: 'DELETE',
    url: '/v2/custom_field_definitions/:id',
    summary: 'Delete a custom field definition with its options and every value of it',
    tag: TAG,
    schema: definitionSchema,
    description: 'The deleted definition',
    write: ({ services, accountId, params }) => deleteDefinition(services.db, accountId, params.id),
    serialize: (row) => customFieldDefinitionResource({ row, optionIds: [] }),
  }),
];

/** The option routes: the definition in the path (`:id`) must be the account's, else a 404. */
const optionRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/custom_field_definitions/:id/options',
    summary: 'List the options of an enum or enum_multi definition, in display order',
    tag: TAG,
    type: 'custom_field_option',
    schema: optionSchema,
    description: 'A page of options',
    pageSize: PAGE_SIZE,
    list: async ({ services, accountId, params }, limit, offset) => listOptions(services.db, accountId, (await definitionOf(services.db, accountId, params.id)).id, limit, offset),
    serialize: (rows) => rows.map(customFieldOptionResource),
  }),
  {
    method: 'POST',
    url: '/v2/custom_field_definitions/:id/options',
    summary: 'Add an option to an enum or enum_multi definition',
    tag: TAG,
    body: createOptionBody,
    parseBody: validateBody,
    response: { status: 201, description: 'The created option', schema: recordDocument(optionSchema) },
    async handler({ services, accountId, params, body, url }) {
      return createdReply(customFieldOptionResource(await createOption(services.db, accountId, params.id, body.data.attributes, services.clock.now())), url);
    },
  },
  showRoute({
    url: '/v2/custom_field_definitions/:id/options/:option_id',
    summary: 'Get an option',
    tag: TAG,
    type: 'custom_field_option',
    schema: optionSchema,
    find: async ({ services, accountId, params }) => findOption(services.db, accountId, (await definitionOf(services.db, accountId, params.id)).id, params.option_id),
    serialize: customFieldOptionResource,
  }),
  writeRecordRoute({
    method: 'PATCH',
    url: '/v2/custom_field_definitions/:id/options/:option_id',
    summary: 'Change the label or position of an option (its value is immutable)',
    tag: TAG,
    body: patchOptionBody,
    schema: optionSchema,
    description: 'The updated option',
    write: ({ services, accountId, params, body }) => updateOption(services.db, accountId, params.id, params.option_id, body.data.attributes, services.clock.now()),
    serialize: customFieldOptionResource,
  }),
  writeRecordRoute({
    method: 'DELETE',
    url: '/v2/custom_field_definitions/:id/options/:option_id',
    summary: 'Delete an option no value holds',
    tag: TAG,
    schema: optionSchema,
    description: 'The deleted option',
    write: ({ services, accountId, params }) => deleteOption(services.db, accountId, params.id, params.option_id),
    serialize: customFieldOptionResource,
  }),
];

const fieldRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/custom_fields',
    summary: 'List custom field values, newest first',
    tag: TAG,
    type: 'custom_field',
    schema: fieldSchema,
    description: 'A page of custom field values',
    pageSize: PAGE_SIZE,
    filters: [
      { name: 'filter[entity_type]', description: `${ENTITY_TYPES.join(', ')} (or shipment, container, tracking_request)` },
      { name: 'filter[entity_id]', description: 'Values of one shipment, container or tracking request' },
      { name: 'filter[definition_id]', description: 'Values of one definition' },
    ],
    list: ({ services, accountId, query }, limit, offset) =>
      listFields(
        services.db,
        accountId,
        { entity_type: entityTypeParam(query), entity_id: optionalParam(query, 'filter[entity_id]'), definition_id: optionalParam(query, 'filter[definition_id]') },
        limit,
        offset,
      ),
    serialize: (rows, ctx) => fieldResources(ctx, rows),
  }),
  {
    method: 'POST',
    url: '/v2/custom_fields',
    summary: 'Set a custom field of a shipment, container or tracking request (one it has no value of yet)',
    tag: TAG,
    body: createFieldBody,
    parseBody: validateBody,
    response: { status: 201, description: 'The created value', schema: recordDocument(fieldSchema) },
    async handler(ctx) {
      const { attributes, relationships } = ctx.body.data;
      const target: ValueTarget = { entityType: entityTypeOfResource(relationships.entity.data.type)!, entityId: relationships.entity.data.id, apiSlug: attributes.api_slug, slugIn: 'body' };
      const row = await createField(ctx.services.db, ctx.accountId, target, attributes.value, ctx.services.clock.now());
      return createdReply((await fieldResources(ctx, [row]))[0], ctx.url);
    },
  },
  showRoute({
    url: '/v2/custom_fields/:id',
    summary: 'Get a custom field value',
    tag: TAG,
    type: 'custom_field',
    schema: fieldSchema,
    find: async (ctx) => (await fieldResources(ctx, await findFields(ctx.services.db, ctx.accountId, [ctx.params.id])))[0],
    serialize: (resource) => resource,
  }),
  writeRecordRoute({
    method: 'PATCH',
    url: '/v2/custom_fields/:id',
    summary: 'Change a custom field value',
    tag: TAG,
    body: patchFieldBody,
    schema: fieldSchema,
    description: 'The updated value',
    write: ({ services, accountId, params, body }) => updateFieldById(services.db, accountId, params.id, body.data.attributes.value, services.clock.now()),
    serialize: async (row, ctx) => (await fieldResources(ctx, [row]))[0],
  }),
  writeRecordRoute({
    method: 'DELETE',
    url: '/v2/custom_fields/:id',
    summary: 'Delete a custom field value',
    tag: TAG,
    schema: fieldSchema,
    description: 'The deleted value',
    write: ({ services, accountId, params }) => deleteFieldById(services.db, accountId, params.id),
    serialize: customFieldResource,
  }),
];

/** The four routes of values by slug under one entity type: /v2/<entities>/:id/custom_fields[/:api_slug]. */
function entityFieldRoutes(entityType: EntityType): AnyRouteSpec[] {
  const { type, path } = ENTITY_RESOURCE[entityType];
  const base = `/v2/${path}/:id/custom_fields`;
  const target = (params: Record<string, string>, apiSlug: string, slugIn: ValueTarget['slugIn']): ValueTarget => ({ entityType, entityId: params.id, apiSlug, slugIn });
  return [
    listRoute({
      url: base,
      summary: `List the custom field values of a ${type}`,
      tag: TAG,
      type: 'custom_field',
      schema: fieldSchema,
      description: 'A page of its values, newest first',
      pageSize: PAGE_SIZE,
      list: ({ services, accountId, params }, limit, offset) => entityFields(services.db, accountId, entityType, params.id, limit, offset),
      serialize: (rows, ctx) => fieldResources(ctx, rows),
    }),
    {
      method: 'POST',
      url: base,
      summary: `Set a custom field of a ${type} by api_slug, whether or not it has a value`,
      tag: TAG,
      body: upsertFieldBody,
      parseBody: validateBody,
      response: { status: 201, description: 'The value as set', schema: recordDocument(fieldSchema) },
      async handler(ctx) {
        const { api_slug, value } = ctx.body.data.attributes;
        const { row } = await upsertField(ctx.services.db, ctx.accountId, target(ctx.params, api_slug, 'body'), value, ctx.services.clock.now());
        return createdReply((await fieldResources(ctx, [row]))[0], ctx.url);
      },
    },
    writeRecordRoute({
      method: 'PATCH',
      url: `${base}/:api_slug`,
      summary: `Change a custom field value of a ${type}`,
      tag: TAG,
      body: patchFieldBody,
      schema: fieldSchema,
      description: 'The updated value',
      write: ({ services, accountId, params, body }) => updateFieldAt(services.db, accountId, target(params, params.api_slug, 'path'), body.data.attributes.value, services.clock.now()),
      serialize: async (row, ctx) => (await fieldResources(ctx, [row]))[0],
    }),
    {
      method: 'DELETE',
      url: `${base}/:api_slug`,
      summary: `Delete a custom field value of a ${type}`,
      tag: TAG,
      response: { status: 204, description: 'Deleted' },
      async handler({ services, accountId, params }) {
        await deleteFieldAt(services.db, accountId, target(params, params.api_slug, 'path'));
        return { status: 204, body: {} };
      },
    },
  ];
}

export const customFieldRoutes: AnyRouteSpec[] = [...definitionRoutes, ...optionRoutes, ...fieldRoutes, ...ENTITY_TYPES.flatMap(entityFieldRoutes)];
