// Extraction over hand-written documents (test/fixtures/documents/): wordings and layouts the
// labelled set's generator was not written from. The numbers are held to the same bar as the
// generated set (every one found, no wrong one); field accuracy is printed, since these few
// documents say more about where the label vocabulary ends than about a rate.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { extractDocument } from '../src/documents/extract.ts';
import { emptyTally, report, score, type Labelled } from '../src/domain/documents/extract/evaluation.ts';

const dir = path.join(import.meta.dirname, 'fixtures/documents');
const CONTENT_TYPES: Record<string, string> = { '.txt': 'text/plain', '.eml': 'message/rfc822', '.pdf': 'application/pdf' };

test('hand-written documents: every container, B/L and booking number found, no wrong one; fields printed', async (t) => {
  const files = (await readdir(dir)).filter((f) => CONTENT_TYPES[path.extname(f)]);
  assert.ok(files.length >= 4);
  const tally = emptyTally();
  for (const file of files) {
    const labels = JSON.parse(await readFile(path.join(dir, file.replace(/\.[a-z]+$/, '.labels.json')), 'utf8')) as Labelled;
    const found = await extractDocument(await readFile(path.join(dir, file)), CONTENT_TYPES[path.extname(file)]);
    score(tally, file, labels, found);
    assert.equal(found.type, labels.type, file);
    for (const kind of ['containers', 'bills_of_lading', 'bookings'] as const) assert.deepEqual(found.numbers[kind], labels.numbers[kind], `${file}: ${kind}`);
  }
  t.diagnostic(`\n${report(tally)}`);
  for (const [name, misses] of tally.misses) t.diagnostic(`${name}: ${misses.join('; ')}`);
});
