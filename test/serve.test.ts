// `svc serve` as a user runs it: a real process, its banner, Ctrl-C, and a restart that keeps data.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freshDatabase, type TestDatabase } from './support/database.ts';

const bin = path.resolve(import.meta.dirname, '../bin/svc.js');
// One svc serve per data folder: this file's servers get their own, apart from other files' and `npm start`'s.
process.env.SVC_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'svc-serve-'));

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  base: string;
}

/** Starts svc and resolves once it prints its REST base URL (on stderr: stdout is for JSON log lines). */
function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [bin, 'serve'], { env: { ...process.env, PORT: '0', SVC_SANDBOX_PORT: '0', SVC_LOG_LEVEL: 'warn', ...env } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /REST API: (\S+)/.exec(err);
      if (m && err.slice(m.index).includes('\n\n')) resolve({ child, stdout: () => out, stderr: () => err, base: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`svc exited with ${code} before it was ready:\n${err}`)));
  });
}

/** Ctrl-C; resolves with the exit code, after echoing svc's stderr when it is not 0. */
function stop(r: Running): Promise<number | null> {
  return new Promise((resolve) => {
    r.child.on('exit', (code) => {
      if (code !== 0) process.stderr.write(`svc exited with ${code}; its stderr:\n${r.stderr()}\n`);
      resolve(code);
    });
    r.child.kill('SIGINT');
  });
}

const get = async (url: string, key?: string) => {
  const res = await fetch(url, { headers: key ? { authorization: `Token ${key}` } : {} });
  return { status: res.status, body: await res.json().catch(() => undefined) };
};
/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const printedKey = (out: string) => /API key \(shown once, keep it\): (\S+)/.exec(out)?.[1];

let database: TestDatabase;
before(async () => {
  database = await freshDatabase();
});
after(async () => {
  rmSync(process.env.SVC_DATA_DIR!, { recursive: true, force: true });
  await database.drop();
});

test('with DATABASE_URL: prints a key once, serves it, stops on SIGINT, restarts with the data kept', async () => {
  const first = await start({ DATABASE_URL: database.url });
  const key = printedKey(first.stderr());
  assert.ok(key, first.stderr());
  assert.equal((await get(`${first.base}/parties`)).status, 401);
  const ok = await get(`${first.base}/parties`, key);
  assert.equal(ok.status, 200);
  assert.equal(await stop(first), 0);

  const second = await start({ DATABASE_URL: database.url });
  assert.equal(printedKey(second.stderr()), undefined, 'the key is shown only on the first start');
  assert.equal((await get(`${second.base}/parties`, key)).status, 200);
  assert.equal(await stop(second), 0);
});

test('SVC_BOOTSTRAP_API_KEY is created for the default account', async () => {
  const bootstrap = 'bootstrap_key_for_tests_0123456789';
  const r = await start({ DATABASE_URL: database.url, SVC_BOOTSTRAP_API_KEY: bootstrap });
  try {
    assert.equal((await get(`${r.base}/parties`, bootstrap)).status, 200);
  } finally {
    await stop(r);
  }
});

test('without DATABASE_URL: an embedded PostgreSQL in SVC_DATA_DIR, kept across restarts', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-data-'));
  const env = { DATABASE_URL: '', SVC_DATA_DIR: dataDir, SVC_EMBEDDED_PG_PORT: String(await freePort()) };
  try {
    const first = await start(env);
    const key = printedKey(first.stderr())!;
    const created = await fetch(`${first.base}/parties`, {
      method: 'POST',
      headers: { authorization: `Token ${key}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'party', attributes: { company_name: 'Kept Co' } } }),
    });
    assert.equal(created.status, 201);
    assert.equal((await get(`${first.base}/shipping_lines/MAEU`, key)).status, 200);
    assert.equal(await stop(first), 0);

    const second = await start(env);
    const list = await get(`${second.base}/parties`, key);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((p: any) => p.attributes.company_name), ['Kept Co']);

    // A crash (kill -9) orphans the PostgreSQL child; the next start stops it and carries on.
    second.child.kill('SIGKILL');
    await new Promise((resolve) => second.child.on('exit', resolve));
    const third = await start(env);
    assert.equal((await get(`${third.base}/parties`, key)).body.data.length, 1);
    assert.equal(await stop(third), 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('stdout carries only JSON log lines, never the key; the banner with the key and warnings go to stderr', async () => {
  const own = await freshDatabase(); // a first start, so that the key is printed
  try {
    const r = await start({ DATABASE_URL: own.url, SVC_LOG_LEVEL: 'info', SVC_WEBHOOK_ALLOW_INSECURE: 'true' });
    const key = printedKey(r.stderr());
    assert.ok(key, r.stderr());
    assert.equal((await get(`${r.base}/parties`, key)).status, 200);
    assert.equal((await get(`${r.base}/parties`, 'svc_wrong_key_that_is_also_secret')).status, 401);
    assert.equal(await stop(r), 0);

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
