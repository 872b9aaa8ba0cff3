// scripts/sandbox-accuracy.ts against svc and the sandbox over HTTP: numbers of every type.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { HOUR } from '../src/domain/time-units.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { forFile } from './support/for-file.ts';

const root = path.resolve(import.meta.dirname, '..');

let t: TrackingHarness;
forFile(() => startTrackingHarness(), (s) => (t = s));

/** Runs the script (asynchronously: the servers it talks to live in this process). */
async function accuracy(numbers: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = ['--import', 'tsx', path.join(root, 'scripts/sandbox-accuracy.ts'), '--svc', t.baseUrl, '--key', t.key, '--sandbox', t.sandboxUrl, '--numbers', numbers, '--json'];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

test('--numbers takes SCAC:NUMBER:TYPE, and a number shaped like a container is one', async () => {
  // A booking number that is no well-formed bill of lading for Hapag-Lloyd: asked as one, the
  // sandbox answers 400.
  const id = await t.track('booking_number', 'HLCBKG260042', 'HLCU');
  await t.worker.drain();
  await t.advance(48 * HOUR, 24);
  const tr = (await t.request('GET', `/v2/tracking_requests/${id}`)).body.data;
  assert.equal(tr.attributes.status, 'created', JSON.stringify(tr.attributes));
  const shipment = (await t.request('GET', `/v2/shipments/${tr.relationships.tracked_object.data.id}?include=containers`)).body;
  const container: string = shipment.included.find((r: any) => r.type === 'container').attributes.number;

  const run = await accuracy(`HLCU:HLCBKG260042:booking_number, HLCU:${container}`);
  assert.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  assert.equal(summary.numbers, 2);
  assert.deepEqual(summary.containers_not_in_svc, []);
  assert.ok(summary.published_milestones > 0, run.stdout);
  assert.ok(summary.completeness > 0, run.stdout);

  const bad = await accuracy('HLCU:HLCBKG260042:parcel');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /the type must be bill_of_lading, booking_number, container/);
});

test('journeys the sandbox sends dirty: every milestone a user should see is right, none is made up', async (ctx) => {
  // Picked for what their carriers garble in the first two weeks: repeats, reissues under new ids,
  // carrier spellings, swapped type members, offsets in every form, events with no place, and a
  // mistyped vessel IMO number (src/sandbox/dirt.ts).
  const numbers = ['MAEU:MAEU662057', 'CMDU:CMDU785529', 'HLCU:HLCU554019', 'HLCU:HLCU669774', 'MSCU:MEDU669774', 'MAEU:MAEU785529'];
  for (const spec of numbers) {
    const [scac, number] = spec.split(':');
    await t.track('bill_of_lading', number, scac);
  }
  await t.worker.drain();
  await t.advance(14 * 24 * HOUR, 56);

  const run = await accuracy(numbers.map((n) => `${n}:bill_of_lading`).join(','));
  assert.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  ctx.diagnostic(`${summary.published_milestones} milestones to see (${summary.quirked_milestones} told by garbled events, ${summary.not_showable} unplaceable vessel moves): accuracy ${summary.accuracy}, ${summary.spurious.length} spurious`);
  assert.deepEqual(summary.containers_not_in_svc, []);
  assert.ok(summary.quirked_milestones >= 5, `only ${summary.quirked_milestones} milestones told by garbled events`);
  assert.ok(summary.accuracy >= 0.995, JSON.stringify({ accuracy: summary.accuracy, missing: summary.missing, wrong: summary.wrong }, null, 1));
  assert.deepEqual(summary.spurious, []);
});
