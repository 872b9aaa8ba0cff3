// A tool's structured content checked against its output schema by a validator compiled once
// (ajv, from the JSON Schema zod makes of the schema). In svc serve zod parses every REST query
// and body too, so its generic parsing code sees every kind of schema and runs slowly: checking
// get_container's answer took about 60 µs there, a tenth of what MCP adds to the REST call
// behind the tool, against a few µs for code compiled for that one schema.
//
// zod stays the authority: only a verdict of "valid" is taken from the compiled check. Content
// it refuses is parsed by zod, whose error words the answer; content zod accepts after all is
// accepted. The output schemas are plain data shapes (objects, arrays, strings, numbers,
// booleans, enums, null, optional members), which the JSON Schema says exactly;
// test/mcp-output-check.test.ts holds the two verdicts equal on every tool's schema.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { z } from 'zod';
import { isJsonData } from './json-data.ts';

// ajv-formats' default export is typed for ajv's CommonJS entry point.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

let ajv: Ajv2020 | undefined;

/**
 * Compiled checks by the JSON Schema's text: every pooled server makes its own zod objects for
 * the same tools, and compiling one schema costs tens of milliseconds. null: no compiled check
 * (a schema JSON Schema cannot say, or ajv refuses): zod alone decides.
 */
const compiled = new Map<string, CompiledCheck | null>();

/** Whether `value` passes the compiled check of `schema` (false: ask zod); undefined when there is none. */
export type CompiledCheck = (value: unknown) => boolean;

/**
 * The JSON Schema speaks of JSON data: on other values (a Date where an object is expected, NaN)
 * ajv and zod may judge differently, so those are left to zod.
 */
const onJsonData =
  (validate: ValidateFunction): CompiledCheck =>
  (value) =>
    isJsonData(value) && validate(value);

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
      if (!ajv) {
        // strict: a keyword or format ajv does not know fails the compilation (zod then decides)
        // rather than being ignored, which would let through what zod refuses.
        ajv = new Ajv2020({ strict: true, validateSchema: false, allErrors: false });
        addFormats(ajv);
      }
      check = onJsonData(ajv.compile(jsonSchema));
    } catch {
      check = null;
    }
    compiled.set(text, check);
  }
  return check ?? undefined;
}
