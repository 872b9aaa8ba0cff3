// Pieces of schema shared by route declarations: resource envelopes and common query parameters.
import { z } from 'zod';
import type { QueryParamSpec } from './route.ts';

const identifier = z.object({ type: z.string(), id: z.string() });

export function resourceSchema<A extends z.ZodType>(type: string, attributes: A) {
  return z.object({
    id: z.uuid(),
    type: z.literal(type),
    attributes,
    relationships: z.record(z.string(), z.object({ data: z.union([identifier, z.array(identifier), z.null()]) })).optional(),
    links: z.object({ self: z.string() }).optional(),
  });
}

export function pageParams(defaultSize: number): QueryParamSpec[] {
  return [
    { name: 'page[number]', description: 'Page number, from 1', schema: { type: 'integer', minimum: 1, default: 1 } },
    { name: 'page[size]', description: `Records per page (at most 100; larger values are clamped)`, schema: { type: 'integer', minimum: 1, default: defaultSize } },
  ];
}

export function includeParam(relationships: string[]): QueryParamSpec {
  return {
    name: 'include',
    description: `Comma-separated relationship paths to include (dotted for nested): ${relationships.join(', ')}`,
    schema: { type: 'string' },
  };
}

export const errorDocument = z.object({
  errors: z.array(
    z.object({
      status: z.string(),
      title: z.string(),
      detail: z.string().optional(),
      code: z.string().optional(),
      source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).optional(),
      meta: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});
