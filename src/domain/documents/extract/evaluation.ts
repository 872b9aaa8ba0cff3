// Scoring extraction against labelled documents (test/document-extraction.test.ts, bench/documents.ts):
// number recall and wrong numbers accepted, type accuracy, and per-field accuracy.
import type { DocumentFields, DocumentType, ExtractedNumbers } from './types.ts';

export interface Labelled {
  type: DocumentType;
  numbers: ExtractedNumbers;
  fields: DocumentFields;
}

const NUMBER_KINDS = ['containers', 'bills_of_lading', 'bookings'] as const;
export type NumberKind = (typeof NUMBER_KINDS)[number];

export interface Tally {
  documents: number;
  typeCorrect: number;
  numbers: Record<NumberKind, { expected: number; found: number; wrong: string[] }>;
  /** Per field: documents that show it, documents where extraction got it right, fields extracted that the document does not show. */
  fields: Record<string, { expected: number; correct: number; spurious: number }>;
  /** Documents with a miss, for the report: name → what went wrong. */
  misses: Map<string, string[]>;
}

export const emptyTally = (): Tally => ({
  documents: 0,
  typeCorrect: 0,
  numbers: { containers: { expected: 0, found: 0, wrong: [] }, bills_of_lading: { expected: 0, found: 0, wrong: [] }, bookings: { expected: 0, found: 0, wrong: [] } },
  fields: {},
  misses: new Map(),
});

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Adds one document to the tally: `found` is what extraction answered (any object with the labels' shape). */
export function score(tally: Tally, name: string, labels: Labelled, found: Labelled): void {
  const misses: string[] = [];
  tally.documents++;
  if (found.type === labels.type) tally.typeCorrect++;
  else misses.push(`type ${found.type}, labelled ${labels.type}`);
  for (const kind of NUMBER_KINDS) {
    const t = tally.numbers[kind];
    const expected = new Set(labels.numbers[kind]);
    t.expected += expected.size;
    for (const n of new Set(found.numbers[kind])) {
      if (expected.has(n)) t.found++;
      else {
        t.wrong.push(`${name}: ${n}`);
        misses.push(`wrong ${kind} ${n}`);
      }
    }
    for (const n of expected) if (!found.numbers[kind].includes(n)) misses.push(`missed ${kind} ${n}`);
  }
  // Fields are compared only when the type is right: another type has another schema.
  if (found.type === labels.type) {
    const names = new Set([...Object.keys(labels.fields), ...Object.keys(found.fields)]) as Set<keyof DocumentFields>;
    for (const field of names) {
      const t = (tally.fields[field] ??= { expected: 0, correct: 0, spurious: 0 });
      const want = labels.fields[field];
      const got = found.fields[field];
      if (want === undefined) {
        t.spurious++;
        misses.push(`spurious ${field} ${JSON.stringify(got)}`);
        continue;
      }
      t.expected++;
      if (same(want, got)) t.correct++;
      else misses.push(`${field} ${JSON.stringify(got)}, labelled ${JSON.stringify(want)}`);
    }
  }
  if (misses.length > 0) tally.misses.set(name, misses);
}

const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);

export const recall = (tally: Tally, kind: NumberKind): number => {
  const t = tally.numbers[kind];
  return t.expected === 0 ? 1 : t.found / t.expected;
};

/** The tally as a table, one line per figure. */
export function report(tally: Tally): string {
  const lines = [`documents ${tally.documents}, type right ${pct(tally.typeCorrect, tally.documents)}`];
  for (const kind of NUMBER_KINDS) {
    const t = tally.numbers[kind];
    lines.push(`${kind.padEnd(26)} recall ${pct(t.found, t.expected).padStart(6)} (${t.found}/${t.expected}), wrong accepted ${t.wrong.length}`);
  }
  for (const [field, t] of Object.entries(tally.fields).sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`${field.padEnd(26)} accuracy ${pct(t.correct, t.expected).padStart(6)} (${t.correct}/${t.expected}), spurious ${t.spurious}`);
  }
  return lines.join('\n');
}
