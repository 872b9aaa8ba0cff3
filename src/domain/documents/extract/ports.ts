// Ports as documents write them: "ROTTERDAM, NL", "Port of Rotterdam", "Shanghai, China",
// "Rotterdam (NLRTM)", "NLRTM". The index is built from svc's port reference data (the adapter
// reads refdata/ports.csv) and answers with a UN/LOCODE and svc's name for the port.

export interface PortRecord {
  locode: string;
  name: string;
  /** Other names of the port (alt_names, the ASCII spelling). */
  altNames: string[];
  countryCode: string;
  isSeaport: boolean;
  /** World Port Index harbour size, when known: Large, Medium, Small, Very Small. */
  harborSize: string | null;
  /** For the old codes carriers still write (CNSHA): the current row they repeat. */
  aliasOf: string | null;
}

export interface ResolvedPort {
  locode: string;
  name: string;
}

export interface PortIndex {
  byLocode: ReadonlyMap<string, PortRecord>;
  byName: ReadonlyMap<string, PortRecord[]>;
  /** Lower-case country names (English) and codes → ISO country code. */
  countries: ReadonlyMap<string, string>;
}

// English names documents use for ports that UN/LOCODE writes in the local language.
const EXONYMS: Readonly<Record<string, string>> = {
  antwerp: 'antwerpen', genoa: 'genova', gothenburg: 'goteborg', 'nhava sheva': 'jawaharlal nehru',
  'saigon': 'ho chi minh city', 'port said east': 'port said', leghorn: 'livorno', naples: 'napoli',
};

const SIZE_RANK: Readonly<Record<string, number>> = { Large: 4, Medium: 3, Small: 2, 'Very Small': 1 };

/** Lower case, no accents, no punctuation but blanks: "Göteborg." → "goteborg". */
export const nameKey = (name: string): string =>
  name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** A row's names: "Port Klang (Pelabuhan Klang)" is also "Port Klang" and "Pelabuhan Klang". */
function namesOf(record: PortRecord): string[] {
  const names = new Set<string>();
  for (const full of [record.name, ...record.altNames]) {
    names.add(nameKey(full));
    const m = /^(.*?)\s*\((.*)\)\s*$/.exec(full);
    if (m) for (const part of [m[1], m[2]]) names.add(nameKey(part));
  }
  names.delete('');
  return [...names];
}

/** Better first: carriers' codes (alias rows), seaports, bigger harbours. */
const rank = (r: PortRecord): number => (r.aliasOf ? 100 : 0) + (r.isSeaport ? 10 : 0) + (r.harborSize ? SIZE_RANK[r.harborSize] ?? 0 : 0);

export function buildPortIndex(records: Iterable<PortRecord>, countryNames: Iterable<[string, string]>): PortIndex {
  const byLocode = new Map<string, PortRecord>();
  const byName = new Map<string, PortRecord[]>();
  for (const r of records) {
    byLocode.set(r.locode, r);
    for (const key of namesOf(r)) {
      const list = byName.get(key);
      if (list) list.push(r);
      else byName.set(key, [r]);
    }
  }
  for (const list of byName.values()) list.sort((a, b) => rank(b) - rank(a));
  const countries = new Map<string, string>();
  for (const [code, name] of countryNames) {
    countries.set(nameKey(name), code);
    countries.set(code.toLowerCase(), code);
  }
  return { byLocode, byName, countries };
}

const resolved = (r: PortRecord): ResolvedPort => ({ locode: r.locode, name: r.name });

/** Where a port's name ends in running text: a date, a bracket, another clause. */
const NAME_END = /\s+(?:on|via|by|and|with|for|at|eta|etd|in|from|to)\b|[;([\t]|\s{2,}|\.(?:\s|$)|\s+\d/i;
const LOCODE_IN_BRACKETS = /^\s*\(\s*([A-Z]{2})\s?([A-Z2-9]{3})\s*\)/;
const LOCODE_TOKEN = /(?<![A-Z0-9])([A-Z]{2})\s?([A-Z2-9]{3})(?![A-Z0-9])/g;

function byName(index: PortIndex, name: string, country: string | null): PortRecord | null {
  let key = nameKey(name).replace(/^(?:port of|the port of|port)\s+/, '');
  key = EXONYMS[key] ?? key;
  const rows = index.byName.get(key) ?? index.byName.get(`port ${key}`);
  if (!rows) return null;
  return country ? rows.find((r) => r.countryCode === country) ?? null : rows[0];
}

/** The port a label's value names, or null. */
export function resolvePort(index: PortIndex, raw: string): ResolvedPort | null {
  const head = raw.split(NAME_END)[0];
  // "Rotterdam (NLRTM)": the code in brackets right after the name, not one further on.
  const bracketed = LOCODE_IN_BRACKETS.exec(raw.slice(head.length));
  const fromBracket = bracketed && index.byLocode.get(bracketed[1] + bracketed[2]);
  if (fromBracket) return resolved(fromBracket);
  const text = head.trim();
  const whole = index.byLocode.get(text.replace(/\s/g, ''));
  if (whole && /^[A-Z]{2}\s?[A-Z2-9]{3}$/.test(text)) return resolved(whole);
  // "Rotterdam, NL", "Shanghai, China", "Rotterdam NL": a name, then maybe a country.
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length > 0) {
    const last = parts.length > 1 ? index.countries.get(nameKey(parts[parts.length - 1])) : undefined;
    const name = last ? parts.slice(0, -1).join(', ') : parts.join(', ');
    // "Los Angeles, CA, USA": the name is the first part when the whole is not one.
    const found = byName(index, name, last ?? null) ?? byName(index, parts[0], last ?? null);
    if (found) return resolved(found);
    // "Rotterdam NL" without the comma.
    const words = name.split(/\s+/);
    const tail = words.length > 1 ? index.countries.get(words[words.length - 1].toLowerCase()) : undefined;
    const spaced = tail ? byName(index, words.slice(0, -1).join(' '), tail) : null;
    if (spaced) return resolved(spaced);
  }
  for (const m of text.matchAll(LOCODE_TOKEN)) {
    const r = index.byLocode.get(m[1] + m[2]);
    if (r) return resolved(r);
  }
  return null;
}
