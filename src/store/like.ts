// LIKE patterns built from what a user typed: `%` and `_` in a search are characters to find,
// not wildcards (PostgreSQL's default LIKE escape character is the backslash).

/** `text` with LIKE's wildcards and escape character escaped, so a pattern built on it matches it literally. */
export function likeLiteral(text: string): string;
export function likeLiteral(text: string | undefined): string | null;
export function likeLiteral(text: string | undefined): string | null {
  return text === undefined ? null : text.replace(/[\\%_]/g, '\\$&');
}
