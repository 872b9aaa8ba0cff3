// A tool's structured content checked against its output schema by a validator compiled once
// (ajv, from the JSON Schema zod makes of the schema). In svc serve zod parses every REST query
// and body too, so its generic parsing code sees every kind of schema and runs slowly there:
// checking get_container's answer took about 60 µs in svc serve on a loaded machine (3 µs in a
// loop of its own), a seventh of what MCP then added to the REST call behind the tool.
//
// zod stays the authority: only a verdict of "valid" is taken from the compiled check. Content
// it refuses is parsed by zod, whose error words the answer; content zod accepts after all is
// accepted. The output schemas are plain data shapes (objects, arrays, strings, numbers,
// booleans, enums, null, optional members), which the JSON Schema says exactly, and the check
// takes for an object only one made by an object literal (zod refuses a Date where it expects a
// record; ajv would see an object); test/mcp-output-check.test.ts holds the check to never say
// valid where zod does not, and to agree with zod on every tool's schema.
import { _, Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { z } from 'zod';

// ajv-formats' default export is typed for ajv's CommonJS entry point.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

let ajv: Ajv2020 | undefined;

/**
 * Compiled checks by the JSON Schema's text: every pooled server makes its own zod objects for
 * the same tools, and compiling one schema costs tens of milliseconds. null: no compiled check
 * (a schema JSON Schema cannot say, or ajv refuses): zod alone decides.
 */
const compiled = new Map<string, ValidateFunction | null>();

/** Whether `value` passes the compiled check of `schema` (false: ask zod); undefined when there is none. */
export type CompiledCheck = (value: unknown) => boolean;

export function compiledCheck(schema: z.ZodType): CompiledCheck | undefined {
  let jsonSchema: Record<string, unknown>;
  try {
    // Checks JSON Schema cannot say make this throw, rather than being left out.
    jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw', cycles: 'throw' }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const text = JSON.stringify(jsonSchema);
  let check = compiled.get(text);
  if (check === undefined) {
    try {
      check = validatorMaker().compile(withPlainObjects(jsonSchema));
    } catch {
      check = null;
    }
    compiled.set(text, check);
  }
  return check ?? undefined;
}

/** An object made by an object literal (or JSON.parse), not a Date, Map or class instance. */
const PLAIN_OBJECT = 'x-plain-object';

function validatorMaker(): Ajv2020 {
  if (!ajv) {
    // strict: a keyword or format ajv does not know fails the compilation (zod then decides)
    // rather than being ignored, which would let through what zod refuses; it also refuses NaN
    // and infinities as numbers, as zod does.
    ajv = new Ajv2020({ strict: true, validateSchema: false, allErrors: false });
    addFormats(ajv);
    // Written into the validator's code: a function keyword is called with a new context object
    // for every object checked (about 1.4 KiB per get_container answer in a heap profile of
    // bench:mcp, the check's only allocations).
    ajv.addKeyword({ keyword: PLAIN_OBJECT, type: 'object', schemaType: 'boolean', code: (cxt) => cxt.fail(_`Object.getPrototypeOf(${cxt.data}) !== Object.prototype`) });
  }
  return ajv;
}

/**
 * `schema` with every object schema in it asking for a plain object. `propertyNames: { type:
 * "string" }` (zod's for a record) is left out: every member name is a string, and ajv's code for
 * it skips the keywords after it on an object without members, this one among them.
 */
function withPlainObjects(schema: unknown): Record<string, unknown> {
  if (Array.isArray(schema)) return schema.map(withPlainObjects) as never;
  if (typeof schema !== 'object' || schema === null) return schema as never;
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(schema)) {
    if (name === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    copy[name] = name === 'enum' || name === 'const' || name === 'default' ? value : withPlainObjects(value);
  }
  const type = copy.type;
  if (type === 'object' || (Array.isArray(type) && type.includes('object'))) copy[PLAIN_OBJECT] = true;
  return copy;
}
