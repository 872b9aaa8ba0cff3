// svc watch as a real child process with its output piped, against a real svc whose sandbox
// carrier publishes a journey as the test moves the clock: the tracking request becomes a
// shipment, each milestone arrives as one plain line, and the watch ends by itself when every
// container is back empty; a failed request ends it with the reason in words; Ctrl-C ends it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY } from '../src/domain/time-units.ts';
import { clientEnv, startClient } from './support/client-cli.ts';
import { forFile } from './support/for-file.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

let t: TrackingHarness;
forFile(() => startTrackingHarness(), (s) => (t = s));

const watch = (...args: string[]) => startClient(['watch', ...args, '--interval', '50ms'], clientEnv(t.baseUrl, t.key));
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f]/; // anything but the newline

test('piped, svc watch prints the request, its shipment and each milestone as a plain line as it arrives, and ends when every box is back', async () => {
  const id = await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
  const watching = watch(id);
  await watching.waitFor(new RegExp(`^tracking request ${id} \\(TEST-TR-SUCCEEDED, TEST\\): pending\\n`));

  await t.advance(60_000, 3); // the line answers: a shipment of two boxes, their first milestones
  await watching.waitFor(/^shipment \S+: B\/L TEST-TR-SUCCEEDED, containers SBXU\d{7}, SBXU\d{7}\n/m);
  await watching.waitFor(/^2026-\d\d-\d\d \d\d:\d\d UTC  SBXU\d{7}  full in  CNSHA$/m);
  assert.doesNotMatch(watching.stdout(), /vessel departed/, 'nothing before it happens');

  await t.advance(5 * DAY, 5);
  await watching.waitFor(/^2026-\d\d-\d\d \d\d:\d\d UTC  SBXU\d{7}  vessel departed  CNSHA/m);

  await t.advance(30 * DAY, 30);
  const run = await watching.exited;
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stdout, CONTROL, 'no control characters when piped');
  const lines = run.stdout.trimEnd().split('\n');
  assert.equal(lines.at(-1), 'every container is back empty (empty returned): nothing more to watch');

  // Every milestone svc recorded, once each, and nothing else.
  const containers = (await t.request('GET', `/v2/containers?include=transport_events&page[size]=100`)).body;
  const recorded = containers.included.filter((r: { type: string }) => r.type === 'transport_event').length;
  const eventLines = lines.filter((l) => /^2026-\d\d-\d\d \d\d:\d\d UTC  SBXU\d{7}  /.test(l));
  assert.equal(eventLines.length, recorded, run.stdout);
  assert.equal(new Set(eventLines).size, eventLines.length, 'no milestone twice');
  assert.equal(eventLines.filter((l) => /  empty in  USLAX$/.test(l)).length, 2, 'both boxes returned');
  assert.deepEqual(lines.filter((l) => l.startsWith('tracking request ')).map((l) => l.split(': ')[1]), ['pending', 'created'], 'a line per status');
  assert.equal(lines.length, eventLines.length + 4, 'the request at each status, the shipment, the milestones and the closing line');
});

test('svc watch <number> --json follows the newest request of that number: one JSON record per line; a failure says why in words, exit 1', async () => {
  await t.track('bill_of_lading', 'TEST-TR-FAILED', 'TEST');
  const watching = startClient(['watch', 'TEST-TR-FAILED', '--json', '--interval', '50ms'], clientEnv(t.baseUrl, t.key));
  await watching.waitFor(/"status":"pending"/);
  await t.advance(60_000, 3);
  const run = await watching.exited;
  assert.equal(run.code, 1);
  assert.equal(run.stderr, 'svc: tracking request ' + /"id":"([^"]+)"/.exec(run.stdout)![1] + ' failed: the shipping line does not know this number\n');
  const records = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(records.map((r) => [r.type, r.request_number, r.status]), [
    ['tracking_request', 'TEST-TR-FAILED', 'pending'],
    ['tracking_request', 'TEST-TR-FAILED', 'failed'],
  ]);
  assert.equal(records[1].failed_reason, 'not_found');
});

test('svc watch stops on Ctrl-C (exit 130) and on a number nobody tracks (exit 1)', async () => {
  const id = await t.track('bill_of_lading', 'TEST-BL-NEVER', 'TEST');
  const watching = watch(id);
  await watching.waitFor(/: pending\n/);
  watching.child.kill('SIGINT');
  const run = await watching.exited;
  assert.equal(run.code, 130, run.stderr);
  assert.equal(run.stderr, '');

  const nobody = await watch('NOBODY-TRACKS-THIS').exited;
  assert.equal(nobody.code, 1);
  assert.equal(nobody.stderr, 'svc: no tracking request for NOBODY-TRACKS-THIS (svc track NOBODY-TRACKS-THIS starts one)\n');
});

test('svc watch on a journey already over prints its whole history and exits 0', async () => {
  const id = await t.track('bill_of_lading', 'TEST-DIRECT', 'TEST');
  for (let i = 0; i < 12 && (await t.request('GET', `/v2/tracking_requests/${id}`)).body.data.attributes.status !== 'tracking_stopped'; i++) await t.advance(10 * DAY, 10);
  assert.equal((await t.request('GET', `/v2/tracking_requests/${id}`)).body.data.attributes.status, 'tracking_stopped', 'the journey ended');

  const run = await startClient(['watch', 'TEST-DIRECT', '--interval', '50ms'], clientEnv(t.baseUrl, t.key)).exited;
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '');
  const lines = run.stdout.trimEnd().split('\n');
  assert.equal(lines[0], `tracking request ${id} (TEST-DIRECT, TEST): tracking stopped`);
  assert.match(lines[1], /^shipment \S+: B\/L TEST-DIRECT, containers \w{4}\d{7}/);
  const shipmentId = /^shipment (\S+):/.exec(lines[1])![1];
  const containers = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}&include=transport_events&page[size]=100`)).body;
  const recorded = containers.included.filter((r: { type: string }) => r.type === 'transport_event').length;
  const eventLines = lines.filter((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d UTC  \w{4}\d{7}  /.test(l));
  assert.ok(recorded > 0 && eventLines.length === recorded, `every recorded milestone once (${recorded}):\n${run.stdout}`);
  assert.ok(eventLines.some((l) => /  vessel departed  NLRTM/.test(l)) && eventLines.some((l) => /  empty in  /.test(l)), run.stdout);
  assert.match(lines.at(-1)!, /nothing more to watch$/);
});
