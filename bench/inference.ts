// `npm run bench:inference`: carrier inferences per second in process (no HTTP, no database),
// over the labelled set and over random garbage, and the accuracy on the labelled set.
// Bounded: BENCH_SECONDS (default 2) of timed work per scenario.
import { readFileSync } from 'node:fs';
import { Prng } from '../src/sandbox/prng.ts';
import { buildCatalogue } from '../src/domain/inference/catalogue.ts';
import { evaluate, formatFigures } from '../src/domain/inference/evaluation.ts';
import { inferNumber, isUnusable } from '../src/domain/inference/infer.ts';
import { parseInferenceData, readInferenceCatalogue } from '../src/refdata/inference.ts';
import { FIXTURE, fromCsv } from '../scripts/inference-labelled-set.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const TARGET = 100_000;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

// Catalogue: reading and parsing the two CSV files, then building the maps.
let t0 = performance.now();
const catalogue = readInferenceCatalogue();
const coldMs = performance.now() - t0;
const carriersCsv = readFileSync(new URL('../refdata/carriers.csv', import.meta.url), 'utf8');
const prefixesCsv = readFileSync(new URL('../refdata/container_prefixes.csv', import.meta.url), 'utf8');
t0 = performance.now();
for (let i = 0; i < 20; i++) buildCatalogue(parseInferenceData(carriersCsv, prefixesCsv));
const warmMs = (performance.now() - t0) / 20;

const labelled = fromCsv(readFileSync(FIXTURE, 'utf8'));
const labelledInputs = labelled.map((r) => r.input);

// Garbage of two kinds: anything a paste box can receive (1 to 40 characters of letters, digits,
// blanks and punctuation, and a share of long junk), most of it refused as no number at all; and
// random letters and digits (5 to 20), which all go the whole way through inference.
const prng = new Prng('svc inference bench garbage');
const chars = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789      ---..//#:,()!?@+é中🚢'];
const alnum = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const randomString = (alphabet: string[], n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += prng.pick(alphabet);
  return s;
};
const pasteJunk = Array.from({ length: 100_000 }, () => randomString(chars, prng.chance(0.05) ? prng.int(40, 300) : prng.int(1, 40)));
const alnumJunk = Array.from({ length: 100_000 }, () => randomString(alnum, prng.int(5, 20)));
const unusableShare = (inputs: string[]) => inputs.filter((g) => isUnusable(inferNumber(catalogue, g))).length / inputs.length;

let sink = 0;
function run(inputs: string[]): { rate: number; count: number; ms: number } {
  // Warm up so the JIT has compiled the hot path before the clock runs.
  for (let i = 0; i < Math.min(inputs.length, 20_000); i++) sink += isUnusable(inferNumber(catalogue, inputs[i])) ? 1 : 0;
  const budget = seconds * 1000;
  let count = 0;
  const start = performance.now();
  let now = start;
  while (now - start < budget) {
    for (let i = 0; i < inputs.length; i++) {
      const r = inferNumber(catalogue, inputs[i]);
      sink += isUnusable(r) ? 1 : r.shipping_line.candidates.length;
    }
    count += inputs.length;
    now = performance.now();
  }
  const ms = now - start;
  return { rate: (count / ms) * 1000, count, ms };
}

const scenarios: [string, string[]][] = [
  [`labelled set (${fmt(labelled.length)} numbers)`, labelledInputs],
  [`paste junk (100,000 strings, ${(unusableShare(pasteJunk) * 100).toFixed(0)}% no number at all)`, pasteJunk],
  [`random letters and digits (100,000, ${(unusableShare(alnumJunk) * 100).toFixed(0)}% no number)`, alnumJunk],
];
const results = scenarios.map(([name, inputs]) => ({ name, ...run(inputs) }));

console.log(`carrier inference, in process (Node ${process.version}, ${seconds} s per scenario)`);
console.log(`catalogue: ${catalogue.owners.size} owner prefixes, ${catalogue.prefixes.size} B/L prefixes and SCACs, ${catalogue.bareShapes.length} bare shapes; first build ${coldMs.toFixed(1)} ms (files read, modules warm), rebuild ${warmMs.toFixed(2)} ms`);
console.log('');
const width = Math.max(...results.map((r) => r.name.length));
console.log(`${'scenario'.padEnd(width)}  inferences  inferences/s  ns each  vs 100,000/s`);
for (const r of results) {
  console.log(`${r.name.padEnd(width)}  ${fmt(r.count).padStart(10)}  ${fmt(r.rate).padStart(12)}  ${fmt(1e9 / r.rate).padStart(7)}  ${(r.rate / TARGET).toFixed(1).padStart(11)}×`);
}
const [labelledRun, ...junkRuns] = results;
console.log(`ratios to the labelled set: ${junkRuns.map((r) => `${r.name.split(' (')[0]} ${(r.rate / labelledRun.rate).toFixed(2)}`).join(', ')}`);
console.log('');
console.log('accuracy on the labelled set:');
const figures = evaluate(labelled, (input) => inferNumber(catalogue, input));
for (const line of formatFigures(figures)) console.log(`  ${line}`);
if (sink === -1) console.log('');
