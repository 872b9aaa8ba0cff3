// The value rules: what each data type accepts, the canonical form it is stored and served in, the
// text keys list filters compare (one per value, one per option of an enum_multi), and how it is
// displayed. Problems say where inside the value they are, so the API can point at them.
import { canonicalDecimal } from './decimal.ts';
import { displayDatetime, parseDate, parseDatetime } from './dates.ts';
import { userPattern } from './pattern.ts';
import { MAX_SHORT_TEXT } from './validation.ts';
import type { FieldDefinition, FieldOption, ReferenceValue, ValueProblem } from './types.ts';
import { isProblem, isWellFormed } from './types.ts';

/** A value as stored: its canonical form (null for none), its filter keys, and the record a reference names. */
export interface ParsedValue {
  value: unknown;
  keys: string[];
  reference?: ReferenceValue;
}

const problem = (text: string, code = 'invalid', at: (string | number)[] = []): ValueProblem => ({ problem: text, code, at });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const quoted = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** Nothing given: null, an empty (or blank) string, an empty list. */
const isEmpty = (input: unknown) => input === null || (typeof input === 'string' && input.trim() === '') || (Array.isArray(input) && input.length === 0);

function optionOf(options: readonly FieldOption[], input: unknown, at: (string | number)[]): FieldOption | ValueProblem {
  if (typeof input !== 'string') return problem('must be the value of one of the options (a string).', 'invalid', at);
  const option = options.find((o) => o.value === input);
  if (option) return option;
  const known = options.map((o) => quoted(o.value)).join(', ');
  return problem(`${quoted(input)} is not an option of this field; ${known ? `its options are ${known}` : 'it has no options yet (POST …/options)'}.`, 'not_an_option', at);
}

function shortText(def: FieldDefinition, input: unknown): ParsedValue | ValueProblem {
  if (typeof input !== 'string') return problem('must be a string.');
  if (!isWellFormed(input)) return problem('must be valid Unicode text (it holds a lone surrogate).');
  const text = input.trim();
  const v = def.validation ?? {};
  const max = Math.min(v.max_length ?? MAX_SHORT_TEXT, MAX_SHORT_TEXT);
  if (text.length > max) return problem(`is ${text.length} characters long; at most ${max} are allowed.`, 'too_long');
  if (v.min_length !== undefined && text.length < v.min_length) return problem(`is ${text.length} characters long; at least ${v.min_length} are required.`, 'too_short');
  if (v.pattern !== undefined) {
    const pattern = userPattern(v.pattern);
    // A pattern stored before svc ran patterns in linear time may be one it no longer runs: the
    // value is refused (not checked by a backtracking engine) until the field's pattern is redefined.
    if (pattern instanceof Error) return problem(`cannot be checked: the field's pattern ${v.pattern} is no longer supported (${pattern.message}); redefine validation.pattern.`, 'unsupported_pattern');
    if (!pattern.test(text)) return problem(`${quoted(text)} does not match the pattern ${v.pattern}.`, 'pattern_mismatch');
  }
  return { value: text, keys: [text] };
}

function number(def: FieldDefinition, input: unknown): ParsedValue | ValueProblem {
  const parsed = canonicalDecimal(input);
  if ('problem' in parsed) return problem(parsed.problem);
  const n = Number(parsed.text);
  const { min, max } = def.validation ?? {};
  if (min !== undefined && n < min) return problem(`must be at least ${min}.`, 'too_small');
  if (max !== undefined && n > max) return problem(`must be at most ${max}.`, 'too_big');
  return { value: n, keys: [parsed.text] };
}

function date(def: FieldDefinition, input: unknown): ParsedValue | ValueProblem {
  const day = typeof input === 'string' ? parseDate(input, def.default_format) : undefined;
  if (!day) return problem(`must be a date as YYYY-MM-DD${def.default_format ? ` or ${def.default_format}` : ''}.`);
  return { value: day, keys: [day] };
}

function datetime(input: unknown): ParsedValue | ValueProblem {
  const instant = typeof input === 'string' ? parseDatetime(input) : undefined;
  if (!instant) return problem('must be a date and time: ISO 8601 (2026-11-24T17:05:00Z, or with an offset) or YYYY-MM-DD HH:MM:SS in UTC.');
  return { value: instant, keys: [instant] };
}

function boolean(input: unknown): ParsedValue | ValueProblem {
  const flag = input === true || input === 'true' ? true : input === false || input === 'false' ? false : undefined;
  if (flag === undefined) return problem('must be true or false.');
  return { value: flag, keys: [String(flag)] };
}

function enumMulti(options: readonly FieldOption[], input: unknown): ParsedValue | ValueProblem {
  // The reference stores these comma-separated, and accepts them so too.
  const items = typeof input === 'string' ? input.split(',').map((s) => s.trim()).filter(Boolean) : input;
  if (!Array.isArray(items)) return problem('must be a list of option values.');
  const values: string[] = [];
  for (const [i, item] of items.entries()) {
    const option = optionOf(options, item, typeof input === 'string' ? [] : [i]);
    if (isProblem(option)) return option;
    if (!values.includes(option.value)) values.push(option.value);
  }
  return { value: values, keys: values };
}

function reference(def: FieldDefinition, input: unknown): ParsedValue | ValueProblem {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return problem(`must be an object {type, id} naming a ${def.reference_type}.`);
  const { type, id } = input as Record<string, unknown>;
  if (type !== def.reference_type) return problem(`type must be ${quoted(def.reference_type ?? '')}: this field refers to a ${def.reference_type}.`, 'invalid', ['type']);
  if (typeof id !== 'string' || !UUID.test(id)) return problem('id must be the id (a uuid) of the record referred to.', 'invalid', ['id']);
  const ref = { type: def.reference_type!, id: id.toLowerCase() };
  return { value: ref, keys: [`${ref.type}:${ref.id}`], reference: ref };
}

/**
 * `input` under `def`'s rules, as stored; or the first problem. Null (and an empty string or list)
 * is no value, refused only when the definition has validation.required.
 */
export function parseValue(def: FieldDefinition, options: readonly FieldOption[], input: unknown): ParsedValue | ValueProblem {
  if (input === undefined || isEmpty(input)) {
    return def.validation?.required ? problem("can't be blank: this field is required.", 'blank') : { value: null, keys: [] };
  }
  switch (def.data_type) {
    case 'short_text':
      return shortText(def, input);
    case 'number':
      return number(def, input);
    case 'date':
      return date(def, input);
    case 'datetime':
      return datetime(input);
    case 'boolean':
      return boolean(input);
    case 'enum': {
      const option = optionOf(options, input, []);
      return isProblem(option) ? option : { value: option.value, keys: [option.value] };
    }
    case 'enum_multi':
      return enumMulti(options, input);
    case 'reference':
      return reference(def, input);
  }
}

/**
 * The filter key of one value given as query text (`filter[custom_fields][slug]=…`): the key the
 * value is stored under, so that an enum_multi matches when it holds that option.
 */
export function filterKey(def: FieldDefinition, options: readonly FieldOption[], text: string): string | ValueProblem {
  const input = def.data_type === 'reference' ? { type: def.reference_type, id: text } : def.data_type === 'enum_multi' ? [text] : text;
  const parsed = parseValue({ ...def, validation: null }, options, input);
  if (isProblem(parsed)) return parsed;
  return parsed.keys[0] ?? '';
}

/**
 * How a stored value reads to people: dates as YYYY-MM-DD, datetimes as YYYY-MM-DD HH:MM:SS
 * (UTC), booleans as Yes/No, options by label, a reference by `label` (its record's number or
 * name) when known. Null for no value.
 */
export function displayValue(def: FieldDefinition, options: readonly FieldOption[], value: unknown, label?: string): string | null {
  if (value === null || value === undefined) return null;
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  switch (def.data_type) {
    case 'datetime':
      return displayDatetime(String(value));
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'number':
      return canonicalText(value);
    case 'enum':
      return labelOf(String(value));
    case 'enum_multi':
      return (value as string[]).map(labelOf).join(', ');
    case 'reference':
      return label ?? (value as ReferenceValue).id;
    default:
      return String(value);
  }
}

const canonicalText = (value: unknown): string => {
  const parsed = canonicalDecimal(value);
  return 'text' in parsed ? parsed.text : String(value);
};
