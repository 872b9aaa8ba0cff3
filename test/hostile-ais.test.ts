// A hostile AIS feed on loopback: for a few seconds it sends as fast as TCP takes them garbage,
// valid position reports, over-long lines, a line that never ends, orphan and interleaved
// fragments and bad checksums. Decoding runs in the AIS worker's own thread, so the API keeps
// answering within a second on every probe meanwhile, and the valid positions still arrive.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { AisWorker } from '../src/ais/worker.ts';
import { DAY, MINUTE } from '../src/domain/time-units.ts';
import { systemClock } from '../src/clock.ts';
import { vesselTrackOfImo } from '../src/store/vessel-positions.ts';
import { position, voyage, withChecksum } from './support/ais-feed.ts';
import { startTestApp, type TestApp } from './support/app.ts';

// A reference vessel (refdata/vessels.csv) svc keeps positions of once its type 5 names it.
const EVER_GIVEN = '9811000';
const GIVEN = 353136000;
/** How long the feed floods, and how many lines at most: many probes, yet bounded work on a loaded machine. */
const FLOOD_MS = 4_000;
const FLOOD_LINES = 2_000_000;
const PROBE_EVERY_MS = 50;

let t: TestApp;
before(async () => void (t = await startTestApp()));
after(() => t.close());

const valid = Array.from({ length: 50 }, (_, i) => position(GIVEN + (i % 5), 1 + i / 100, 103 + i / 100));
// Vessels nobody knows, whose positions are held for a static report that never comes.
const strangers = Array.from({ length: 2_000 }, (_, i) => position(200_000_000 + i * 7_919, -10 + i / 1000, 20));
const type5 = voyage(GIVEN + 1, 9074729, 'SOMEONE ELSE');
const PAYLOAD = '5'.repeat(60);

/** One round of the flood: every kind of bad line, and valid positions among them. */
function floodRound(round: number): string {
  const lines: string[] = [];
  // First fragments under ids never seen before, whose other part never comes.
  for (let i = 0; i < 100; i++) lines.push(withChecksum(`!AIVDM,2,1,${round}x${i},A,${PAYLOAD},0`));
  for (let i = 0; i < 400; i++) {
    lines.push(valid[i % valid.length]);
    lines.push(strangers[(round * 400 + i) % strangers.length]);
    lines.push(`garbage ${i} \u0000\u00ff!!AIVDM,,,,`);
    lines.push(valid[i % valid.length].slice(0, -2) + '00'); // a bad checksum (or, rarely, a good one)
    lines.push(type5[0]); // first fragments that are never finished
    lines.push(type5[1]); // orphan last fragments
    lines.push(withChecksum(`!AIVDM,9,1,${i},A,${PAYLOAD},0`)); // a first of nine
    if (i % 50 === 0) lines.push('!AIVDM,1,1,,A,' + 'x'.repeat(20_000)); // over-long
  }
  return lines.map((l) => `${l}\r\n`).join('');
}

/** A feed that sends its static report, then floods for FLOOD_MS and ends with a line that never ends. */
async function hostileFeed() {
  let bytes = 0;
  let lines = 0;
  const server = createServer((socket: Socket) => {
    socket.on('error', () => {});
    void (async () => {
      socket.write(voyage(GIVEN, Number(EVER_GIVEN), 'EVER GIVEN').map((l) => `${l}\r\n`).join(''));
      const until = Date.now() + FLOOD_MS;
      for (let n = 0; Date.now() < until && lines < FLOOD_LINES && !socket.destroyed; n++) {
        const round = floodRound(n);
        bytes += round.length;
        lines += round.split('\n').length - 1;
        if (!socket.write(round)) await once(socket, 'drain');
      }
      socket.write('!AIVDM,1,1,,A,' + 'y'.repeat(2_000_000));
      finished();
    })();
  });
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    done,
    sent: () => ({ bytes, lines }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('a hostile feed: /healthz answers within 1 s on every probe, and the valid positions are stored', { timeout: 60_000 }, async () => {
  const feed = await hostileFeed();
  const worker = new AisWorker({
    db: t.db,
    clock: systemClock,
    feeds: [{ host: '127.0.0.1', port: feed.port }],
    positionIntervalMs: 5 * MINUTE,
    retention: { fullResolutionMs: 30 * DAY, keepMs: 365 * DAY },
    useReportSecond: false,
  });
  await worker.start();
  const probes: number[] = [];
  let flooding = true;
  const probing = (async () => {
    while (flooding) {
      const started = performance.now();
      const res = await fetch(`${t.baseUrl}/healthz`);
      await res.arrayBuffer();
      assert.equal(res.status, 200);
      probes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  try {
    await feed.done;
    await worker.decoded();
    flooding = false;
    await probing;
    const { lines } = feed.sent();
    const slowest = Math.max(...probes);
    const { counters } = worker;
    const report = `${probes.length} probes, slowest ${slowest.toFixed(0)} ms; ${lines} lines sent, ${counters.sentences} read, ${counters.bytesDropped} bytes dropped, ${counters.positionReports} positions`;
    assert.ok(lines > 100_000, `the feed sent hundreds of thousands of lines: ${report}`);
    assert.ok(probes.length >= 5, report);
    assert.ok(
      probes.every((ms) => ms < 1_000),
      report,
    );
    assert.ok(counters.positionReports > 1_000, report);
    assert.ok(worker.ingester.held <= 50_000, `${worker.ingester.held} positions held`);
    assert.ok(counters.skipped.malformed > 1_000 && counters.skipped.checksum > 0 && counters.skipped.fragment > 0, JSON.stringify(counters.skipped));
    await worker.ingester.flush();
    assert.ok((await vesselTrackOfImo(t.db, EVER_GIVEN, new Date('2000-01-01Z'), new Date('2100-01-01Z'))).length >= 1);
    process.stderr.write(`hostile AIS feed: ${report}\n`);
  } finally {
    flooding = false;
    await probing.catch(() => {});
    await worker.stop();
    await feed.close();
  }
});
