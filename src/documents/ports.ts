// The port index extraction resolves POL and POD against: refdata/ports.csv, read once per process.
import { readFileSync } from 'node:fs';
import { buildPortIndex, type PortIndex, type PortRecord } from '../domain/documents/extract/ports.ts';
import { isTrue, parseCsvTable, textOrNull } from '../refdata/csv.ts';

const PORTS_CSV = new URL('../../refdata/ports.csv', import.meta.url);

function readPortIndex(): PortIndex {
  const { columns, rows } = parseCsvTable(readFileSync(PORTS_CSV, 'utf8'));
  const at = (row: string[], name: string) => (row[columns[name]] ?? '').trim();
  const records: PortRecord[] = rows.map((r) => ({
    locode: at(r, 'unlocode'),
    name: at(r, 'name'),
    altNames: [at(r, 'name_ascii'), ...at(r, 'alt_names').split('|')].filter(Boolean),
    countryCode: at(r, 'country'),
    isSeaport: isTrue(at(r, 'is_seaport')),
    harborSize: textOrNull(at(r, 'wpi_harbor_size')),
    aliasOf: textOrNull(at(r, 'alias_of')),
  }));
  const countries = new Set(records.map((r) => r.countryCode));
  // Made here, at the first extraction: ICU's region names cost a start that extracts nothing about 0.1 s.
  const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
  const names: [string, string][] = [...countries].map((code) => [code, regionNames.of(code) ?? code]);
  // Names documents use besides the English display names.
  names.push(['US', 'USA'], ['US', 'United States of America'], ['GB', 'UK'], ['CN', 'PR China'], ['CN', "People's Republic of China"], ['KR', 'Korea'], ['KR', 'South Korea'], ['NL', 'Holland'], ['AE', 'UAE'], ['VN', 'Viet Nam'], ['TR', 'Turkey']);
  return buildPortIndex(records, names);
}

let shared: PortIndex | undefined;

/** The process's port index, built at the first extraction (about 100 ms). */
export const portIndex = (): PortIndex => (shared ??= readPortIndex());
