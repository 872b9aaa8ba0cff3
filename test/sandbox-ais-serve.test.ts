// `svc serve` with the sandbox on: the sandbox AIS feed listens beside it, is svc's AIS feed unless
// SVC_AIS_FEEDS names others (aisFeeds), and sends a registered journey's ship as NMEA lines over
// TCP; a taken SVC_SANDBOX_AIS_PORT stops start-up with one line naming it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import gg from 'ggencoder';
import { aisFeeds, feedLabel } from '../src/config/ais-feeds.ts';
import { loadConfig } from '../src/config/index.ts';
import { TEST_NUMBERS } from '../src/sandbox/test-numbers.ts';
import { vesselTrackOfImo } from '../src/store/vessel-positions.ts';
import type { TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';
import { serveDatabase, spawnSvc, startServe, stopServe } from './support/svc-process.ts';

let database: TestDatabase;
forFile(serveDatabase, (s) => (database = s), (s) => s.drop());

test('aisFeeds: SVC_AIS_FEEDS when set, else the sandbox feed on loopback when the sandbox runs, else none', () => {
  assert.equal(loadConfig({}).SVC_SANDBOX_AIS_PORT, 8091);
  assert.equal(loadConfig({ SVC_SANDBOX_AIS_PORT: '0' }).SVC_SANDBOX_AIS_PORT, 0);
  assert.throws(() => loadConfig({ SVC_SANDBOX_AIS_PORT: '70000' }), /SVC_SANDBOX_AIS_PORT/);
  const feeds = (text?: string) => loadConfig(text === undefined ? {} : { SVC_AIS_FEEDS: text });
  const sandbox = { host: '127.0.0.1', port: 8091 };
  assert.deepEqual(aisFeeds({ ...feeds(), SVC_SANDBOX: true }, 8091), [sandbox]);
  assert.deepEqual(aisFeeds({ ...feeds(''), SVC_SANDBOX: true }, 40123), [{ host: '127.0.0.1', port: 40123 }]);
  assert.deepEqual(aisFeeds({ ...feeds('ais.example.com:5631'), SVC_SANDBOX: true }, 8091), [{ host: 'ais.example.com', port: 5631 }]);
  assert.deepEqual(aisFeeds({ ...feeds(' a.example:1, ,[::1]:2 '), SVC_SANDBOX: true }, 8091).map(feedLabel), ['a.example:1', '[::1]:2']);
  assert.deepEqual(aisFeeds({ ...feeds(), SVC_SANDBOX: false }, undefined), []);
  assert.deepEqual(aisFeeds({ ...feeds('a.example:1'), SVC_SANDBOX: false }).map(feedLabel), ['a.example:1']);
});

test('svc serve: the banner names the sandbox AIS feed, and a registered journey\'s ship comes over it', async () => {
  const svc = await startServe({ DATABASE_URL: database.url });
  try {
    const feed = /AIS feeds: 127\.0\.0\.1:(\d+)/.exec(svc.stderr());
    assert.ok(feed, svc.stderr());
    assert.match(svc.stderr(), new RegExp(`sandbox AIS feed on 127\\.0\\.0\\.1:${feed[1]}`));
    const socket = connect(Number(feed[1]), '127.0.0.1');
    await once(socket, 'connect');
    socket.setEncoding('utf8');
    let received = '';
    socket.on('data', (chunk: string) => (received += chunk));
    // Asking the sandbox for a journey registers it; its ships then transmit.
    const journey = TEST_NUMBERS.find((t) => t.behaviour.kind === 'journey' && t.scac !== 'TEST')!;
    const truth = await (await fetch(`${svc.sandboxUrl}/sandbox/journeys/${journey.scac}/${journey.number}`)).json();
    const imos = new Set(truth.legs.map((l: { vessel: { imo: string } | null }) => l.vessel?.imo).filter(Boolean));
    const ships = await (await fetch(`${svc.sandboxUrl}/sandbox/vessels`)).json();
    assert.deepEqual(new Set(ships.map((s: { imo: string }) => s.imo)), imos, 'the ships of the registered journey');
    const mmsis = new Set(ships.map((s: { mmsi: string }) => s.mmsi));
    // One report per ship per real second at the default speed: wait for a valid position of one of them.
    for (;;) {
      const lines = received.split('\r\n').slice(0, -1);
      const position = lines.map((l) => new gg.AisDecode(l, {})).find((d) => d.valid && d.aistype === 1 && mmsis.has(d.mmsi));
      if (position) break;
      await once(socket, 'data');
    }
    socket.destroy();
    // And svc itself reads that feed by default: positions of those ships reach its database.
    const far = [new Date('2000-01-01Z'), new Date('2100-01-01Z')] as const;
    const stored = async () => (await Promise.all([...imos].map((imo) => vesselTrackOfImo(database.db, String(imo), ...far)))).flat().length;
    // (svc writes its batch within a second: read until it is there, no sleeping.)
    let count = 0;
    while (count === 0) count = await stored();
  } finally {
    assert.equal(await stopServe(svc), 0);
  }
});

test('SVC_SANDBOX_AIS_PORT taken: one line naming it, exit 1', async () => {
  const held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  const { port } = held.address() as AddressInfo;
  try {
    const child = spawnSvc(['serve'], { DATABASE_URL: database.url, SVC_SANDBOX_AIS_PORT: String(port) });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    assert.ok(stderr.includes(`svc: cannot listen on 127.0.0.1:${port}: address already in use (set SVC_SANDBOX_AIS_PORT)\n`), stderr);
    assert.doesNotMatch(stderr, /^\s+at /m);
  } finally {
    held.close();
  }
});
