// A job is counted when it is claimed, before it runs: a document whose extraction kills the
// process (here: a worker in a child process that dies by SIGKILL in the extraction) is claimed
// again by the next worker once the lease lapses, and after MAX_JOB_ATTEMPTS claims that never
// finished it ends failed with the reason, without another extraction: svc never crash-loops on
// a stored file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { MAX_JOB_ATTEMPTS } from '../src/domain/documents/intake-limits.ts';
import { MINUTE } from '../src/domain/time-units.ts';
import { DocumentWorker } from '../src/services/documents-worker.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (app) => (t = app));

const CHILD = path.join(import.meta.dirname, 'support', 'dying-document-worker.ts');

/** Runs the dying worker at the clock's time; its exit signal (or code) and what it printed. */
function dyingWorker(): Promise<{ signal: NodeJS.Signals | null; code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, t.database.url, t.clock.now().toISOString()], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ signal, code, out }));
  });
}

const state = async (id: string) =>
  (await t.db.query('SELECT job, job_attempts, extraction_status, classification_notes, locked_until FROM documents WHERE id = $1', [id])).rows[0];

test('a document whose extraction kills the process is given up after the limit, with the reason, and never extracted again', async () => {
  const form = new FormData();
  form.append('file', new Blob(['Arrival notice: the file that stops svc\n']), 'deadly.txt');
  const res = await fetch(`${t.baseUrl}/v2/documents`, { method: 'POST', headers: { authorization: `Token ${t.key}` }, body: form });
  assert.equal(res.status, 201);
  const id: string = ((await res.json()) as any).data.id;

  for (let attempt = 1; attempt <= MAX_JOB_ATTEMPTS; attempt++) {
    const died = await dyingWorker();
    assert.equal(died.signal, 'SIGKILL', `worker ${attempt} died in the extraction (${died.out})`);
    const left = await state(id);
    assert.equal(left.job_attempts, attempt, 'the claim counted the attempt before the job ran');
    assert.equal(left.extraction_status, 'pending');
    assert.ok(left.locked_until > t.clock.now(), "under the dead worker's lease");
    // Another worker leaves it while that lease holds.
    const waiting = await dyingWorker();
    assert.deepEqual([waiting.code, waiting.out], [0, 'took 0\n']);
    t.clock.advance(6 * MINUTE);
  }

  // The next claim is past the limit: the job ends failed, and the engine is not called.
  let extractions = 0;
  const next = new DocumentWorker({
    db: t.db,
    clock: t.clock,
    extract: async () => {
      extractions++;
      throw new Error('never called');
    },
  });
  await next.drain();
  assert.equal(extractions, 0);
  const ended = await state(id);
  assert.equal(ended.extraction_status, 'failed');
  assert.equal(ended.job, null);
  assert.equal(ended.locked_until, null);
  assert.match(ended.classification_notes, new RegExp(`tried ${MAX_JOB_ATTEMPTS} times and never finished`));
  const events = await t.db.query('SELECT name FROM domain_events WHERE reference_id = $1', [id]);
  assert.deepEqual(events.rows.map((r) => r.name), ['document.extraction_failed']);
  const shown = await t.request('GET', `/v2/documents/${id}`);
  assert.equal(shown.body.data.attributes.extraction_status, 'failed');
  assert.match(shown.body.data.attributes.classification_notes, /never finished/);

  // Nothing is left for a worker to claim: a restart does not take it up again.
  t.clock.advance(6 * MINUTE);
  assert.deepEqual(await dyingWorker().then((r) => [r.code, r.out]), [0, 'took 0\n']);
});

test('reextract after the give-up starts the count again', async () => {
  const { rows } = await t.db.query("SELECT id FROM documents WHERE extraction_status = 'failed' LIMIT 1");
  const queued = await t.request('POST', `/v2/documents/${rows[0].id}/reextract`);
  assert.equal(queued.status, 202);
  await new DocumentWorker({ db: t.db, clock: t.clock }).drain();
  const done = await state(rows[0].id);
  assert.equal(done.extraction_status, 'extracted');
  assert.equal(done.job_attempts, 1);
});
