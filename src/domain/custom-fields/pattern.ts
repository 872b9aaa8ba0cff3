// The `validation.pattern` of a short_text field, run by RE2 (re2js): matching takes time linear in
// the value whatever the pattern, so a value written to a field cannot hold the API's thread the way
// a backtracking engine can (`^(a|a)*$` doubles its time with each character). Patterns are written
// in JavaScript's syntax (they were checked with `new RegExp(pattern, 'u')` and matched with `.test`,
// anywhere in the value unless anchored); re2js translates that syntax to RE2's. What RE2 cannot run
// in linear time (backreferences, lookaround), and programs too big to run quickly, are refused when
// the field is defined.
import { RE2JS } from 're2js';
import { memoize } from '../memoize.ts';

export interface UserPattern {
  test(text: string): boolean;
}

/** Compiled patterns kept; past this the memo starts afresh. */
const MAX_CACHED = 1000;
/**
 * Linear time still grows with the pattern: a value is matched against every step of the compiled
 * program at once, so big counted repetitions (`(a|b|c|d){1000}`) are refused to keep one match of a
 * longest value to a small fraction of a second.
 */
const MAX_PROGRAM = 1000;

// re2js's translation reads `\k` and `\8`/`\9` as the letter or digit (as JavaScript without the
// u flag would), not as the backreference they are with it: they are refused, not reinterpreted.
const ESCAPE = /\\(.)/gsu;
const BACKREFERENCE = /^[k1-9]$/;

function compile(source: string): UserPattern | Error {
  try {
    new RegExp(source, 'u');
  } catch (err) {
    return new SyntaxError((err as Error).message);
  }
  for (const [, escaped] of source.matchAll(ESCAPE)) {
    if (BACKREFERENCE.test(escaped!)) return new Error(`backreferences (\\${escaped}) are not supported`);
  }
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (err) {
    return new Error((err as Error).message.replace(/^error parsing regexp: /, ''));
  }
  const size = (pattern.re2() as { prog?: { numInst?(): number } }).prog?.numInst?.() ?? 0;
  if (size > MAX_PROGRAM) return new Error(`it compiles to ${size} steps, more than ${MAX_PROGRAM}; large counted repetitions like {1000} are better written as max_length`);
  return pattern;
}

/**
 * The pattern, ready to test values with, or why it cannot be run (a SyntaxError when it is not a
 * regular expression at all). Compiled once per source while it is recent: every value written
 * runs its field's pattern, and crafted definitions cannot make the cache grow without end.
 */
export const userPattern: (source: string) => UserPattern | Error = memoize(compile, MAX_CACHED);
