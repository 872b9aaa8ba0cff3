// terminals.csv (Terminal49 coverage: FIRMS codes, nicknames, addresses) and
// terminals_smdg.csv (SMDG codes and positions) → one terminal list.
//
// The two files describe many of the same terminals under differently written names
// ("Seagirt Terminal" / "SEAGIRT MARINE TERMINAL"). A pair is merged only when that is
// plain: same port and either the Terminal49 id is the port code plus the SMDG code, or
// exactly one unclaimed SMDG terminal of the port shares a normalised name. Anything
// less certain is kept as two terminals, which is harmless; a wrong merge is not.
import { parseCsv, type CsvRecord, numberOrNull, textOrNull } from './csv.ts';
import { stableId } from './ids.ts';
import type { LocationRow, TerminalRow } from './types.ts';

// Words that say "this is a terminal" rather than which one.
const GENERIC_WORDS = new Set(['TERMINAL', 'TERMINALS', 'CONTAINER', 'CONTAINERS', 'MARINE', 'PORT', 'OF', 'THE', 'DE', 'AND']);

const words = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);

/**
 * Order-free key of a name's distinctive words. The port's own name is dropped too
 * (SMDG often appends it: "APM TERMINALS MOBILE"), unless nothing else is left
 * ("New Orleans Terminal").
 */
function nameKey(text: string, portWords: Set<string>): string {
  const distinctive = words(text).filter((w) => !GENERIC_WORDS.has(w));
  const withoutPort = distinctive.filter((w) => !portWords.has(w));
  return [...new Set(withoutPort.length ? withoutPort : distinctive)].sort().join(' ');
}

/** Keys of the text outside parentheses and of each parenthesis ("(WBCT)", "(Matson)"). */
function nameKeys(names: string[], portWords: Set<string>): Set<string> {
  const keys = new Set<string>();
  for (const name of names) {
    const parts = [name.replace(/\([^)]*\)/g, ' '), ...[...name.matchAll(/\(([^)]*)\)/g)].map((m) => m[1])];
    for (const part of parts) {
      const key = nameKey(part, portWords);
      if (key) keys.add(key);
    }
  }
  return keys;
}

interface Candidate {
  record: CsvRecord;
  port: LocationRow;
  keys: Set<string>;
}

function candidates(rows: CsvRecord[], portColumn: string, nameColumns: string[], ports: Map<string, LocationRow>): Candidate[] {
  const out: Candidate[] = [];
  for (const record of rows) {
    const port = ports.get(record[portColumn]);
    if (!port) continue; // e.g. USPOT, which is not a UN/LOCODE
    const portWords = new Set(words(port.name));
    out.push({ record, port, keys: nameKeys(nameColumns.map((c) => record[c]).filter(Boolean), portWords) });
  }
  return out;
}

const sharesKey = (a: Candidate, b: Candidate): boolean => [...a.keys].some((k) => b.keys.has(k));

/** Pairs each Terminal49 row with at most one SMDG row and vice versa. */
function pairUp(t49: Candidate[], smdg: Candidate[]): Map<Candidate, Candidate> {
  const smdgByPort = new Map<string, Candidate[]>();
  for (const s of smdg) smdgByPort.set(s.port.locode, [...(smdgByPort.get(s.port.locode) ?? []), s]);

  // Rows from the current coverage list choose first: where it and the older list give
  // the same terminal under two FIRMS codes, the current code gets the SMDG data.
  const current = (t: Candidate) => t.record.sources.split('|').includes('T49COV');
  const ordered = [...t49.filter(current), ...t49.filter((t) => !current(t))];

  const pairs = new Map<Candidate, Candidate>();
  const claimed = new Set<Candidate>();
  for (const t of ordered) {
    const open = (smdgByPort.get(t.port.locode) ?? []).filter((s) => !claimed.has(s));
    const byCode = open.find((s) => t.record.code === t.port.locode + s.record['Terminal Code']);
    const byName = open.filter((s) => sharesKey(t, s));
    const match = byCode ?? (byName.length === 1 ? byName[0] : undefined);
    if (match) {
      pairs.set(t, match);
      claimed.add(match);
    }
  }
  return pairs;
}

export function parseTerminals(terminalsCsv: string, smdgCsv: string, locations: LocationRow[]): TerminalRow[] {
  const ports = new Map(locations.map((l) => [l.locode, l]));
  const t49 = candidates(parseCsv(terminalsCsv), 'port_unlocode', ['terminal_name', 'nickname'], ports);
  const smdg = candidates(parseCsv(smdgCsv), 'UNLOCODE', ['Terminal Facility Name'], ports);
  const pairs = pairUp(t49, smdg);
  const paired = new Set(pairs.values());

  const rows: TerminalRow[] = [];
  for (const t of t49) {
    const s = pairs.get(t)?.record;
    const r = t.record;
    // Canadian and Mexican codes in terminals.csv are unconfirmed sub-location numbers,
    // and the others are Terminal49's own ids; only CBP FIRMS codes are FIRMS codes.
    const firms = r.code_type === 'US_FIRMS' ? r.code : null;
    const smdgCode = s ? s['Terminal Code'] : null;
    rows.push({
      id: stableId('terminal', `${t.port.locode}:${firms ?? smdgCode ?? r.terminal_name}`),
      name: r.terminal_name,
      nickname: textOrNull(r.nickname),
      firms_code: firms,
      smdg_code: smdgCode,
      city: textOrNull(r.city),
      state_abbr: textOrNull(r.state),
      country: r.country || t.port.country_code,
      port_id: t.port.id,
      latitude: s ? numberOrNull(s.Latitude) : null,
      longitude: s ? numberOrNull(s.Longitude) : null,
    });
  }
  for (const s of smdg) {
    if (paired.has(s)) continue;
    const r = s.record;
    rows.push({
      id: stableId('terminal', `${s.port.locode}:${r['Terminal Code']}`),
      name: r['Terminal Facility Name'],
      nickname: null,
      firms_code: null,
      smdg_code: r['Terminal Code'],
      city: null,
      state_abbr: s.port.state_abbr,
      country: s.port.country_code,
      port_id: s.port.id,
      latitude: numberOrNull(r.Latitude),
      longitude: numberOrNull(r.Longitude),
    });
  }
  return dropRepeatedIds(rows);
}

// Two rows naming the same terminal by the same key would make the upsert fail; the
// first one wins. The shipped files contain no such pair (see parse.test.ts).
function dropRepeatedIds(rows: TerminalRow[]): TerminalRow[] {
  const byId = new Map<string, TerminalRow>();
  for (const r of rows) if (!byId.has(r.id)) byId.set(r.id, r);
  return [...byId.values()];
}
