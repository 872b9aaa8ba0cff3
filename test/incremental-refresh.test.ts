// Incremental refreshes lose nothing published while a lookup runs: svc asks the carrier for what
// it published since the moment svc last asked, not since the answer came back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConnectorRegistry } from '../src/carriers/registry.ts';
import { HOUR } from '../src/domain/time-units.ts';
import { buildSandboxServer, type SandboxApp } from '../src/sandbox/index.ts';
import { TrackingWorker } from '../src/services/tracking/worker.ts';
import { startTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
let sandbox: SandboxApp;
let sandboxUrl: string;
before(async () => {
  t = await startTestApp();
  // A slow carrier: every time it reads the clock, 20 minutes pass on the shared clock, so the
  // answer describes an earlier moment than the one at which svc receives it.
  const slowCarrierClock = {
    now: () => {
      const now = t.clock.now();
      t.clock.advance(20 * 60_000);
      return now;
    },
  };
  sandbox = await buildSandboxServer({ clock: slowCarrierClock });
  sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await sandbox.close();
  await t.close();
});

test('every milestone the carrier published reaches svc, though the carrier answers slowly', async () => {
  const endpoint = { scac: 'TEST', baseUrl: `${sandboxUrl}/carriers/TEST`, version: '2.2' as const, terminalBaseUrl: `${sandboxUrl}/terminal` };
  const worker = new TrackingWorker({ db: t.db, clock: t.clock, connectors: new ConnectorRegistry([endpoint], t.clock) });
  const res = await t.request('POST', '/v2/tracking_requests', {
    body: { data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: 'TEST-DIRECT', scac: 'TEST' } } },
  });
  assert.equal(res.status, 201);
  for (let i = 0; i < 80; i++) {
    await worker.drain();
    t.clock.advance(6 * HOUR);
  }

  const truth = await (await fetch(`${sandboxUrl}/sandbox/journeys/TEST/TEST-DIRECT`)).json();
  // `available` comes from terminal data without a carrier event; the others are carrier events.
  const published = new Set<string>(
    truth.milestones.filter((m: any) => m.published_at <= truth.now && m.event !== 'container.transport.available').map((m: any) => `${m.container} ${m.event}`),
  );
  assert.ok(published.size >= 8, `a whole journey was published (${published.size} milestones)`);

  const { rows } = await t.db.query<{ number: string; event: string }>(
    'SELECT c.number, e.event FROM transport_events e JOIN containers c ON c.id = e.container_id WHERE c.account_id = $1',
    [t.accountId],
  );
  const recorded = new Set(rows.map((r) => `${r.number} ${r.event}`));
  assert.deepEqual([...published].filter((m) => !recorded.has(m)), [], 'milestones published but never recorded');
});
