// `npm run bench:documents`: the extraction engine over the whole labelled set
// (scripts/generate-documents.ts). Text PDFs extracted per second (text layer to fields), then,
// when tesseract and pdftoppm are installed, every image through OCR: images per second. Prints
// accuracy per field for each part, and the ratio of the engine's time to the PDF library's text
// read alone (what the engine adds on top of unpdf). Then the whole path (bench/documents-webhook.ts):
// text PDFs uploaded to a real `svc serve` at a steady rate, p50 and p99 from POST /v2/documents to
// document.extracted arriving at a real webhook receiver. Then fairness (bench/documents-fairness.ts):
// account B's one small text from upload to extracted while account A's backlog, or A's slow files,
// hold the workers.
//
//   BENCH_SEED (default 15), BENCH_COUNT (240), BENCH_ROUNDS (3, for the text PDFs), BENCH_OCR=0 skips OCR,
//   BENCH_E2E=0 skips the webhook part; BENCH_E2E_COUNT (80 text PDFs: an account may make 100 requests a minute), BENCH_E2E_RATE (5 uploads/s),
//   BENCH_E2E_INTERVAL_MS (svc's SVC_WORKER_INTERVAL_MS, default 1000 as svc's own default);
//   BENCH_FAIR=0 skips fairness, BENCH_FAIR_ONLY=1 runs it alone; BENCH_FAIR_BACKLOG (2000 documents),
//   BENCH_FAIR_SLOW_FILES (12), BENCH_FAIR_SLOW_MS (30000)
import { cpus, loadavg } from 'node:os';
import { generateDocuments, renderImage, type GeneratedDocument } from '../scripts/generate-documents.ts';
import { extractDocument } from '../src/documents/extract.ts';
import { ocrAvailable, rasteriserAvailable } from '../src/documents/ocr.ts';
import { pdfText } from '../src/documents/pdf-text.ts';
import { emptyTally, report, score } from '../src/domain/documents/extract/evaluation.ts';
import { fairness } from './documents-fairness.ts';
import { percentile, uploadToWebhook } from './documents-webhook.ts';

const seed = Number(process.env.BENCH_SEED ?? 15);
const count = Number(process.env.BENCH_COUNT ?? 240);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const out = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

out(`bench:documents — seed ${seed}, ${count} documents, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

async function fairnessPart(): Promise<void> {
  if (process.env.BENCH_FAIR === '0') {
    out('\nfairness: skipped (BENCH_FAIR=0)');
    return;
  }
  const intervalMs = Number(process.env.BENCH_E2E_INTERVAL_MS ?? 1000);
  const cases = await fairness({
    backlog: Number(process.env.BENCH_FAIR_BACKLOG ?? 2000),
    slowFiles: Number(process.env.BENCH_FAIR_SLOW_FILES ?? 12),
    slowMs: Number(process.env.BENCH_FAIR_SLOW_MS ?? 30_000),
    intervalMs,
  });
  out(`\nfairness: account B's one small text, upload → extracted, with two document workers (interval ${intervalMs} ms):`);
  for (const c of cases) out(`  behind ${c.name}: ${(c.latencyMs / 1000).toFixed(2)} s; A's documents still pending then: ${c.aPending} of ${c.aTotal}`);
}

if (process.env.BENCH_FAIR_ONLY === '1') {
  await fairnessPart();
  process.exit(0);
}
const docs = await generateDocuments({ seed, count });
const pdfs = docs.filter((d) => d.format === 'pdf');
const images = docs.filter((d) => d.format === 'png' || d.format === 'jpeg' || d.format === 'tiff');
const others = docs.filter((d) => d.format === 'text' || d.format === 'eml');

// Warm-up: the port index, the inference catalogue and pdf.js load once per process.
await extractDocument(pdfs[0].bytes, pdfs[0].contentType);

async function timed(set: GeneratedDocument[], run: (d: GeneratedDocument) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (const d of set) await run(d);
  return (performance.now() - start) / 1000;
}

const engine: number[] = [];
const textOnly: number[] = [];
for (let r = 0; r < rounds; r++) {
  // Taking turns, so load that comes and goes weighs on both alike.
  engine.push(await timed(pdfs, (d) => extractDocument(d.bytes, d.contentType)));
  textOnly.push(await timed(pdfs, (d) => pdfText(d.bytes)));
}
const perSecond = pdfs.length / median(engine);
out(`text PDFs: ${pdfs.length} in ${median(engine).toFixed(2)} s (median of ${rounds}): ${perSecond.toFixed(1)} documents/s; unpdf's text read alone ${(pdfs.length / median(textOnly)).toFixed(1)}/s, engine/text-read time ${(median(engine) / median(textOnly)).toFixed(2)}×`);

const textTally = emptyTally();
for (const d of [...pdfs, ...others]) score(textTally, d.name, d.labels, await extractDocument(d.bytes, d.contentType));
out(`\naccuracy, text documents (${pdfs.length} PDFs, ${others.length} plain text and e-mail):\n${report(textTally)}`);

if (process.env.BENCH_E2E === '0') out('\nupload → document.extracted at a webhook: skipped (BENCH_E2E=0)');
else {
  const e2e = await uploadToWebhook(pdfs.slice(0, Number(process.env.BENCH_E2E_COUNT ?? 80)), {
    ratePerSecond: Number(process.env.BENCH_E2E_RATE ?? 5),
    workerIntervalMs: Number(process.env.BENCH_E2E_INTERVAL_MS ?? 1000),
    timeoutMs: 10 * 60_000,
  });
  const ms = (p: number) => `${percentile(e2e.latencies, p).toFixed(0)} ms`;
  out(
    `\nupload → document.extracted at a webhook receiver (svc serve, ${e2e.count} text PDFs at ${e2e.ratePerSecond}/s, SVC_WORKER_INTERVAL_MS=${e2e.workerIntervalMs}): ` +
      `p50 ${ms(50)}, p99 ${ms(99)}, max ${ms(100)}; ${(e2e.count / e2e.seconds).toFixed(1)} documents/s end to end; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );
}

const ocrMissing = !(await ocrAvailable()) || !(await rasteriserAvailable());
if (process.env.BENCH_OCR === '0' || ocrMissing) {
  out(`\nOCR: ${ocrMissing ? 'tesseract or pdftoppm not installed (apt-get install -y tesseract-ocr poppler-utils)' : 'skipped (BENCH_OCR=0)'}`);
} else {
  const rendered = await Promise.all(images.map(async (d) => ({ d, bytes: await renderImage(d.bytes, d.format as 'png') })));
  const ocrTally = emptyTally();
  const start = performance.now();
  for (const { d, bytes } of rendered) score(ocrTally, `${d.name}.${d.format}`, d.labels, await extractDocument(bytes, d.contentType));
  const seconds = (performance.now() - start) / 1000;
  out(`\nimages (OCR, one tesseract at a time): ${rendered.length} in ${seconds.toFixed(1)} s: ${(rendered.length / seconds).toFixed(2)} images/s, ${(perSecond / (rendered.length / seconds)).toFixed(0)}× slower than a text PDF`);
  out(`accuracy, images:\n${report(ocrTally)}`);
  for (const [name, misses] of ocrTally.misses) out(`  ${name}: ${misses.join('; ')}`);
}
await fairnessPart();
out(`\nload at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
