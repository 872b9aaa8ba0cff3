// A tool's arguments parsed the short way, for the input schemas most tools have: an object of
// plain members (strings, ids, numbers, booleans, enums, lists of these; optional or with a
// default). zod's parse of get_container's arguments was about a tenth of what MCP added to the
// REST call behind the tool in svc serve (a CPU profile of bench:mcp; its generic code sees every
// kind of schema there, see output-check.ts), for what is a type check and a copy.
//
// zod stays the authority, as for outputs: the compiled check (output-check.ts) only says
// "valid", and the parsed arguments are then made as zod makes them for such a schema: the
// schema's members in its order, a default for a member left out, nothing for an optional one,
// unknown members dropped (a strict schema's check refuses them first), lists copied. Anything else (a check that changes the value, such as
// trim; a union, a record, a nested object) is parsed by zod. Both count a text's length in
// characters (code points), not UTF-16 units.
// test/mcp-input-check.test.ts holds the two to the same answers for every tool's schema.
import type { z } from 'zod';
import { compiledCheck } from './output-check.ts';

/** The arguments as zod would parse them, or undefined: ask zod. */
export type InputParse = (args: Record<string, unknown>) => Record<string, unknown> | undefined;

interface Member {
  name: string;
  optional: boolean;
  /** The default's definition (its defaultValue makes a fresh copy each time it is read, for zod too). */
  defaulted?: Def;
  list: boolean;
}

// Checks that only test a value (JSON Schema says each exactly); anything else, "overwrite" (trim,
// case changes) above all, keeps the schema for zod.
const TESTING_CHECKS = new Set(['min_length', 'max_length', 'length_equals', 'greater_than', 'less_than', 'number_format', 'multiple_of']);
// String formats whose JSON Schema carries zod's own pattern.
const PATTERN_FORMATS = new Set(['guid', 'uuid']);
const LEAF_TYPES = new Set(['string', 'number', 'boolean', 'enum', 'literal']);

type Def = { type: string; defaultValue?: unknown; checks?: { _zod: { def: { check: string; format?: string } } }[]; format?: string; coerce?: boolean; innerType?: Schema; element?: Schema };
type Schema = { _zod: { def: Def } };

function testsOnly(def: Def): boolean {
  if (def.coerce) return false;
  if (def.format !== undefined && !PATTERN_FORMATS.has(def.format)) return false;
  for (const check of def.checks ?? []) {
    const { check: kind, format } = check._zod.def;
    if (!(TESTING_CHECKS.has(kind) || (kind === 'string_format' && format !== undefined && PATTERN_FORMATS.has(format)))) return false;
  }
  return true;
}

const isLeaf = (schema: Schema) => LEAF_TYPES.has(schema._zod.def.type) && testsOnly(schema._zod.def);

/** The member as the short way takes it, or undefined when its schema is for zod. */
function memberOf(name: string, schema: Schema): Member | undefined {
  let core = schema;
  const wrapper = schema._zod.def;
  if ((wrapper.type === 'optional' || wrapper.type === 'default') && wrapper.innerType) core = wrapper.innerType;
  const def = core._zod.def;
  const list = def.type === 'array';
  if (list ? !(testsOnly(def) && def.element && isLeaf(def.element)) : !isLeaf(core)) return undefined;
  return { name, optional: wrapper.type === 'optional', list, ...(wrapper.type === 'default' ? { defaulted: wrapper } : {}) };
}

/** The short parse of `schema`'s arguments, or undefined when zod must parse them all. */
export function compiledInputParse(schema: z.ZodObject): InputParse | undefined {
  const def = schema._zod.def as unknown as Def & { catchall?: unknown };
  // A strict object (catchall never) is taken: its JSON Schema refuses unknown members, so the
  // compiled check leaves them to zod, which names them. Passthrough or refined objects are zod's.
  const strict = (def.catchall as Schema | undefined)?._zod.def.type === 'never';
  if ((def.catchall !== undefined && !strict) || (def.checks?.length ?? 0) > 0) return undefined;
  const members: Member[] = [];
  for (const [name, member] of Object.entries(schema.shape as Record<string, Schema>)) {
    const taken = memberOf(name, member);
    if (!taken) return undefined;
    members.push(taken);
  }
  const check = compiledCheck(schema);
  if (!check) return undefined;
  return (args) => {
    if (!check(args)) return undefined;
    const parsed: Record<string, unknown> = {};
    for (const { name, optional, defaulted, list } of members) {
      const value = Object.hasOwn(args, name) ? args[name] : undefined;
      if (value === undefined) {
        if (defaulted) parsed[name] = defaulted.defaultValue;
        else if (!optional) return undefined; // the check requires it: not reached
        continue;
      }
      parsed[name] = list ? (value as unknown[]).slice() : value;
    }
    return parsed;
  };
}
