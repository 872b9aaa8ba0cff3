// Scoring inference against labelled numbers: the confusion figures of each category, the
// precision of each decision and a reliability table (stated confidence against the share right).
import { isUnusable } from './infer.ts';
import type { InferResult, NumberType, UnusableNumber } from './types.ts';

export interface LabelledNumber {
  category: string;
  input: string;
  /** The line that can track the number; null when no line can be named (lessor boxes, garbage). */
  scac: string | null;
  numberType: NumberType | null;
}

export interface CategoryFigures {
  category: string;
  total: number;
  autoRight: number;
  autoWrong: number;
  confirmRight: number;
  confirmWrong: number;
  /** no_prediction (or unusable input) for a number whose line is known. */
  missed: number;
  /** no_prediction for a number no line can be named for: the right answer. */
  abstained: number;
  unusable: number;
  /** The labelled line is among the candidates. */
  inCandidates: number;
  /** Numbers labelled with a line. */
  withLine: number;
  numberTypeRight: number;
  numberTypeTotal: number;
}

export interface ReliabilityBin {
  from: number;
  to: number;
  count: number;
  meanConfidence: number;
  /** Share of these top candidates that are the labelled line. */
  accuracy: number;
}

export interface Figures {
  categories: CategoryFigures[];
  all: CategoryFigures;
  /** Share of auto_select answers that name the labelled line. */
  autoPrecision: number;
  confirmPrecision: number;
  /** Share of numbers with a known line that were auto-selected rightly. */
  autoCoverage: number;
  reliability: ReliabilityBin[];
  /** Expected calibration error of the top candidate, over the bins. */
  calibrationError: number;
}

const BIN_EDGES = [0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 1.0001];

const empty = (category: string): CategoryFigures => ({
  category,
  total: 0,
  autoRight: 0,
  autoWrong: 0,
  confirmRight: 0,
  confirmWrong: 0,
  missed: 0,
  abstained: 0,
  unusable: 0,
  inCandidates: 0,
  withLine: 0,
  numberTypeRight: 0,
  numberTypeTotal: 0,
});

function tally(f: CategoryFigures, row: LabelledNumber, result: InferResult | UnusableNumber): void {
  f.total++;
  if (row.scac) f.withLine++;
  if (isUnusable(result)) {
    f.unusable++;
    if (row.scac) f.missed++;
    else f.abstained++;
    return;
  }
  const { decision, selected, candidates } = result.shipping_line;
  const right = selected !== null && selected.scac === row.scac;
  if (decision === 'auto_select') right ? f.autoRight++ : f.autoWrong++;
  else if (decision === 'needs_confirmation') right ? f.confirmRight++ : f.confirmWrong++;
  else if (row.scac) f.missed++;
  else f.abstained++;
  if (row.scac && candidates.some((c) => c.scac === row.scac)) f.inCandidates++;
  if (row.numberType) {
    f.numberTypeTotal++;
    if (result.number_type === row.numberType) f.numberTypeRight++;
  }
}

function add(into: CategoryFigures, f: CategoryFigures): void {
  for (const k of Object.keys(f) as (keyof CategoryFigures)[]) if (k !== 'category') (into[k] as number) += f[k] as number;
}

const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);

export function evaluate(rows: readonly LabelledNumber[], infer: (input: string) => InferResult | UnusableNumber): Figures {
  const byCategory = new Map<string, CategoryFigures>();
  const bins = BIN_EDGES.slice(0, -1).map((from, i) => ({ from, to: BIN_EDGES[i + 1], count: 0, sum: 0, right: 0 }));
  for (const row of rows) {
    const result = infer(row.input);
    let f = byCategory.get(row.category);
    if (!f) byCategory.set(row.category, (f = empty(row.category)));
    tally(f, row, result);
    const top = isUnusable(result) ? undefined : result.shipping_line.candidates[0];
    if (top) {
      const bin = bins.find((b) => top.confidence >= b.from && top.confidence < b.to)!;
      bin.count++;
      bin.sum += top.confidence;
      if (top.scac === row.scac) bin.right++;
    }
  }
  const all = empty('all');
  for (const f of byCategory.values()) add(all, f);
  const reliability = bins.map((b) => ({ from: b.from, to: Math.min(1, b.to), count: b.count, meanConfidence: ratio(b.sum, b.count), accuracy: ratio(b.right, b.count) }));
  const ranked = reliability.reduce((n, b) => n + b.count, 0);
  return {
    categories: [...byCategory.values()],
    all,
    autoPrecision: ratio(all.autoRight, all.autoRight + all.autoWrong),
    confirmPrecision: ratio(all.confirmRight, all.confirmRight + all.confirmWrong),
    autoCoverage: ratio(all.autoRight, all.withLine),
    reliability,
    calibrationError: reliability.reduce((e, b) => e + (b.count / Math.max(1, ranked)) * Math.abs(b.accuracy - b.meanConfidence), 0),
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The figures as text lines: a confusion table per category, then precision and reliability. */
export function formatFigures(f: Figures): string[] {
  const header = ['category', 'n', 'auto ok', 'auto wrong', 'confirm ok', 'confirm wrong', 'missed', 'abstained', 'line in candidates', 'type ok'];
  const row = (c: CategoryFigures) => [
    c.category,
    c.total,
    c.autoRight,
    c.autoWrong,
    c.confirmRight,
    c.confirmWrong,
    c.missed,
    c.abstained,
    c.withLine ? `${c.inCandidates}/${c.withLine}` : '-',
    c.numberTypeTotal ? pct(c.numberTypeRight / c.numberTypeTotal) : '-',
  ];
  const table = [header, ...f.categories.map(row), row(f.all)].map((cells) => cells.map(String));
  const widths = header.map((_, i) => Math.max(...table.map((cells) => cells[i].length)));
  const lines = table.map((cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
  lines.push(
    `auto_select precision ${pct(f.autoPrecision)} (${f.all.autoRight}/${f.all.autoRight + f.all.autoWrong}); ` +
      `needs_confirmation precision ${pct(f.confirmPrecision)} (${f.all.confirmRight}/${f.all.confirmRight + f.all.confirmWrong}); ` +
      `auto_select coverage of numbers with a line ${pct(f.autoCoverage)}`,
  );
  lines.push('top candidate reliability (confidence bin: count, mean confidence, share right):');
  for (const b of f.reliability) {
    if (b.count) lines.push(`  [${b.from.toFixed(2)}, ${b.to.toFixed(2)}${b.to >= 1 ? ']' : ')'}: ${b.count}, ${b.meanConfidence.toFixed(3)}, ${pct(b.accuracy)}`);
  }
  lines.push(`expected calibration error ${f.calibrationError.toFixed(3)}`);
  return lines;
}
