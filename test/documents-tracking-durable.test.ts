// The tracking requests for numbers a document names are made after its extraction commits; a
// worker that dies in that window (here: one whose tracking step fails as a dead process would,
// midway) leaves the job to the next worker once its lease lapses, which makes the rest. Every
// number ends with exactly one tracking request.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { DocumentWorker } from '../src/services/documents-worker.ts';
import { MINUTE } from '../src/domain/time-units.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (app) => (t = app));

async function upload(key: string, body: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([body]), 'arrival.txt');
  const res = await fetch(`${t.baseUrl}/v2/documents`, { method: 'POST', headers: { authorization: `Token ${key}` }, body: form });
  assert.equal(res.status, 201);
  return ((await res.json()) as any).data.id;
}

const requestNumbers = async (key: string) => ((await t.request('GET', '/v2/tracking_requests', { key })).body.data as any[]).map((r) => r.attributes.request_number).sort();
const job = async (id: string) => (await t.db.query('SELECT job, locked_until, extraction_status FROM documents WHERE id = $1', [id])).rows[0];

test('a worker that dies after the extraction commits, midway through tracking its numbers, loses none', async () => {
  const { key } = await t.newAccount('Durable tracking');
  const numbers = [containerNumber('MSKU', 246810), containerNumber('OOLU', 135792), containerNumber('CMAU', 864201)].sort();
  const id = await upload(key, `ARRIVAL NOTICE\nContainers: ${numbers.join(', ')}\n`);

  // The first number is tracked, then the process "dies" (the second asks whether its line can be tracked).
  let asked = 0;
  const dying = new DocumentWorker({
    db: t.db,
    clock: t.clock,
    isTrackable: () => {
      if (++asked > 1) throw new Error('the process died here');
      return true;
    },
  });
  await assert.rejects(dying.runDue(), /the process died here/);
  const left = await job(id);
  assert.equal(left.extraction_status, 'extracted', 'the extraction committed');
  assert.equal(left.job, 'relink', 'the tracking step is still to do');
  assert.ok(left.locked_until > t.clock.now(), "under the dead worker's lease");
  assert.equal((await requestNumbers(key)).length, 1);

  // Another worker leaves it while the lease holds, then takes it over.
  const next = new DocumentWorker({ db: t.db, clock: t.clock });
  assert.equal(await next.runDue(), 0);
  t.clock.advance(6 * MINUTE);
  await next.drain();
  assert.deepEqual(await requestNumbers(key), numbers, 'every number tracked, none twice');
  assert.equal((await job(id)).job, null);
  assert.equal((await job(id)).locked_until, null);
});

test('with nothing to track the job ends with the extraction, in its transaction', async () => {
  const { key } = await t.newAccount('Nothing to track');
  const id = await upload(key, 'A note with no numbers in it\n');
  await new DocumentWorker({ db: t.db, clock: t.clock }).drain();
  assert.deepEqual(await job(id), { job: null, locked_until: null, extraction_status: 'extracted' });
});
