// As root, the embedded PostgreSQL runs as the OS user `postgres`: it must reach binaries and data
// that live under a folder only root may enter (a checkout in root's home), or svc says in one line
// why not and how to fix it.
import assert from 'node:assert/strict';
import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { canEnter, EmbeddedPostgresError, letUserReach, osUser } from '../src/store/embedded-access.ts';

const asRoot = process.getuid?.() === 0;
const user = osUser('postgres');

test('canEnter reads owner, group and other search bits', () => {
  const u = { uid: 101, gid: 104 };
  assert.equal(canEnter({ uid: 0, gid: 0, mode: 0o40700 }, u), false);
  assert.equal(canEnter({ uid: 0, gid: 0, mode: 0o40701 }, u), true);
  assert.equal(canEnter({ uid: 0, gid: 104, mode: 0o40710 }, u), true);
  assert.equal(canEnter({ uid: 101, gid: 0, mode: 0o40077 }, u), false, 'the owner bits decide for the owner');
});

test('binaries in a private folder become runnable by the postgres user', { skip: !asRoot || !user ? 'needs root and a postgres user' : false }, async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'svc-private-'));
  try {
    chmodSync(home, 0o700);
    const bin = path.join(home, 'node_modules', 'native', 'bin');
    mkdirSync(bin, { recursive: true });
    const exe = path.join(bin, 'postgres');
    copyFileSync('/bin/true', exe);
    chmodSync(exe, 0o755);
    const run = () => spawnSync(exe, [], { uid: user!.uid, gid: user!.gid });
    assert.equal((run().error as NodeJS.ErrnoException | undefined)?.code, 'EACCES', 'unreachable before');
    const changed = await letUserReach([bin], user!);
    assert.deepEqual(changed, [home]);
    assert.equal(statSync(home).mode & 0o777, 0o701, 'search only, for others');
    assert.equal(run().status, 0);
    assert.deepEqual(await letUserReach([bin], user!), [], 'nothing left to change');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a folder that cannot be opened up: one line naming it and the fixes', { skip: !asRoot || !user ? 'needs root and a postgres user' : false }, async () => {
  // /proc/1/fd is root-only and its mode cannot be changed, like a read-only mount.
  await assert.rejects(letUserReach(['/proc/1/fd'], user!), (err: Error) => {
    assert.ok(err instanceof EmbeddedPostgresError);
    assert.doesNotMatch(err.message, /\n/);
    assert.match(err.message, /postgres, which cannot enter \/proc\/1\/fd .*chmod o\+x \/proc\/1\/fd.*SVC_DATA_DIR.*DATABASE_URL/);
    return true;
  });
});
