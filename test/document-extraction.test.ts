// The extraction engine over the labelled document set (scripts/generate-documents.ts, generated
// here from its seed: the set is not committed). Text documents (PDF text layers, plain text,
// e-mail) are all read; OCR, slow, reads a small sample of the images here and all of them in
// `npm run bench:documents`. Container, B/L and booking numbers: recall ≥ 98% and no wrong number
// accepted. Per-field accuracy is printed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { generateDocuments, renderImage, type GeneratedDocument } from '../scripts/generate-documents.ts';
import { extractDocument } from '../src/documents/extract.ts';
import { ocrAvailable, rasteriserAvailable } from '../src/documents/ocr.ts';
import { emptyTally, recall, report, score, type Tally } from '../src/domain/documents/extract/evaluation.ts';
import { DOCUMENT_TYPES } from '../src/domain/documents/extract/types.ts';
import { documentSchemas, schemaId, SCHEMA_VERSION } from '../src/domain/documents/schemas/index.ts';
import { schemaErrors } from '../src/domain/documents/schemas/validate.ts';
import { checkContainerNumber } from '../src/domain/inference/iso6346.ts';

const root = path.resolve(import.meta.dirname, '..');
const IMAGE_FORMATS = new Set(['png', 'jpeg', 'tiff']);
const isImage = (d: GeneratedDocument) => IMAGE_FORMATS.has(d.format);

/** Undefined when OCR can run; else why not, for `test(name, { skip }, …)`. On CI a missing OCR fails. */
async function ocrSkip(): Promise<string | undefined> {
  const missing = [!(await ocrAvailable()) && 'tesseract (tesseract-ocr)', !(await rasteriserAvailable()) && 'pdftoppm (poppler-utils)'].filter(Boolean);
  if (missing.length === 0) return undefined;
  const why = `${missing.join(' and ')} not installed (apt-get install -y tesseract-ocr poppler-utils)`;
  if (process.env.CI) throw new Error(`${why}: CI must run the OCR tests`);
  return `${why}: OCR tests skipped`;
}

function assertNumbers(tally: Tally, t: { diagnostic: (s: string) => void }) {
  t.diagnostic(`\n${report(tally)}`);
  for (const [name, misses] of tally.misses) t.diagnostic(`${name}: ${misses.join('; ')}`);
  for (const kind of ['containers', 'bills_of_lading', 'bookings'] as const) {
    assert.deepEqual(tally.numbers[kind].wrong, [], `${kind}: wrong numbers accepted`);
    assert.ok(recall(tally, kind) >= 0.98, `${kind} recall ${recall(tally, kind)}`);
  }
}

const skipOcr = await ocrSkip();

describe('document extraction', () => {
  let docs: GeneratedDocument[];
  before(async () => {
    docs = await generateDocuments();
  });

  test('the labelled set: at least 200 documents of every type, layout and format, the same bytes from the same seed', async () => {
    assert.ok(docs.length >= 200);
    for (const type of DOCUMENT_TYPES) assert.ok(docs.filter((d) => d.labels.type === type).length >= 25, type);
    for (const layout of ['keyvalue', 'two_column', 'boxes', 'table', 'prose']) assert.ok(docs.some((d) => d.layout === layout), layout);
    for (const format of ['pdf', 'text', 'eml', 'png', 'jpeg', 'tiff']) assert.ok(docs.some((d) => d.format === format), format);
    // The labels name only valid container numbers; distractors (bad check digits) are printed too.
    for (const d of docs) for (const c of d.labels.numbers.containers) assert.equal(checkContainerNumber(c).reason, null, `${d.name}: ${c}`);
    const digest = (set: GeneratedDocument[]) => createHash('sha256').update(Buffer.concat(set.map((d) => Buffer.from(d.bytes)))).digest('hex');
    assert.equal(digest(await generateDocuments()), digest(docs));
    assert.notEqual(digest(await generateDocuments({ seed: 16 })), digest(docs));
  });

  test('text documents (PDF text layer, plain text, e-mail): numbers found, no wrong number accepted, fields that conform to their schema', async (t) => {
    const tally = emptyTally();
    for (const d of docs.filter((x) => !isImage(x))) {
      const found = await extractDocument(d.bytes, d.contentType);
      assert.equal(found.needs_ocr, false, d.name);
      assert.equal(found.schema_version, schemaId(found.type));
      assert.deepEqual(schemaErrors(found.type, found.fields), [], d.name);
      assert.ok(found.confidence > 0 && found.confidence <= 1, `${d.name}: confidence ${found.confidence}`);
      score(tally, d.name, d.labels, found);
    }
    assertNumbers(tally, t);
    assert.ok(tally.typeCorrect / tally.documents >= 0.95, `type right ${tally.typeCorrect}/${tally.documents}`);
  });

  test('images through OCR (a sample; npm run bench:documents reads them all)', { skip: skipOcr }, async (t) => {
    const images = docs.filter(isImage);
    // One of each format and layout or so: six images, a few seconds each on a loaded machine.
    const sample = [...new Map(images.map((d) => [`${d.format}`, d])).values(), ...images.filter((d) => d.layout === 'table' || d.layout === 'boxes').slice(0, 3)];
    const tally = emptyTally();
    for (const d of sample) {
      const found = await extractDocument(await renderImage(d.bytes, d.format as 'png'), d.contentType);
      assert.equal(found.needs_ocr, false);
      score(tally, `${d.name}.${d.format}`, d.labels, found);
    }
    assertNumbers(tally, t);
  });

  test('a scanned PDF (no text layer) is read through OCR', { skip: skipOcr }, async () => {
    const d = docs.find((x) => x.format === 'pdf' && x.labels.numbers.containers.length > 0 && x.layout === 'keyvalue')!;
    const scan = await PDFDocument.create();
    const png = await scan.embedPng(await renderImage(d.bytes, 'png'));
    scan.addPage([595, 842]).drawImage(png, { x: 0, y: 0, width: 595, height: 842 });
    const found = await extractDocument(await scan.save(), 'application/pdf');
    assert.equal(found.needs_ocr, false);
    assert.deepEqual(found.numbers.containers, d.labels.numbers.containers);
  });

  test('without tesseract an image is marked needs_ocr, not failed', async () => {
    // A child process whose PATH has node and nothing else.
    const script = `
      import { extractDocument } from ${JSON.stringify(path.join(root, 'src/documents/extract.ts'))};
      const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000100ffff03000006000557bfabd40000000049454e44ae426082', 'hex');
      console.log(JSON.stringify(await extractDocument(png, 'image/png')));`;
    const bin = await mkdtemp(path.join(tmpdir(), 'svc-no-ocr-'));
    let stdout: string;
    try {
      await symlink(process.execPath, path.join(bin, 'node'));
      ({ stdout } = await promisify(execFile)(path.join(bin, 'node'), ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env: { ...process.env, PATH: bin } }));
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
    const found = JSON.parse(stdout);
    assert.equal(found.needs_ocr, true);
    assert.equal(found.type, 'other');
    assert.deepEqual(found.numbers, { containers: [], bills_of_lading: [], bookings: [] });
  });

  test('distractors: a labelled container number with a wrong check digit, a seal or phone number is never a number to track', async () => {
    const text = [
      'ARRIVAL NOTICE',
      'Container No.: MSKU 123456-4',
      'Container No.: MSKU1234565',
      'Seal No.: ML1234567   Tel: +31 10 123 4567',
      'B/L No.: MAEU 123456789',
      'Booking No.: see B/L',
    ].join('\n');
    const found = await extractDocument(Buffer.from(text), 'text/plain');
    assert.deepEqual(found.numbers, { containers: ['MSKU1234565'], bills_of_lading: ['MAEU123456789'], bookings: [] });
    assert.equal(found.type, 'arrival_notice');
    assert.equal(found.fields.shipping_line_scac, 'MAEU');
  });

  test('document schemas: one per type, keyed type@version, each a JSON Schema that rejects unknown fields', () => {
    assert.deepEqual([...documentSchemas.keys()].sort(), DOCUMENT_TYPES.map((t) => `${t}@${SCHEMA_VERSION}`).sort());
    for (const [id, schema] of documentSchemas) {
      assert.equal(schema.full_version, id);
      assert.equal(schema.schema_format, 'json_schema');
      assert.deepEqual(schemaErrors(schema.document_type, {}), []);
      assert.notDeepEqual(schemaErrors(schema.document_type, { unknown_field: 'x' } as object), []);
      assert.notDeepEqual(schemaErrors(schema.document_type, { container_numbers: ['MSKU123'] }), []);
    }
  });
});
