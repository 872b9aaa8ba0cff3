// Conditional refreshes (issue 14): a carrier answer svc has applied already (the same event
// pages and terminal answers, or an incremental query with no new event) records only the check:
// when svc asked and when to ask next. Anything new in the answer is diffed and written as before.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { answerDigest, sameAnswer } from '../src/carriers/answer-digest.ts';
import { ConnectorRegistry } from '../src/carriers/registry.ts';
import { DAY } from '../src/domain/time-units.ts';
import { buildSandboxServer, type SandboxApp } from '../src/sandbox/index.ts';
import { TrackingWorker } from '../src/services/tracking/worker.ts';
import { makeDueNow } from '../src/store/shipments.ts';
import { startTestApp, type TestApp } from './support/app.ts';

test('an answer is the same when its pages are (or an incremental query found no event) and each box the terminal answered for answered as before', () => {
  const page = { status: 200, body: '[{"eventID":"a"}]' };
  const x: [string, { status: number; body: string }] = ['X', { status: 200, body: '{"containerNumber":"X"}' }];
  const y: [string, { status: number; body: string }] = ['Y', { status: 200, body: '{"containerNumber":"Y"}' }];
  const applied = answerDigest([page], [x, y], false);
  assert.ok(sameAnswer(applied, answerDigest([page], [y, x], false)), 'whichever box was asked first');
  assert.ok(sameAnswer(applied, answerDigest([{ status: 200, body: '[]' }], [x, y], true)), 'nothing published since svc last asked');
  assert.ok(!sameAnswer(applied, answerDigest([{ status: 200, body: '[{"eventID":"b"}]' }], [x, y], false)), 'another event');
  assert.ok(!sameAnswer(applied, answerDigest([{ status: 200, body: '[]' }], [['X', { status: 404, body: '' }], y], true)), 'another terminal answer');
  assert.ok(sameAnswer(applied, answerDigest([page], [y], false)), 'a box the terminal was not asked about is no news: the state keeps what it said last');
  assert.ok(sameAnswer(applied, answerDigest([page], [['X', { status: 0, body: 'no answer' }], y], false)), 'nor one it did not answer for');
  assert.ok(!sameAnswer(applied, answerDigest([page], [x, y, ['Z', { status: 404, body: '' }]], false)), 'a box asked about for the first time');
  assert.ok(!sameAnswer(null, applied), 'nothing applied yet');
  assert.ok(!sameAnswer(applied, undefined), 'a connector that gives no digest');
});

let t: TestApp;
let sandbox: SandboxApp;
let sandboxUrl: string;
before(async () => {
  t = await startTestApp();
  sandbox = await buildSandboxServer({ clock: t.clock });
  sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await sandbox.close();
  await t.close();
});

interface Row {
  id: string;
  state: object;
  carrier_answer_digest: string | null;
  line_tracking_last_succeeded_at: Date;
  line_tracking_last_changed_at: Date;
  next_refresh_at: Date | null;
  locked_until: Date | null;
  last_checked_at: Date | null;
  /** The shipment row's version: a new one with any write of the row. */
  version: string;
}
const shipmentRow = async () =>
  (
    await t.db.query<Row>(
      `SELECT id, state, carrier_answer_digest, line_tracking_last_succeeded_at, line_tracking_last_changed_at, r.next_refresh_at, r.locked_until,
              r.last_checked_at, s.xmin::text AS version
         FROM shipments s JOIN shipment_refreshes r ON r.shipment_id = s.id WHERE account_id = $1`,
      [t.accountId],
    )
  ).rows[0];
const eventCount = async () => Number((await t.db.query('SELECT count(*) AS n FROM domain_events WHERE account_id = $1', [t.accountId])).rows[0].n);

test('asked again with nothing new, a refresh records the check alone; news is still applied', async () => {
  const endpoint = { scac: 'TEST', baseUrl: `${sandboxUrl}/carriers/TEST`, version: '2.2' as const, terminalBaseUrl: `${sandboxUrl}/terminal` };
  const worker = new TrackingWorker({ db: t.db, clock: t.clock, connectors: new ConnectorRegistry([endpoint], t.clock) });
  const res = await t.request('POST', '/v2/tracking_requests', {
    body: { data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: 'TEST-DIRECT', scac: 'TEST' } } },
  });
  assert.equal(res.status, 201);
  await worker.drain();
  t.clock.advance(DAY);
  await worker.drain();
  // Asked again at once: the first answer with no event after one with events is a new answer
  // (its terminal asks may differ too); it is applied, with its digest.
  t.clock.advance(60_000);
  await makeDueNow(t.db, (await shipmentRow()).id, t.clock.now());
  await worker.drain();
  assert.ok((await shipmentRow()).carrier_answer_digest, 'the applied answer has a digest');
  // Its event part replaced by a marker, which only the full path (a diff and a write) would overwrite.
  await t.db.query(`UPDATE shipments SET carrier_answer_digest = 'marker.' || split_part(carrier_answer_digest, '.', 2) WHERE account_id = $1`, [t.accountId]);
  const applied = await shipmentRow();
  const events = await eventCount();

  // Due again at once: the carrier has published nothing since svc asked, the terminal says the same.
  t.clock.advance(60_000);
  await makeDueNow(t.db, applied.id, t.clock.now());
  await worker.drain();
  const checked = await shipmentRow();
  assert.equal(checked.carrier_answer_digest, applied.carrier_answer_digest, 'not diffed nor written: the digest of the answer applied stays');
  assert.deepEqual(checked.state, applied.state);
  assert.equal(checked.version, applied.version, 'the shipment row is not written: the check goes on its schedule row (migration 039)');
  assert.equal(+checked.last_checked_at!, +t.clock.now(), 'the check is recorded: svc asked now');
  assert.equal(+checked.line_tracking_last_changed_at, +applied.line_tracking_last_changed_at);
  // Every way the API shows the shipment counts the check: when svc asked, when the line answered.
  const asked = t.clock.now().toISOString();
  const seen = (a: Record<string, unknown>, how: string) => {
    assert.equal(a.line_tracking_last_attempted_at, asked, `${how}: line_tracking_last_attempted_at`);
    assert.equal(a.line_tracking_last_succeeded_at, asked, `${how}: line_tracking_last_succeeded_at`);
  };
  const get = async (path: string) => (await t.request('GET', path)).body;
  seen((await get(`/v2/shipments/${applied.id}`)).data.attributes, 'shown');
  seen((await get('/v2/shipments')).data[0].attributes, 'listed');
  seen((await get('/v2/shipments?filter[tracking_stopped]=false&sort=-line_tracking_last_succeeded_at')).data[0].attributes, 'listed, filtered and sorted by it');
  const container = (await get('/v2/containers')).data[0];
  seen((await get(`/v2/containers/${container.id}?include=shipment`)).included.find((r: { type: string }) => r.type === 'shipment').attributes, 'included');
  const patched = await t.request('PATCH', `/v2/shipments/${applied.id}`, { body: { data: { type: 'shipment', id: applied.id, attributes: { tags: ['checked'] } } } });
  seen(patched.body.data.attributes, 'as a PATCH answers it');
  assert.ok(checked.next_refresh_at && checked.next_refresh_at > t.clock.now(), 'and the next one scheduled');
  assert.equal(checked.locked_until, null, 'the lease released');
  assert.equal(await eventCount(), events, 'nothing announced');

  // Days later the journey has moved on: the answer is new, diffed and written.
  t.clock.advance(10 * DAY);
  await makeDueNow(t.db, applied.id, t.clock.now());
  await worker.drain();
  const moved = await shipmentRow();
  assert.notEqual(moved.carrier_answer_digest, applied.carrier_answer_digest);
  assert.ok((await eventCount()) > events, 'the news is announced');
  // Written with the news, in the same statement as the containers: what their trigger computes.
  const { rows: statuses } = await t.db.query(
    `SELECT s.container_statuses AS kept, ARRAY(SELECT DISTINCT coalesce(c.state->>'current_status', 'new') FROM containers c WHERE c.shipment_id = s.id ORDER BY 1) AS actual
       FROM shipments s WHERE s.account_id = $1`,
    [t.accountId],
  );
  assert.deepEqual(statuses[0].kept, statuses[0].actual);
  assert.ok(statuses[0].kept.length > 0);
});
