// The `svc` command against a real database: accounts and keys as an operator manages them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from './support/app.ts';

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '../bin/svc.js');

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const svc = (...args: string[]) => run(process.execPath, [bin, ...args], { env: { ...process.env, DATABASE_URL: t.database.url } });
const keyFrom = (stdout: string) => /API key \(shown once, keep it\): (\S+)/.exec(stdout)![1];

test('accounts create prints a working key; keys list masks it; keys revoke disables it', async () => {
  const created = await svc('accounts', 'create', 'CLI Logistics');
  const key = keyFrom(created.stdout);
  const accountId = /account ([0-9a-f-]{36})/.exec(created.stdout)![1];
  assert.equal((await t.request('GET', '/v2/parties', { key })).status, 200);

  const accounts = await svc('accounts', 'list');
  assert.match(accounts.stdout, /CLI Logistics/);

  const second = await svc('keys', 'create', '--account', accountId, '--name', 'ci');
  const secondKey = keyFrom(second.stdout);
  const keyId = /key ([0-9a-f-]{36})/.exec(second.stdout)![1];

  const listed = await svc('keys', 'list', '--account', accountId);
  assert.ok(!listed.stdout.includes(key) && !listed.stdout.includes(secondKey), 'keys are never listed in full');
  assert.ok(listed.stdout.includes(`${secondKey.slice(0, 8)}…${secondKey.slice(-4)}`));

  assert.match((await svc('keys', 'revoke', keyId)).stdout, /^revoked key /);
  assert.match((await svc('keys', 'revoke', keyId)).stdout, /was already revoked at /, 'a second revoke says so');
  assert.equal((await t.request('GET', '/v2/parties', { key: secondKey })).status, 401);
  assert.equal((await t.request('GET', '/v2/parties', { key })).status, 200);
});

test('bad usage exits 2 with the usage text; a bad variable names itself', async () => {
  await assert.rejects(svc('keys', 'revoke', 'nope'), (err: any) => err.code === 2 && /usage: svc/.test(err.stderr));
  await assert.rejects(
    run(process.execPath, [bin, 'accounts', 'list'], { env: { ...process.env, DATABASE_URL: t.database.url, PORT: 'abc' } }),
    (err: any) => err.code === 1 && /PORT/.test(err.stderr),
  );
});
