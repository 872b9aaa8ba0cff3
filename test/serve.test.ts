// `svc serve` as a user runs it: a real process, its banner, Ctrl-C, and a restart that keeps data.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';
import { crashServe, freePort, serveDatabase, startServe, stopServe } from './support/svc-process.ts';

const get = async (url: string, key?: string) => {
  const res = await fetch(url, { headers: key ? { authorization: `Token ${key}` } : {} });
  return { status: res.status, body: await res.json().catch(() => undefined) };
};
const printedKey = (out: string) => /API key \(shown once, keep it\): (\S+)/.exec(out)?.[1];

let database: TestDatabase;
forFile(serveDatabase, (s) => (database = s), (s) => s.drop());

test('with DATABASE_URL: prints a key once, serves it, stops on SIGINT, restarts with the data kept', async () => {
  const first = await startServe({ DATABASE_URL: database.url });
  const key = printedKey(first.stderr());
  assert.ok(key, first.stderr());
  assert.equal((await get(`${first.base}/parties`)).status, 401);
  const ok = await get(`${first.base}/parties`, key);
  assert.equal(ok.status, 200);
  assert.equal(await stopServe(first), 0);

  const second = await startServe({ DATABASE_URL: database.url });
  assert.equal(printedKey(second.stderr()), undefined, 'the key is shown only on the first start');
  assert.equal((await get(`${second.base}/parties`, key)).status, 200);
  assert.equal(await stopServe(second), 0);
});

test('SVC_BOOTSTRAP_API_KEY is created for the default account', async () => {
  const bootstrap = 'bootstrap_key_for_tests_0123456789';
  const r = await startServe({ DATABASE_URL: database.url, SVC_BOOTSTRAP_API_KEY: bootstrap });
  try {
    assert.equal((await get(`${r.base}/parties`, bootstrap)).status, 200);
  } finally {
    await stopServe(r);
  }
});

test('Ctrl-C while a request is under way: its answer goes out, the kept-alive connection is ended, and svc exits 0', async () => {
  // A webhook receiver that holds its answer until told, so svc's trigger request waits on it.
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const receiver = createServer((req, res) => {
    req.resume();
    arrived();
    void held.then(() => res.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const key = 'under_way_key_for_tests_0123456789';
  try {
    const svc = await startServe({ DATABASE_URL: database.url, SVC_BOOTSTRAP_API_KEY: key, SVC_WEBHOOK_ALLOW_INSECURE: 'true' });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    // fetch keeps its connection alive after the answer, as a client about to send more would.
    const pending = fetch(`${svc.base}/webhooks/trigger`, {
      method: 'POST',
      headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, event: 'container.created' }),
    });
    await arrival;
    svc.child.kill('SIGINT');
    // The answer is let go only once svc no longer listens: its connection was busy when closing began.
    const { port } = new URL(svc.base);
    while (await accepts(Number(port)));
    answer();
    const res = await pending;
    assert.equal(res.status, 200);
    await res.text();
    const code = await svc.exited;
    assert.equal(code, 0, svc.stderr());
  } finally {
    receiver.close();
  }
});

/** Whether something listens on the loopback port now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

test('without DATABASE_URL: an embedded PostgreSQL in SVC_DATA_DIR, kept across restarts', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-data-'));
  const env = { DATABASE_URL: '', SVC_DATA_DIR: dataDir, SVC_EMBEDDED_PG_PORT: String(await freePort()) };
  try {
    const first = await startServe(env);
    const key = printedKey(first.stderr())!;
    const created = await fetch(`${first.base}/parties`, {
      method: 'POST',
      headers: { authorization: `Token ${key}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'party', attributes: { company_name: 'Kept Co' } } }),
    });
    assert.equal(created.status, 201);
    assert.equal((await get(`${first.base}/shipping_lines/MAEU`, key)).status, 200);
    assert.equal(await stopServe(first), 0);

    const second = await startServe(env);
    const list = await get(`${second.base}/parties`, key);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((p: any) => p.attributes.company_name), ['Kept Co']);

    // A crash (kill -9) orphans the PostgreSQL child; the next start stops it and carries on.
    await crashServe(second);
    const third = await startServe(env);
    assert.equal((await get(`${third.base}/parties`, key)).body.data.length, 1);
    assert.equal(await stopServe(third), 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('stdout carries only JSON log lines, never the key; the banner with the key and warnings go to stderr', async () => {
  const own = await freshDatabase(); // a first start, so that the key is printed
  try {
    const r = await startServe({ DATABASE_URL: own.url, SVC_LOG_LEVEL: 'info', SVC_WEBHOOK_ALLOW_INSECURE: 'true' });
    const key = printedKey(r.stderr());
    assert.ok(key, r.stderr());
    assert.equal((await get(`${r.base}/parties`, key)).status, 200);
    assert.equal((await get(`${r.base}/parties`, 'svc_wrong_key_that_is_also_secret')).status, 401);
    assert.equal(await stopServe(r), 0);

    const lines = r.stdout().split('\n').filter(Boolean);
    const records = lines.map((line) => {
      assert.doesNotThrow(() => JSON.parse(line), `not a JSON line: ${line}`);
      return JSON.parse(line);
    });
    assert.ok(records.some((x) => x.reqId && x.res?.statusCode === 200), 'request lines are there');
    assert.ok(records.some((x) => x.level === 40 && /SVC_WEBHOOK_ALLOW_INSECURE/.test(x.msg)), 'the insecure setting is also a warn line');
    assert.ok(!r.stdout().includes(key!) && !r.stdout().includes('svc_wrong_key_that_is_also_secret'));
    assert.match(r.stderr(), /warning: SVC_WEBHOOK_ALLOW_INSECURE=true/);
    assert.match(r.stderr(), /SIGINT received, shutting down/);
  } finally {
    await own.drop();
  }
});
