// The labelled set carrier inference is scored on (test/fixtures/inference-labelled.csv), built
// from the data files alone and deterministically (a seeded generator), so the committed file is
// exactly what this script writes:
//
//   node --import tsx scripts/inference-labelled-set.ts      # rewrites the fixture
//
// Labels say which line can track each number, by the rules the data files state: an owner
// prefix names its line (a brand's box registered to its group's main line names the main line),
// a leasing company's box names none, a number opening with a line's B/L prefix or SCAC is that
// line's, a bare number of a line's documented shape is that line's. Numbers are written as users
// paste them (case, blanks, dashes, labels), with typos, and mixed with numbers of lines whose
// numbering is not documented and with garbage, which is where a guess would go wrong.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Prng } from '../src/sandbox/prng.ts';
import type { LabelledNumber } from '../src/domain/inference/evaluation.ts';
import { checkDigit } from '../src/domain/inference/iso6346.ts';
import type { NumberType } from '../src/domain/inference/types.ts';
import { parseCsv, splitList } from '../src/refdata/csv.ts';
import { parseShapeNote } from '../src/refdata/inference.ts';
import { parseAltScacs } from '../src/refdata/shipping-lines.ts';

export const FIXTURE = new URL('../test/fixtures/inference-labelled.csv', import.meta.url);
const REFDATA = new URL('../refdata/', import.meta.url);

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function buildLabelledSet(carriersCsv: string, prefixesCsv: string): LabelledNumber[] {
  const prng = new Prng('svc carrier inference labelled set', 'v1');
  const carriers = parseCsv(carriersCsv);
  const prefixes = parseCsv(prefixesCsv);
  const byKey = new Map(carriers.map((c) => [c.key, c]));
  const scacOf = (key: string) => byKey.get(key)?.scac || null;
  const rows: LabelledNumber[] = [];
  const push = (category: string, input: string, scac: string | null, numberType: NumberType | null) => rows.push({ category, input, scac, numberType });

  const digits = (n: number, first = '0123456789') => {
    let out = first[prng.int(0, first.length - 1)];
    while (out.length < n) out += String(prng.int(0, 9));
    return out;
  };
  const letters = (n: number) => Array.from({ length: n }, () => prng.pick([...LETTERS])).join('');
  const container = (prefix: string) => {
    const ten = prefix + digits(6);
    return ten + String(checkDigit(ten));
  };
  /** A container number as people write it. */
  const writeContainer = (n: string) =>
    prng.pick([
      n,
      n.toLowerCase(),
      `${n.slice(0, 4)} ${n.slice(4, 10)} ${n[10] ?? ''}`.trim(),
      `${n.slice(0, 4)}-${n.slice(4, 10)}-${n[10] ?? ''}`.replace(/-$/, ''),
      `${n.slice(0, 4)} ${n.slice(4)}`,
      `Container: ${n}`,
    ]);
  /** A prefixed B/L as people write it. */
  const writeBl = (code: string, rest: string) =>
    prng.pick([code + rest, (code + rest).toLowerCase(), `${code} ${rest}`, `${code}-${rest}`, `B/L: ${code}${rest}`, `BL No. ${code}${rest}`]);

  // The line each owner prefix names: a brand's box registered to its group's main line (the one
  // line of the group whose own, non-brand boxes have the same BIC owner) names the main line.
  const operatorScac = (row: Record<string, string>): string | null => {
    if (row.carrier_key === 'LESSOR') return null;
    if (row.brand_hint) {
      const group = byKey.get(row.carrier_key)?.group;
      const mains = new Set(
        prefixes
          .filter((r) => r.carrier_key !== 'LESSOR' && r.carrier_key !== row.carrier_key && !r.brand_hint && r.confidence === 'high' && r.bic_owner === row.bic_owner)
          .filter((r) => byKey.get(r.carrier_key)?.group === group)
          .map((r) => r.carrier_key),
      );
      if (mains.size === 1) return scacOf([...mains][0]);
    }
    return scacOf(row.carrier_key);
  };

  // Containers of every owner prefix.
  for (const row of prefixes) {
    const scac = operatorScac(row);
    let category: string;
    if (row.carrier_key === 'LESSOR') category = 'container_lessor';
    else if (!scacOf(row.carrier_key)) category = 'container_line_without_scac';
    else if (row.confidence === 'low') category = 'container_lessor_of_a_line';
    else if (row.confidence === 'medium') category = 'container_legacy_or_affiliate';
    else if (scac !== scacOf(row.carrier_key)) category = 'container_brand';
    else category = 'container_own';
    const count = category === 'container_lessor' ? 3 : 6;
    for (let i = 0; i < count; i++) push(category, writeContainer(container(row.prefix)), scac, 'container');
    if (row.carrier_key === 'LESSOR' || !scac) continue;
    // Typos: a wrong check digit; every third prefix also a number without its check digit.
    const good = container(row.prefix);
    const wrong = good.slice(0, 10) + String((Number(good[10]) + prng.int(1, 9)) % 10);
    push('container_typo', writeContainer(wrong), scac, 'container');
    if (prng.chance(1 / 3)) push('container_typo', writeContainer(good.slice(0, 10)), scac, 'container');
    // Detachable equipment and chassis of the same owner: not tracked by lines.
    if (prng.chance(0.15)) push('container_other_equipment', container(row.prefix.slice(0, 3) + prng.pick(['J', 'Z'])), null, 'container');
  }

  // Containers of owners nobody knows here (not an owner prefix, B/L prefix or SCAC of the data).
  const known = new Set([...prefixes.map((r) => r.prefix), ...carriers.flatMap((c) => [c.scac, ...splitList(c.bl_prefixes), ...parseAltScacs(c.alt_scacs)])]);
  for (let i = 0; i < 150; ) {
    const prefix = letters(3) + 'U';
    if (known.has(prefix)) continue;
    push('container_unknown_owner', writeContainer(container(prefix)), null, 'container');
    i++;
  }

  // Bills of lading opening with a B/L prefix, the SCAC or another SCAC of their line.
  const shapes = carriers.map((c) => parseShapeNote(c.key, c.notes)).filter((s) => s !== null);
  const generic = () =>
    prng.pick([() => digits(10, '123456789'), () => letters(3) + digits(7), () => letters(2) + digits(8), () => letters(1) + digits(9), () => digits(12, '123456789')])();
  for (const c of carriers) {
    if (!c.scac) continue;
    const codes = new Map<string, string>();
    for (const code of parseAltScacs(c.alt_scacs)) codes.set(code, 'bl_other_scac_prefix');
    codes.set(c.scac, 'bl_scac_prefix');
    for (const code of splitList(c.bl_prefixes)) codes.set(code, 'bl_documented_prefix');
    for (const [code, category] of codes) {
      const shape = shapes.find((s) => s.carrierKey === c.key && (s.prefix === null || s.prefix === code));
      for (let i = 0; i < 4; i++) {
        let rest = generic();
        if (shape) {
          const length = Number(/\{(\d+)\}/.exec(shape.pattern.source)![1]);
          rest = shape.pattern.source.includes('\\d') ? digits(length) : letters(prng.int(1, 2)) + digits(length);
          rest = rest.slice(0, length);
        }
        push(category, writeBl(code, rest), c.scac, 'bill_of_lading');
      }
    }
  }

  // Bare numbers: the documented shapes (Maersk 9 digits, Evergreen 12)…
  for (const shape of shapes) {
    if (shape.where !== 'both') continue;
    const length = Number(/\{(\d+)\}/.exec(shape.pattern.source)![1]);
    for (let i = 0; i < 60; i++) push('bare_documented_shape', digits(length, '123456789'), scacOf(shape.carrierKey), 'bill_of_lading');
  }
  // …svc's booking conventions (Hapag-Lloyd 8 digits, COSCO and OOCL 10, CMA CGM 3 letters + 7)…
  for (let i = 0; i < 25; i++) {
    push('bare_svc_convention', digits(8, '123456789'), scacOf('HAPAG'), 'booking');
    push('bare_svc_convention', digits(10, '123456789'), scacOf('COSCO'), 'booking');
    push('bare_svc_convention', digits(10, '123456789'), scacOf('OOCL'), 'booking');
    push('bare_svc_convention', letters(3) + digits(7), scacOf('CMACGM'), 'booking');
  }
  // …and bare numbers of the other lines, whose numbering nobody documents: the confusers.
  const others = carriers.filter((c) => c.scac && !shapes.some((s) => s.carrierKey === c.key) && !['HAPAG', 'COSCO', 'OOCL', 'CMACGM'].includes(c.key));
  for (let i = 0; i < 300; i++) {
    const c = prng.pick(others);
    const number = prng.pick([() => digits(prng.int(8, 12), '123456789'), () => letters(3) + digits(7), () => letters(2) + digits(8), () => letters(1) + digits(prng.int(8, 10))])();
    push('bare_other_lines', number, c.scac, prng.pick<NumberType>(['booking', 'bill_of_lading']));
  }

  // Garbage: no line can be named for any of these.
  const words = ['INVOICE', 'PO', 'ORDER', 'REF', 'QUOTE', 'TICKET', 'CASE', 'SKU', 'ITEM', 'PALLET'];
  for (let i = 0; i < 150; i++) {
    const n = prng.int(5, 20);
    let s = '';
    while (s.length < n) s += prng.chance(0.5) ? letters(1) : String(prng.int(0, 9));
    if (!/\d/.test(s)) s += String(prng.int(0, 9));
    push('garbage', s, null, null);
  }
  for (let i = 0; i < 100; i++) {
    push('garbage', prng.pick([
      () => `${prng.pick(words)}-${prng.int(2020, 2027)}-${digits(4)}`,
      () => `${prng.pick(words)} ${digits(prng.int(4, 7))}`,
      () => `${prng.pick(words)}#${digits(prng.int(3, 8))}`,
      () => `${prng.int(2020, 2027)}-${String(prng.int(1, 12)).padStart(2, '0')}-${String(prng.int(1, 28)).padStart(2, '0')}`,
      () => `+${prng.int(1, 99)} ${digits(3)} ${digits(3)} ${digits(4)}`,
      () => `${letters(prng.int(3, 8)).toLowerCase()}@example.com`,
    ])(), null, null);
  }
  for (const s of ['hello', 'n/a', '???', 'TBD', 'see attached', '0', '12', 'ABC', '-', '🚢🚢🚢', 'MAEU', 'container']) push('garbage', s, null, null);
  return rows;
}

const cell = (value: string): string => (/[",\n\r]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export function toCsv(rows: readonly LabelledNumber[]): string {
  return ['category,input,scac,number_type', ...rows.map((r) => [r.category, r.input, r.scac ?? '', r.numberType ?? ''].map(cell).join(','))].join('\n') + '\n';
}

export function fromCsv(text: string): LabelledNumber[] {
  return parseCsv(text).map((r) => ({ category: r.category, input: r.input, scac: r.scac || null, numberType: (r.number_type || null) as NumberType | null }));
}

/** The set as this script builds it from refdata/ now. */
export function labelledSetCsv(): string {
  const read = (f: string) => readFileSync(new URL(f, REFDATA), 'utf8');
  return toCsv(buildLabelledSet(read('carriers.csv'), read('container_prefixes.csv')));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const csv = labelledSetCsv();
  writeFileSync(FIXTURE, csv);
  process.stdout.write(`wrote ${csv.split('\n').length - 2} labelled numbers to test/fixtures/inference-labelled.csv\n`);
}
