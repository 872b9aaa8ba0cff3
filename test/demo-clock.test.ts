// Demo time (the sandbox's accelerated clock) never goes backwards across restarts: after a clean
// stop it continues where it stopped, after a crash from at least the last time handed out.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../src/clock.ts';
import { HOUR } from '../src/domain/time-units.ts';
import { DemoClock, readReservation } from '../src/main/demo-clock.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { crashServe, startServe, stopServe, type SvcProcess } from './support/svc-process.ts';

describe('DemoClock', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-demo-clock-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const fileNamed = (name: string) => path.join(dir, name);

  test('a new data folder starts demo time at now, running speed times faster', () => {
    const real = new ManualClock('2026-03-01T00:00:00Z');
    const clock = new DemoClock(fileNamed('new.json'), 3600, real);
    assert.equal(clock.now().toISOString(), '2026-03-01T00:00:00.000Z');
    real.advance(1000);
    assert.equal(clock.now().toISOString(), '2026-03-01T01:00:00.000Z');
  });

  test('after a clean stop, the next run continues from exactly where the last one stopped', () => {
    const file = fileNamed('clean.json');
    const real = new ManualClock('2026-03-01T00:00:00Z');
    const first = new DemoClock(file, 3600, real);
    real.advance(24_000); // a day of demo time
    const last = first.now();
    first.close();
    real.advance(5000); // stopped for 5 real seconds: demo time does not move meanwhile
    const second = new DemoClock(file, 3600, real);
    assert.equal(second.now().toISOString(), last.toISOString());
    real.advance(1000);
    assert.equal(second.now().getTime(), last.getTime() + HOUR);
  });

  test('after a crash, the next run starts no earlier than any time the last one handed out', () => {
    const file = fileNamed('crash.json');
    const real = new ManualClock('2026-03-01T00:00:00Z');
    const first = new DemoClock(file, 3600, real);
    let last = first.now();
    for (let i = 0; i < 50; i++) {
      real.advance(777);
      last = first.now();
      // The reservation is on disk before the time is handed out.
      assert.ok(readReservation(file)!.getTime() >= last.getTime());
    }
    // No close(): the process died.
    const second = new DemoClock(file, 3600, real);
    assert.ok(second.now().getTime() >= last.getTime(), `${second.now().toISOString()} < ${last.toISOString()}`);
  });

  test('once real time has passed the stored demo time, demo time restarts from real time', () => {
    const file = fileNamed('behind.json');
    const real = new ManualClock('2026-03-01T00:00:00Z');
    new DemoClock(file, 2, real).close();
    real.advance(30 * 24 * HOUR);
    assert.equal(new DemoClock(file, 2, real).now().toISOString(), real.now().toISOString());
  });

  test('an unreadable file stops the start with a message saying what to do', () => {
    const file = fileNamed('bad.json');
    writeFileSync(file, '{"version":1,');
    assert.throws(() => new DemoClock(file, 1), /demo clock file .* is not valid JSON; move it away/);
  });
});

describe('svc serve with the sandbox: demo time across restarts', () => {
  let database: TestDatabase;
  let dataDir: string;
  before(async () => {
    database = await freshDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'svc-demo-data-'));
  });
  after(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // 100 demo hours a real second: without persistence, a restart would start demo time weeks earlier.
  const env = () => ({ DATABASE_URL: database.url, SVC_DATA_DIR: dataDir, SVC_SANDBOX_SPEED: '360000' });
  const demoNow = async (r: SvcProcess) => {
    const res = await fetch(`${r.sandboxUrl}/sandbox/clock`);
    return Date.parse(((await res.json()) as { now: string }).now);
  };
  /**
   * Starts svc and reads demo time for twice as long as the start took, returning the last reading.
   * The next run's first reading then comes sooner after its clock started than this last one did,
   * so a clock restarted from "now" (at this speed) would read earlier.
   */
  const run = async () => {
    const started = Date.now();
    const r = await startServe(env());
    assert.ok(r.sandboxUrl, r.stdout());
    const first = await demoNow(r);
    const until = Date.now() + Math.max(2000, 2 * (Date.now() - started));
    let last = first;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const now = await demoNow(r);
      assert.ok(now >= last, 'demo time moves forward within a run');
      last = now;
    }
    return { r, first, last };
  };

  test('the second run continues after a clean stop, the third after kill -9', async () => {
    const first = await run();
    assert.equal(await stopServe(first.r), 0);
    const second = await run();
    await crashServe(second.r);
    const third = await run();
    await stopServe(third.r);
    const iso = (ms: number) => new Date(ms).toISOString();
    assert.ok(second.first >= first.last, `after a clean stop, demo time went back from ${iso(first.last)} to ${iso(second.first)}`);
    assert.ok(third.first >= second.last, `after kill -9, demo time went back from ${iso(second.last)} to ${iso(third.first)}`);
  });
});
