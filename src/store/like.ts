// LIKE patterns built from what a user typed: `%` and `_` in a search are characters to find,
// not wildcards (PostgreSQL's default LIKE escape character is the backslash).

/** `text` with LIKE's wildcards and escape character escaped, so a pattern built on it matches it literally. */
export function likeLiteral(text: string): string;
export function likeLiteral(text: string | undefined): string | null;
export function likeLiteral(text: string | undefined): string | null {
  return text === undefined ? null : text.replace(/[\\%_]/g, '\\$&');
}

/**
 * Numbers are written with or without dashes and spaces ("TEST-RAIL", "MSCU 123456-7"), and stored
 * as the user or carrier wrote them, so both sides are compared without case, spaces and dashes:
 * the SQL of `sql` so bared.
 */
export const bareNumber = (sql: string) => `upper(regexp_replace(${sql}, '[\\s-]', '', 'g'))`;
