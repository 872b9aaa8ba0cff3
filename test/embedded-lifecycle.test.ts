// The embedded PostgreSQL's life under a real `svc serve`: a private data folder as root, its own
// password, one serve per data folder, surviving the server being killed, and a stale pid file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { dataDirPassword, LEGACY_PASSWORD } from '../src/store/embedded-password.ts';
import { isAlive } from '../src/store/process-identity.ts';
import { freePort, runSvc, spawnSvc, startServe, stopServe, type SvcProcess } from './support/svc-process.ts';

const KEY = 'lifecycle_test_key_0123456789abcdef';
// A folder only its owner may enter, as root's home is: as root, svc must still get its server running.
const home = mkdtempSync(path.join(tmpdir(), 'svc-home-'));
chmodSync(home, 0o700);
const dataDir = path.join(home, 'checkout', 'data');
after(() => rmSync(home, { recursive: true, force: true }));

let pgPort: number;
let env: Record<string, string>;
const connects = async (password: string) => {
  const client = new pg.Client({ connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/svc` });
  try {
    await client.connect();
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === '28P01') return false;
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
};
const api = (svc: SvcProcess, p: string) => fetch(`${svc.origin}${p}`, { headers: { authorization: `Token ${KEY}` } });
const postmasterPid = () => Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

test('one serve: random password, a second serve refused, and the server killed under it comes back', async () => {
  pgPort = await freePort();
  // Fast worker loops: without quieting, an outage would fill stderr within the second it lasts.
  env = { DATABASE_URL: '', SVC_DATA_DIR: dataDir, SVC_EMBEDDED_PG_PORT: String(pgPort), SVC_BOOTSTRAP_API_KEY: KEY, SVC_WORKER_INTERVAL_MS: '50', SVC_DELIVERY_INTERVAL_MS: '20' };
  const svc = await startServe(env);
  try {
    // Its own password, readable only by svc's user; the old fixed one gets nowhere.
    const file = path.join(dataDir, 'pg-password');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const password = readFileSync(file, 'utf8').trim();
    assert.ok(await connects(password));
    assert.equal(await connects(LEGACY_PASSWORD), false);

    // A second serve on the same folder: one line, exit 1; the CLI on the same database still works.
    const second = runSvc(['serve'], { ...env, PORT: '0', SVC_SANDBOX_PORT: '0' });
    assert.equal(second.status, 1, second.stderr);
    assert.match(second.stderr, new RegExp(`^svc: another svc serve \\(pid ${svc.child.pid}\\) already uses ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; stop it`, 'm'));
    assert.doesNotMatch(second.stderr, /^\s+at /m);
    const cli = runSvc(['accounts', 'list'], env);
    assert.equal(cli.status, 0, cli.stderr);
    const deliver = spawnSvc(['deliver'], env);
    let deliverErr = '';
    await new Promise<void>((resolve, reject) => {
      deliver.stderr!.on('data', (d) => (deliverErr += d) && deliverErr.includes('webhook delivery worker running') && resolve());
      deliver.on('exit', (code) => reject(new Error(`svc deliver exited with ${code}:\n${deliverErr}`)));
    });
    deliver.kill('SIGINT');
    await new Promise((resolve) => deliver.once('exit', resolve));

    // kill -9 the postmaster, and keep the next ones from starting for a while: its pid file names
    // a live process of the server's OS user, so PostgreSQL refuses to start (as after a real crash
    // whose children linger). The outage is visible meanwhile.
    const pid = postmasterPid();
    process.kill(pid, 'SIGKILL');
    const owner = statSync(path.join(dataDir, 'pg'));
    const blocker = spawn('sleep', ['60'], { uid: owner.uid, gid: owner.gid });
    writeFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), `${blocker.pid}\n${path.join(dataDir, 'pg')}\n`);
    try {
      const res = await api(svc, '/v2/parties');
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('retry-after'), '5');
      assert.equal((await res.json()).errors[0].code, 'database_unavailable');
      for (const p of ['/v2/shipments', '/v2/tracking_requests', '/v2/webhooks']) assert.equal((await api(svc, p)).status, 503, p);
      assert.equal((await fetch(`${svc.origin}/healthz`)).status, 503);
      await delay(600); // worker polls and at least one refused restart during the outage
    } finally {
      blocker.kill();
    }
    // The supervisor's next attempt starts it.
    for (let i = 0; i < 400 && (await fetch(`${svc.origin}/healthz`)).status !== 200; i++) await delay(50);
    assert.equal((await api(svc, '/v2/parties')).status, 200);
    assert.notEqual(postmasterPid(), pid);
    const err = svc.stderr();
    assert.equal(err.match(/embedded PostgreSQL stopped unexpectedly/g)?.length, 1, err);
    const complaints = err.split('\n').filter((l) => /ECONNREFUSED|ECONNRESET|not yet accepting|postmaster exit|database unreachable/.test(l));
    assert.ok(complaints.length <= 4, err);

    // Make the cluster look like one from before per-folder passwords, for the next test.
    const admin = new pg.Client({ connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/postgres` });
    await admin.connect();
    await admin.query(`ALTER ROLE postgres PASSWORD '${LEGACY_PASSWORD}'`);
    await admin.end();
  } finally {
    assert.equal(await stopServe(svc), 0, svc.stderr());
  }
  unlinkSync(path.join(dataDir, 'pg-password'));
});

test('a stale postmaster.pid and serve.lock naming a live, unrelated process: svc starts and leaves it alone; an old cluster gets its own password', async () => {
  const sleeper = spawn('sleep', ['300']);
  try {
    const pid = sleeper.pid!;
    writeFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), `${pid}\n${path.join(dataDir, 'pg')}\n${Math.floor(Date.now() / 1000)}\n${pgPort}\n\n127.0.0.1\n  1234  5678\nready\n`);
    writeFileSync(path.join(dataDir, 'serve.lock'), JSON.stringify({ pid, started: 'long ago' }));
    const svc = await startServe(env);
    try {
      assert.equal((await api(svc, '/v2/parties')).status, 200);
      assert.ok(isAlive(pid) && sleeper.exitCode === null && sleeper.signalCode === null, 'the unrelated process is untouched');
      // The old fixed password was replaced by the folder's own.
      const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
      assert.equal(statSync(path.join(dataDir, 'pg-password')).mode & 0o777, 0o600);
      assert.ok(await connects(password));
      assert.equal(await connects(LEGACY_PASSWORD), false);
    } finally {
      assert.equal(await stopServe(svc), 0, svc.stderr());
    }
  } finally {
    sleeper.kill();
  }
});

test('each data folder gets its own password', async () => {
  const a = mkdtempSync(path.join(tmpdir(), 'svc-pw-'));
  const b = mkdtempSync(path.join(tmpdir(), 'svc-pw-'));
  try {
    const first = await dataDirPassword(a);
    assert.equal(await dataDirPassword(a), first, 'kept');
    assert.notEqual(await dataDirPassword(b), first);
  } finally {
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
  }
});

test('a shutdown that runs out of time still stops the embedded PostgreSQL', { timeout: 90_000 }, async () => {
  const dir = path.join(home, 'out-of-time', 'data');
  // A webhook receiver that never answers: svc's trigger request waits on it for the webhook
  // timeout, far beyond svc's own limit on a shutdown, so closing the HTTP server hangs.
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const receiver = createServer((req) => {
    req.resume();
    arrived();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const svc = await startServe({
    DATABASE_URL: '',
    SVC_DATA_DIR: dir,
    SVC_EMBEDDED_PG_PORT: String(await freePort()),
    SVC_BOOTSTRAP_API_KEY: KEY,
    SVC_WEBHOOK_ALLOW_INSECURE: 'true',
    SVC_WEBHOOK_TIMEOUT_MS: '60000',
  });
  const pid = Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  try {
    assert.ok(isAlive(pid));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    const pending = fetch(`${svc.base}/webhooks/trigger`, {
      method: 'POST',
      headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, event: 'container.created' }),
    }).catch(() => undefined);
    await arrival;
    svc.child.kill('SIGINT');
    assert.equal(await svc.exited, 1, svc.stderr());
    assert.match(svc.stderr(), /shutdown did not end within 10 s \(still stopping the HTTP server\); exiting/);
    await pending;
    // Told to stop as svc exited; a fast shutdown takes moments.
    for (let i = 0; i < 200 && isAlive(pid); i++) await delay(50);
    assert.equal(isAlive(pid), false, `the embedded PostgreSQL (pid ${pid}) outlived svc`);
  } finally {
    receiver.closeAllConnections();
    receiver.close();
    if (isAlive(pid)) process.kill(pid, 'SIGINT');
  }
});
