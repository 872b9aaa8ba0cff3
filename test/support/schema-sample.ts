// A value a JSON Schema (as zod writes it) accepts, for tests that compare a compiled check of a
// tool's schema with zod's (test/mcp-output-check.test.ts, test/mcp-input-check.test.ts).

export type Json = Record<string, unknown>;
export const UUID = '0d5c1d0e-3a4b-4c5d-8e6f-7a8b9c0d1e2f';

/** A value `schema` accepts, with every optional member present. */
export function sampleOf(schema: Json): unknown {
  if (Array.isArray(schema.anyOf)) return sampleOf((schema.anyOf as Json[]).find((s) => s.type !== 'null') ?? (schema.anyOf as Json[])[0]);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, s]) => [name, sampleOf(s)]));
    case 'array':
      return [sampleOf(schema.items as Json)];
    case 'string':
      return schema.format === 'uuid' ? UUID : 'text';
    case 'integer':
      return 3;
    case 'number':
      return 2.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      throw new Error(`no sample for ${JSON.stringify(schema)}`);
  }
}
