// The `validation` object of a definition: the rules a value must pass beyond its data type.
// Every data type knows `required`; short_text adds lengths and a pattern, number bounds. A rule
// svc does not know, or one given to a data type it does not apply to, is refused rather than
// kept and ignored, so a client never believes a rule holds that does not.
import { userPattern } from './pattern.ts';
import { isWellFormed, type DataType, type Validation, type ValueProblem } from './types.ts';

export const MAX_SHORT_TEXT = 1000;
const MAX_PATTERN = 500;

const RULES: Record<DataType, readonly (keyof Validation)[]> = {
  short_text: ['required', 'max_length', 'min_length', 'pattern'],
  number: ['required', 'min', 'max'],
  date: ['required'],
  datetime: ['required'],
  boolean: ['required'],
  enum: ['required'],
  enum_multi: ['required'],
  reference: ['required'],
};

const problem = (at: string, text: string, code = 'invalid'): ValueProblem => ({ problem: text, code, at: [at] });

const isLength = (v: unknown, min: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= MAX_SHORT_TEXT;

/** The validation object as stored (null when it holds no rule), or the first thing wrong with it. */
export function checkValidation(dataType: DataType, input: Record<string, unknown> | null): Validation | null | ValueProblem {
  if (input === null) return null;
  const allowed = RULES[dataType];
  for (const [key, value] of Object.entries(input)) {
    if (!allowed.includes(key as keyof Validation)) {
      return problem(key, `validation.${key} is not a rule of ${dataType} fields; they take ${allowed.join(', ')}.`, 'unsupported');
    }
    if (key === 'required' && typeof value !== 'boolean') return problem(key, 'validation.required must be true or false.');
    if ((key === 'max_length' && !isLength(value, 1)) || (key === 'min_length' && !isLength(value, 0))) {
      return problem(key, `validation.${key} must be a whole number from ${key === 'max_length' ? 1 : 0} to ${MAX_SHORT_TEXT}.`);
    }
    if ((key === 'min' || key === 'max') && (typeof value !== 'number' || !Number.isFinite(value))) return problem(key, `validation.${key} must be a number.`);
    if (key === 'pattern') {
      if (typeof value !== 'string' || value === '' || value.length > MAX_PATTERN || !isWellFormed(value)) return problem(key, `validation.pattern must be a regular expression of 1 to ${MAX_PATTERN} characters.`);
      const pattern = userPattern(value);
      if (pattern instanceof SyntaxError) return problem(key, `validation.pattern is not a valid regular expression: ${pattern.message}`);
      // Every write runs the pattern in the API's process, so only what runs in linear time is taken.
      if (pattern instanceof Error) {
        return problem(key, `validation.pattern cannot be run in linear time (${pattern.message}); write it without backreferences or lookaround (RE2 syntax).`, 'unsupported_pattern');
      }
    }
  }
  const v = input as Validation;
  if (v.min_length !== undefined && v.max_length !== undefined && v.min_length > v.max_length) return problem('min_length', 'validation.min_length is more than validation.max_length.');
  if (v.min !== undefined && v.max !== undefined && v.min > v.max) return problem('min', 'validation.min is more than validation.max.');
  return Object.keys(input).length > 0 ? v : null;
}
