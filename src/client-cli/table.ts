// Records as an aligned text table, for every command that lists things (svc accounts list and
// svc containers list alike). It lives with the client commands because they may import nothing
// of svc outside their own folder, the SDK and the domain; the operator commands import it here.

/** One header line of the first row's keys, a line per row; `-` for null or missing values. */
export function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)\n';
  const cols = Object.keys(rows[0]);
  const cell = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? '-' : String(v));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join('\n') + '\n';
}
