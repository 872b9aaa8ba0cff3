// AIS from a real TCP feed on loopback into PostgreSQL: vessels matched by the IMO number of their
// static reports, positions downsampled and batched, bad sentences counted and skipped, the
// connection remade after the feed drops it, and the retention rule.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Registry } from 'prom-client';
import { registerAisMetrics } from '../src/ais/counters.ts';
import { AisWorker } from '../src/ais/worker.ts';
import { ManualClock } from '../src/clock.ts';
import { DAY, MINUTE } from '../src/domain/time-units.ts';
import { learnVessels } from '../src/store/learned-vessels.ts';
import { vesselTrackOfImo, type VesselPosition } from '../src/store/vessel-positions.ts';
import { FeedServer, position, until, voyage, withChecksum } from './support/ais-feed.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

let t: TestDatabase;
before(async () => void (t = await freshDatabase()));
after(() => t.drop());

// Reference vessels (refdata/vessels.csv); no reference row has this one.
const EVER_GIVEN = '9811000';
const EVER_ACE = '9893890';
const UNKNOWN_IMO = 9074729;
const GIVEN = 353136000;
const ACE = 477000002;
const STRANGER = 235000003;

const track = (imo: string) => vesselTrackOfImo(t.db, imo, new Date('2000-01-01Z'), new Date('2100-01-01Z'));
const times = (positions: VesselPosition[]) => positions.map((p) => p.at.toISOString());

describe('ingest from a TCP feed', () => {
  let server: FeedServer;
  let worker: AisWorker;
  const clock = new ManualClock('2026-03-01T00:00:00Z');
  const waits: number[] = [];
  let sent = 0;

  /** Sends the lines, waits until the worker has read them, then writes its batch. */
  const feed = async (lines: string[]) => {
    sent += lines.length;
    await server.send(lines);
    await until(() => worker.counters.sentences >= sent, `${sent} sentences`);
    await worker.ingester.flush();
  };

  before(async () => {
    server = await FeedServer.start();
    worker = new AisWorker({
      db: t.db,
      clock,
      feeds: [{ host: '127.0.0.1', port: server.port }],
      positionIntervalMs: 5 * MINUTE,
      retention: { fullResolutionMs: 30 * DAY, keepMs: 365 * DAY },
      useReportSecond: false,
      // Retry waits are recorded and skipped: the test never waits on time.
      feedOptions: { sleep: async (ms) => void waits.push(ms), random: () => 0 },
    });
    await worker.start();
  });
  after(async () => {
    await worker.stop();
    await server.close();
  });

  test('a position before the static report is held, then stored once the type 5 names a vessel svc knows', async () => {
    await feed([position(GIVEN, 1.25, 103.8)]);
    assert.deepEqual(await track(EVER_GIVEN), [], 'not known yet');
    clock.advance(20_000);
    await feed(voyage(GIVEN, Number(EVER_GIVEN), 'EVER GIVEN', 7));
    assert.deepEqual(times(await track(EVER_GIVEN)), ['2026-03-01T00:00:00.000Z']);
    assert.equal(worker.counters.staticReports, 1);
  });

  test('positions of a vessel whose IMO number svc does not know are not stored', async () => {
    await feed([...voyage(STRANGER, UNKNOWN_IMO, 'SOMEONE ELSE', 2), position(STRANGER, 50, 0)]);
    clock.advance(10 * MINUTE);
    await feed([position(STRANGER, 50.1, 0)]);
    assert.equal(worker.counters.positionsStored, 1, 'only EVER GIVEN so far');
  });

  test('a vessel a carrier named counts too, from the next time the ingester reads the vessels', async () => {
    const named = 9074731; // in no reference file
    const mmsi = 636000004;
    await learnVessels(t.db, [{ imo: String(named), name: 'NAMED BY A CARRIER' }], clock.now());
    await worker.ingester.loadVessels();
    await feed([...voyage(mmsi, named, 'NAMED BY A CARRIER', 4), position(mmsi, 10, 60)]);
    assert.equal((await track(String(named))).length, 1);
  });

  test('positions are downsampled: one per interval at sea, sooner on a sharp turn', async () => {
    const start = clock.now().getTime();
    const at = (ms: number) => new Date(start + ms).toISOString();
    const steps: [number, number][] = [
      [0, 90], // 5 min 20 s after the last kept: kept
      [10_000, 90],
      [60_000, 91],
      [120_000, 150], // a 60° turn: kept
      [300_000, 150],
      [420_000, 151], // 5 min after the turn: kept
    ];
    for (const [ms, cog] of steps) {
      clock.set(new Date(start + ms));
      await feed([position(GIVEN, 1.3 + ms / 1e7, 103.9, 16, cog)]);
    }
    assert.deepEqual(times(await track(EVER_GIVEN)).slice(1), [at(0), at(120_000), at(420_000)]);
  });

  test('bad checksums, garbage, orphan fragments and unused types are counted and skipped; the feed goes on', async () => {
    const good = position(ACE, 30, 120);
    const before = { ...worker.counters.skipped };
    await feed([
      good.slice(0, -2) + (good.endsWith('00') ? '01' : '00'),
      'garbage \u0000\u00ff',
      voyage(ACE, Number(EVER_ACE), 'EVER ACE', 5)[1],
      withChecksum('!AIVDM,1,1,,A,B,0'), // a type 18 cut to one character
      ...voyage(ACE, Number(EVER_ACE), 'EVER ACE', 6),
      good,
    ]);
    const after = worker.counters.skipped;
    assert.deepEqual(
      { checksum: after.checksum - before.checksum, malformed: after.malformed - before.malformed, fragment: after.fragment - before.fragment },
      { checksum: 1, malformed: 2, fragment: 1 },
    );
    assert.equal((await track(EVER_ACE)).length, 1, 'the good lines still count');
  });

  test('after the feed drops the connection it is remade (backoff waits through the injected sleep)', async () => {
    const connections = server.connections;
    server.dropAll();
    await server.client();
    assert.equal(server.connections, connections + 1);
    assert.equal(worker.counters.reconnects, 1);
    assert.deepEqual(waits, [500], 'the first wait after a connection that delivered data is the shortest');
    clock.advance(10 * MINUTE);
    await feed([position(ACE, 30.02, 120.02)]);
    assert.equal((await track(EVER_ACE)).length, 2);
  });

  test('a position the ship could not have reached since its last one is not stored, and is counted', async () => {
    const before = (await track(EVER_ACE)).length;
    // 10 minutes after a report off Shanghai: off Rotterdam, then off Singapore.
    clock.advance(10 * MINUTE);
    await feed([position(ACE, 51.9, 4.4)]);
    await feed([position(ACE, 1.2, 103.8)]);
    clock.advance(10 * MINUTE);
    await feed([position(ACE, 30.04, 120.04)]);
    const stored = await track(EVER_ACE);
    assert.equal(stored.length, before + 1, 'only the report near the last accepted one');
    assert.ok(Math.abs(stored.at(-1)!.latitude - 30.04) < 1e-3);
    assert.deepEqual(worker.counters.positionsRejected, { impossible_speed: 2, two_places: 0 });
  });

  test('the counters are exposed as Prometheus metrics', async () => {
    const registry = new Registry();
    registerAisMetrics(registry, worker.counters);
    const text = await registry.metrics();
    assert.match(text, new RegExp(`^svc_ais_sentences_total ${worker.counters.sentences}$`, 'm'));
    assert.match(text, /^svc_ais_sentences_skipped_total\{reason="checksum"\} 1$/m);
    assert.match(text, new RegExp(`^svc_ais_positions_stored_total ${worker.counters.positionsStored}$`, 'm'));
    assert.match(text, /^svc_ais_reconnects_total 1$/m);
    assert.match(text, /^svc_ais_positions_rejected_total\{reason="impossible_speed"\} 2$/m);
  });
});

test('a feed that refuses connections is retried with growing waits, and stopping ends the retries', async () => {
  const server = await FeedServer.start();
  const port = server.port;
  await server.close(); // nothing listens there now
  const waits: number[] = [];
  let worker: AisWorker | undefined = undefined;
  worker = new AisWorker({
    db: t.db,
    clock: new ManualClock(),
    feeds: [{ host: '127.0.0.1', port }],
    positionIntervalMs: 5 * MINUTE,
    retention: { fullResolutionMs: 30 * DAY, keepMs: null },
    useReportSecond: true,
    feedOptions: { sleep: async (ms) => void waits.push(ms), random: () => 0, backoff: { baseMs: 1000, maxMs: 8000 } },
  });
  await worker.start();
  await until(() => waits.length >= 6, 'six retries');
  await worker.stop();
  assert.deepEqual(waits.slice(0, 6), [500, 1000, 2000, 4000, 4000, 4000]);
  assert.ok(worker.counters.reconnects >= 6);
});
