// Pieces of schema shared by route declarations: resource envelopes and common query parameters.
import { z } from 'zod';
import { COUNT_AHEAD } from '../store/account-rows.ts';
import type { QueryParamSpec } from './route.ts';

const identifier = z.object({ type: z.string(), id: z.string() });
const relationships = z.record(z.string(), z.object({ data: z.union([identifier, z.array(identifier), z.null()]) }));
const selfLink = z.object({ self: z.string() });

/** An instant (ISO 8601, UTC), null when unknown. */
export const instant = z.string().nullable();
export const timezone = z.string().nullable().describe('IANA time zone of the place, e.g. America/Los_Angeles');

const sourceFreshness = (checked: string, changed: string) =>
  z.object({ checked_at: instant.describe(`${checked}; null when never`), changed_at: instant.describe(`${changed}; null when never`) });

/** svc's extension on shipments and containers: per source, when svc last heard from it and when that last changed what svc shows. */
export const dataFreshnessSchema = (of: 'shipment' | 'container') =>
  z
    .object({
      shipping_line: sourceFreshness('When the shipping line last answered about the shipment', 'When svc last recorded a milestone or estimate from the line (or first learned of the container)'),
      terminal: sourceFreshness('When the terminal last reported on the container (terminal_checked_at)', 'When svc last recorded a change of terminal data (availability, holds, fees, last free day, appointment, terminal)'),
      ais: sourceFreshness(
        'The time of the last AIS position of the vessel the container is on (once discharged from it, up to the discharge)',
        'When svc last recorded an arrival AIS saw first, or computed the AIS arrival estimate for that vessel at the port of discharge while the container is aboard',
      ),
    })
    .describe(
      `svc extension, not in the reference API: how fresh what svc shows is, per source.${of === 'shipment' ? " Terminal and AIS times are the latest of the shipment's containers'." : ''}`,
    );

/** A to-one relationship to a record of `type` (or of one of several); data is null when there is none. */
export function toOneSchema(type: string | [string, ...string[]], description?: string) {
  const schema = z.object({ data: z.object({ type: typeof type === 'string' ? z.literal(type) : z.enum(type), id: z.string() }).nullable() });
  return description ? schema.describe(description) : schema;
}

/** A to-many relationship to records of `type`. */
export function toManySchema(type: string, description?: string) {
  const schema = z.object({ data: z.array(z.object({ type: z.literal(type), id: z.string() })) });
  return description ? schema.describe(description) : schema;
}

/** The custom field values of a shipment or container, present only when the include parameter names custom_fields. */
export const customFieldsRelationship = toManySchema(
  'custom_field',
  "Its custom field values, newest first: present only with include=custom_fields (or a path ending in it, such as containers.custom_fields), which brings the custom_field records into included",
).optional();

export interface ResourceSchemaOptions<R extends z.ZodRawShape> {
  /** The relationships every record of this type carries (then required, and listed member by member). */
  relationships?: R;
  /** Every record of this type carries links.self. */
  selfLink?: boolean;
}

export function resourceSchema<A extends z.ZodType, R extends z.ZodRawShape = z.ZodRawShape>(type: string, attributes: A, options: ResourceSchemaOptions<R> = {}) {
  return z.object({
    id: z.uuid(),
    type: z.literal(type),
    attributes,
    relationships: options.relationships ? z.object(options.relationships) : relationships.optional(),
    links: options.selfLink ? selfLink : selfLink.optional(),
  });
}

/** A record of any type, as `included` holds whatever the `include` parameter asked for. */
const anyResource = z.object({
  id: z.string(),
  type: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  relationships: relationships.optional(),
  // Some types link more than themselves (a document its download).
  links: selfLink.catchall(z.string()).optional(),
});
const included = z.array(anyResource).optional().describe('The records the include parameter asked for');

/** The document of one record; `links.self` is there when the record was just created. */
export function recordDocument<R extends z.ZodType>(resource: R) {
  return z.object({ data: resource, included, links: selfLink.optional() });
}

const pageLinks = z.object({
  self: z.string(),
  current: z.string(),
  first: z.string(),
  prev: z.string().optional(),
  next: z.string().optional(),
  last: z.string(),
});
const pageMeta = z.object({
  size: z.int(),
  total: z.int(),
  total_is_lower_bound: z.literal(true).optional().describe(`Present when there are more records than total: lists count at most ${COUNT_AHEAD} records past the start of the page`),
  pagination: z.object({ current: z.int(), next: z.int().optional(), last: z.int(), records: z.int() }),
});

/** A list document: paginated lists carry page links and meta, unpaginated ones only links.self. */
export function listDocument<R extends z.ZodType>(resource: R, { paginated }: { paginated: boolean }) {
  const data = z.array(resource);
  return paginated ? z.object({ data, included, links: pageLinks, meta: pageMeta }) : z.object({ data, included, links: selfLink });
}

export function pageParams(defaultSize: number): QueryParamSpec[] {
  return [
    { name: 'page[number]', description: 'Page number, from 1', schema: { type: 'integer', minimum: 1, default: 1 } },
    { name: 'page[size]', description: `Records per page (at most 100; larger values are clamped)`, schema: { type: 'integer', minimum: 1, default: defaultSize } },
  ];
}

/** `<name>[start]` and `<name>[end]`, inclusive bounds on when records were `what` (read by timeRangeParam). */
export function timeRangeParams(name: string, what: string): QueryParamSpec[] {
  return [
    { name: `${name}[start]`, description: `${what} at or after (ISO 8601 date or date-time)`, schema: { type: 'string' } },
    { name: `${name}[end]`, description: `${what} at or before (ISO 8601 date or date-time)`, schema: { type: 'string' } },
  ];
}

export function includeParam(relationships: string[]): QueryParamSpec {
  return {
    name: 'include',
    description: `Comma-separated relationship paths to include (dotted for nested): ${relationships.join(', ')}`,
    schema: { type: 'string' },
  };
}

/** A GET outside the /v2 route declarations (health, the OpenAPI document): plain JSON, no API key. */
export interface PlainOperation {
  path: string;
  summary: string;
  tag: string;
  responses: Record<number, { description: string; schema: z.ZodType }>;
}

/** A route a signed link authorises instead of an API key (its token is the path's last segment); bodies are raw bytes. */
export interface SignedLinkOperation {
  method: 'GET' | 'PUT';
  /** OpenAPI path, ending in {token}. */
  path: string;
  summary: string;
  tag: string;
  /** What the raw request body is, when the route takes one. */
  requestBody?: string;
  success: { status: number; description: string; binary?: boolean };
  errors: Record<number, string>;
}

export const errorDocument = z.object({
  errors: z.array(
    z.object({
      status: z.string(),
      title: z.string(),
      detail: z.string().optional(),
      code: z.string().optional(),
      source: z.object({ pointer: z.string().optional(), parameter: z.string().optional(), header: z.string().optional() }).optional(),
      meta: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});
