// `svc serve` with SVC_AIS_FEEDS: a real process connects to a loopback feed, stores the positions
// of a vessel it knows, and stops cleanly on Ctrl-C; SVC_AIS_FEEDS set but empty means no feed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../src/config/index.ts';
import { vesselTrackOfImo } from '../src/store/vessel-positions.ts';
import { FeedServer, position, voyage } from './support/ais-feed.ts';
import type { TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';
import { freePort, serveDatabase, startServe, stopServe } from './support/svc-process.ts';

let database: TestDatabase;
forFile(serveDatabase, (s) => (database = s), (s) => s.drop());

test('SVC_AIS_FEEDS: a host:port list; empty or unset means no feeds; a bad item is refused', () => {
  assert.deepEqual(loadConfig({}).SVC_AIS_FEEDS, []);
  assert.deepEqual(loadConfig({ SVC_AIS_FEEDS: '' }).SVC_AIS_FEEDS, []);
  assert.deepEqual(loadConfig({ SVC_AIS_FEEDS: ' 127.0.0.1:10110, ais.example.com:5631 ,[::1]:2000,' }).SVC_AIS_FEEDS, [
    { host: '127.0.0.1', port: 10110 },
    { host: 'ais.example.com', port: 5631 },
    { host: '::1', port: 2000 },
  ]);
  assert.throws(() => loadConfig({ SVC_AIS_FEEDS: '127.0.0.1' }), /SVC_AIS_FEEDS: "127.0.0.1" is not host:port/);
  assert.throws(() => loadConfig({ SVC_AIS_FEEDS: 'host:70000' }), /SVC_AIS_FEEDS/);
});

test('svc serve reads the feed, stores positions of a vessel it knows, and stops cleanly', async () => {
  const feed = await FeedServer.start();
  const svc = await startServe({ DATABASE_URL: database.url, SVC_SANDBOX: 'false', SVC_AIS_FEEDS: `127.0.0.1:${feed.port}` });
  try {
    assert.match(svc.stderr(), new RegExp(`AIS feeds: 127.0.0.1:${feed.port}`));
    await feed.send([...voyage(353136000, 9811000, 'EVER GIVEN'), position(353136000, 1.25, 103.8)]);
    // svc writes its batch within a second; read until it is there (no sleeping, no timing).
    let stored = 0;
    while (stored === 0) stored = (await vesselTrackOfImo(database.db, '9811000', new Date('2000-01-01Z'), new Date('2100-01-01Z'))).length;
    assert.equal(stored, 1);
  } finally {
    assert.equal(await stopServe(svc), 0);
    await feed.close();
  }
});

test('a feed that refuses connections is logged as such, with its host:port, and never as the database being unreachable', async () => {
  const port = await freePort();
  const svc = await startServe({ DATABASE_URL: database.url, SVC_SANDBOX: 'false', SVC_AIS_FEEDS: `127.0.0.1:${port}` });
  try {
    // The first attempt is refused at once; a few retries follow within seconds.
    const feedLines = () => svc.stdout().split('\n').filter((l) => l.includes('AIS feed connection'));
    while (feedLines().length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    const record = JSON.parse(feedLines()[0]);
    assert.equal(record.msg, 'AIS feed connection lost or refused; retrying');
    assert.equal(record.feed, `127.0.0.1:${port}`);
    assert.equal(record.worker, 'ais');
    assert.match(record.err, /ECONNREFUSED/);
    // The database answers all along: nothing may say otherwise, nor quiet its real errors.
    assert.doesNotMatch(svc.stdout() + svc.stderr(), /database unreachable/);
    assert.equal((await fetch(`${svc.origin}/healthz`)).status, 200);
  } finally {
    assert.equal(await stopServe(svc), 0);
  }
});
