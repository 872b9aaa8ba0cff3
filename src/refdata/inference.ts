// carriers.csv + container_prefixes.csv → the carrier inference catalogue. Read once per process,
// at the first inference, and kept in memory: inferring never touches the database.
import { readFileSync } from 'node:fs';
import { buildCatalogue, type CarrierRecord, type Catalogue, type CatalogueInput, type OwnerLevel, type OwnerPrefixRecord } from '../domain/inference/catalogue.ts';
import { documentedShape, SVC_SHAPES, type Charset, type NumberShape } from '../domain/inference/shapes.ts';
import { parseCsv, splitList, textOrNull } from './csv.ts';
import { parseAltScacs } from './shipping-lines.ts';

const REFDATA_DIR = new URL('../../refdata/', import.meta.url);
export const INFERENCE_FILES = ['carriers.csv', 'container_prefixes.csv'] as const;

/**
 * The fields the `uncertain` cell doubts: `scac (sources disagree…)`, `bl_prefixes`, `all fields`,
 * `scac; container_prefixes unknown`. Each `;` part opens with a field name.
 */
export function parseUncertain(cell: string): CarrierRecord['uncertain'] {
  const fields = new Set(cell.split(';').map((part) => /^\s*([a-z_]+)/.exec(part)?.[1]).filter(Boolean));
  const all = fields.has('all');
  return { scac: all || fields.has('scac'), blPrefixes: all || fields.has('bl_prefixes') };
}

/**
 * The number shape a carrier's note documents, e.g. "Maersk B/L numbers are usually 9 digits",
 * "MSC B/L numbers commonly MEDU + 7 alphanumerics".
 */
export function parseShapeNote(carrierKey: string, note: string): NumberShape | null {
  const m = /B\/L numbers (?:are )?(?:usually |commonly )?(?:([A-Z]{4}) \+ )?(\d{1,2}) (digits|alphanumerics)/.exec(note);
  return m ? documentedShape(carrierKey, m[1] ?? null, Number(m[2]), m[3] as Charset) : null;
}

const LEVELS = new Set<string>(['high', 'medium', 'low']);

export function parseInferenceData(carriersCsv: string, prefixesCsv: string): CatalogueInput {
  const carriers: CarrierRecord[] = [];
  const shapes: NumberShape[] = [];
  for (const r of parseCsv(carriersCsv)) {
    carriers.push({
      key: r.key,
      name: r.name,
      group: textOrNull(r.group),
      scac: textOrNull(r.scac),
      altScacs: parseAltScacs(r.alt_scacs).filter((code) => code !== r.scac),
      blPrefixes: splitList(r.bl_prefixes),
      uncertain: parseUncertain(r.uncertain),
    });
    const shape = parseShapeNote(r.key, r.notes);
    if (shape) shapes.push(shape);
  }
  const ownerPrefixes: OwnerPrefixRecord[] = parseCsv(prefixesCsv).map((r) => {
    if (!LEVELS.has(r.confidence)) throw new Error(`container_prefixes.csv: ${r.prefix} has confidence '${r.confidence}' (high, medium or low)`);
    return {
      prefix: r.prefix,
      carrierKey: r.carrier_key === 'LESSOR' ? null : r.carrier_key,
      brandHint: textOrNull(r.brand_hint),
      level: r.confidence as OwnerLevel,
      bicOwner: r.bic_owner,
    };
  });
  return { carriers, ownerPrefixes, shapes: [...shapes, ...SVC_SHAPES] };
}

export function readInferenceCatalogue(dir: URL = REFDATA_DIR): Catalogue {
  const [carriers, prefixes] = INFERENCE_FILES.map((f) => readFileSync(new URL(f, dir), 'utf8'));
  return buildCatalogue(parseInferenceData(carriers, prefixes));
}

let shared: Catalogue | undefined;

/** The process's catalogue, built from refdata/ at the first call (a few milliseconds). */
export function inferenceCatalogue(): Catalogue {
  return (shared ??= readInferenceCatalogue());
}
