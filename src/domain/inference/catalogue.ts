// The in-memory index inference reads: every owner prefix and B/L prefix with its predictions
// computed once, when the catalogue is built, so inferring a number is a few map lookups.
import { NO_PREDICTION, predict, type Line, type Weighed } from './confidence.ts';
import { BARE_WEIGHT, BRAND_ALTERNATIVE, CHECK_DIGIT_FAILED, DOCUMENTED_SHAPE, OTHER_EQUIPMENT, OWNER_LEVEL, PREFIX_LEVEL, type PrefixSource } from './evidence.ts';
import type { NumberShape } from './shapes.ts';
import type { NumberType, ShippingLinePrediction } from './types.ts';

export type OwnerLevel = keyof typeof OWNER_LEVEL;

/** A row of carriers.csv, as inference needs it. */
export interface CarrierRecord {
  key: string;
  name: string;
  group: string | null;
  /** Null for the lines with no known SCAC: they can never be a prediction. */
  scac: string | null;
  altScacs: string[];
  blPrefixes: string[];
  /** Fields the `uncertain` column doubts. */
  uncertain: { scac: boolean; blPrefixes: boolean };
}

/** A row of container_prefixes.csv. */
export interface OwnerPrefixRecord {
  /** Owner code and category, e.g. MSCU. */
  prefix: string;
  /** Null for a leasing company. */
  carrierKey: string | null;
  brandHint: string | null;
  level: OwnerLevel;
  bicOwner: string;
}

export interface CatalogueInput {
  carriers: CarrierRecord[];
  ownerPrefixes: OwnerPrefixRecord[];
  shapes: NumberShape[];
}

/** Predictions of one owner prefix, by what the rest of the number says. */
export interface OwnerEntry {
  prefix: string;
  lessor: boolean;
  /** The line the prefix maps to (after brand folding), for labels and diagnostics. */
  operatorKey: string | null;
  valid: ShippingLinePrediction;
  checkFailed: ShippingLinePrediction;
  otherEquipment: ShippingLinePrediction;
  otherEquipmentCheckFailed: ShippingLinePrediction;
}

export interface PrefixEntry {
  code: string;
  /** Documented shapes that may follow this code. */
  shapes: NumberShape[];
  /** Carrier key → the strength of this code as that line's prefix. */
  byLine: ReadonlyMap<string, number>;
  plain: ShippingLinePrediction;
  /** When the rest matches documented shapes: by the (sorted, joined) keys of their lines. */
  shaped: Map<string, ShippingLinePrediction>;
}

export interface Catalogue {
  owners: ReadonlyMap<string, OwnerEntry>;
  prefixes: ReadonlyMap<string, PrefixEntry>;
  bareShapes: readonly NumberShape[];
  /** Bare-number predictions by the ids of the shapes a number matched (a memo, filled as numbers come). */
  bare: Map<string, { prediction: ShippingLinePrediction; numberType: NumberType }>;
  lines: ReadonlyMap<string, Line>;
  /** Carrier key → line, for the lines that have a SCAC. */
  lineOf(carrierKey: string | null): Line | undefined;
}

/**
 * A brand's box registered to another line of its group (the group's main line, by the BIC owner
 * of that line's own boxes) sails under that line: APLU, ANNU, CNCU, NOLU → CMA CGM; SUDU, SEAU →
 * Maersk. Returns the operating carrier key.
 */
function operatorOf(row: OwnerPrefixRecord, rows: OwnerPrefixRecord[], carriers: Map<string, CarrierRecord>): string | null {
  if (!row.carrierKey || !row.brandHint) return row.carrierKey;
  const group = carriers.get(row.carrierKey)?.group;
  const owners = new Set(
    rows
      .filter((r) => r.carrierKey && r.carrierKey !== row.carrierKey && !r.brandHint && r.level === 'high' && r.bicOwner === row.bicOwner)
      .filter((r) => carriers.get(r.carrierKey!)?.group === group)
      .map((r) => r.carrierKey!),
  );
  return owners.size === 1 ? [...owners][0] : row.carrierKey;
}

export function buildCatalogue(input: CatalogueInput): Catalogue {
  const carriers = new Map(input.carriers.map((c) => [c.key, c]));
  const lines = new Map<string, Line>();
  for (const c of input.carriers) if (c.scac) lines.set(c.key, Object.freeze({ scac: c.scac, name: c.name }));
  const lineOf = (key: string | null) => (key ? lines.get(key) : undefined);

  const owners = new Map<string, OwnerEntry>();
  for (const row of input.ownerPrefixes) {
    const operatorKey = operatorOf(row, input.ownerPrefixes, carriers);
    const weigh = (factor: number): Weighed[] => {
      const out: Weighed[] = [];
      const operator = lineOf(operatorKey);
      if (operator) out.push({ line: operator, p: OWNER_LEVEL[row.level] * factor });
      const brand = operatorKey !== row.carrierKey ? lineOf(row.carrierKey) : undefined;
      if (brand) out.push({ line: brand, p: BRAND_ALTERNATIVE * factor });
      return out;
    };
    owners.set(row.prefix, {
      prefix: row.prefix,
      lessor: row.carrierKey === null,
      operatorKey,
      valid: predict(weigh(1)),
      checkFailed: predict(weigh(CHECK_DIGIT_FAILED)),
      otherEquipment: predict(weigh(OTHER_EQUIPMENT)),
      otherEquipmentCheckFailed: predict(weigh(OTHER_EQUIPMENT * CHECK_DIGIT_FAILED)),
    });
  }

  // B/L prefixes and SCACs: per code, the strongest reading of each line.
  const readings = new Map<string, Map<string, number>>();
  const add = (code: string, carrierKey: string, source: PrefixSource) => {
    const byLine = readings.get(code) ?? new Map<string, number>();
    byLine.set(carrierKey, Math.max(byLine.get(carrierKey) ?? 0, PREFIX_LEVEL[source]));
    readings.set(code, byLine);
  };
  for (const c of input.carriers) {
    if (!c.scac) continue;
    for (const code of c.blPrefixes) add(code, c.key, c.uncertain.blPrefixes ? 'uncertain' : 'bl');
    add(c.scac, c.key, c.uncertain.scac ? 'uncertain' : 'scac');
    for (const code of c.altScacs) add(code, c.key, c.uncertain.scac ? 'uncertain' : 'alt');
  }
  const prefixes = new Map<string, PrefixEntry>();
  for (const [code, byLine] of readings) {
    const shapes = input.shapes.filter((s) => s.source === 'carriers.csv' && s.where !== 'bare' && byLine.has(s.carrierKey) && (s.prefix === null || s.prefix === code));
    prefixes.set(code, { code, shapes, byLine, plain: predict(weighPrefix(byLine, lines, [])), shaped: new Map() });
  }

  return {
    owners,
    prefixes,
    bareShapes: input.shapes.filter((s) => s.where !== 'after_prefix' && lines.has(s.carrierKey)),
    bare: new Map(),
    lines,
    lineOf,
  };
}

/** Codes two lines share (none today) split the confidence by their relative strength. */
function weighPrefix(byLine: ReadonlyMap<string, number>, lines: ReadonlyMap<string, Line>, boosted: readonly string[]): Weighed[] {
  let total = 0;
  for (const p of byLine.values()) total += p;
  return [...byLine].map(([key, p]) => ({ line: lines.get(key)!, p: (boosted.includes(key) ? Math.max(p, DOCUMENTED_SHAPE) : p) * (byLine.size > 1 ? p / total : 1) }));
}

/** The prediction for a prefixed number whose rest matched documented shapes of `keys`' lines. */
export function shapedPrediction(catalogue: Catalogue, entry: PrefixEntry, keys: readonly string[]): ShippingLinePrediction {
  const id = keys.join(',');
  let prediction = entry.shaped.get(id);
  if (!prediction) {
    prediction = predict(weighPrefix(entry.byLine, catalogue.lines, keys));
    entry.shaped.set(id, prediction);
  }
  return prediction;
}

/** The prediction for a bare number that matched `matched` (at least one shape). */
export function barePrediction(catalogue: Catalogue, matched: NumberShape[]): { prediction: ShippingLinePrediction; numberType: NumberType } {
  const key = matched.map((s) => s.id).join(',');
  let entry = catalogue.bare.get(key);
  if (!entry) {
    const total = BARE_WEIGHT.other + matched.reduce((sum, s) => sum + BARE_WEIGHT[s.source], 0);
    const prediction = predict(matched.map((s) => ({ line: catalogue.lineOf(s.carrierKey)!, p: BARE_WEIGHT[s.source] / total })));
    const top = prediction.candidates[0];
    const kind = matched.find((s) => catalogue.lineOf(s.carrierKey)?.scac === top?.scac)?.kind ?? matched[0].kind;
    entry = { prediction: prediction.candidates.length ? prediction : NO_PREDICTION, numberType: kind };
    catalogue.bare.set(key, entry);
  }
  return entry;
}
