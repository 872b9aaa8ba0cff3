// Small helpers shared by the per-dataset parsers.
import { parse } from 'csv-parse/sync';

export type CsvRecord = Record<string, string>;

export interface CsvTable {
  /** Index of each header name within a row. */
  columns: Record<string, number>;
  rows: string[][];
}

/**
 * Rows as arrays, for ports.csv: building a keyed object per row (or letting csv-parse
 * do it with `columns: true`) makes its 22k rows take noticeably longer to read.
 */
export function parseCsvTable(text: string): CsvTable {
  const [header = [], ...rows] = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
  return { columns: Object.fromEntries(header.map((name, i) => [name, i])), rows };
}

/** Records keyed by header name, cells trimmed; for the small files. */
export function parseCsv(text: string): CsvRecord[] {
  const { columns, rows } = parseCsvTable(text);
  const names = Object.keys(columns);
  return rows.map((cells) => Object.fromEntries(names.map((name) => [name, (cells[columns[name]] ?? '').trim()])));
}

export const textOrNull = (value: string | undefined): string | null => (value ? value : null);

/** The data files write flags as 1/0; carrier_tracking_support.csv as true/false. */
export const isTrue = (value: string | undefined): boolean => value === '1' || value === 'true';

export function numberOrNull(value: string | undefined): number | null {
  if (!value) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** `|`-separated list cells, e.g. `MEDU|MSCU`. */
export const splitList = (value: string | undefined): string[] => (value ? value.split('|').map((s) => s.trim()).filter(Boolean) : []);
