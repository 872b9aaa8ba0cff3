// The `svc` command against a real database: accounts and keys as an operator manages them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '../bin/svc.js');

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

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
  await assert.rejects(svc('keys', 'revoke'), (err: any) => err.code === 2 && /usage: svc/.test(err.stderr));
  await assert.rejects(svc('frobnicate'), (err: any) => err.code === 2 && /unknown command: frobnicate/.test(err.stderr) && /usage: svc/.test(err.stderr));
  await assert.rejects(svc('keys', 'list', '--acount', 'x'), (err: any) => err.code === 2 && /--acount/.test(err.stderr) && /usage: svc/.test(err.stderr));
  await assert.rejects(
    run(process.execPath, [bin, 'accounts', 'list'], { env: { ...process.env, DATABASE_URL: t.database.url, PORT: 'abc' } }),
    (err: any) => err.code === 1 && /PORT/.test(err.stderr),
  );
});

test('no command prints the usage and starts nothing (npm start runs svc serve)', async () => {
  // Were it to start a server, the timeout would end it and the assertion below would fail.
  const bare = run(process.execPath, [bin], { env: { ...process.env, DATABASE_URL: t.database.url, PORT: '0', SVC_SANDBOX_PORT: '0' }, timeout: 30_000 });
  await assert.rejects(bare, (err: any) => err.code === 2 && /usage: svc/.test(err.stderr) && /svc serve/.test(err.stderr));
});

test('a well-formed command that cannot be carried out says why in one line, without the usage', async () => {
  const unknownId = '00000000-0000-4000-8000-000000000000';
  const oneLine = (pattern: RegExp) => (err: any) => {
    assert.equal(err.code, 1, err.stderr);
    assert.match(err.stderr, pattern);
    assert.doesNotMatch(err.stderr, /usage: svc/);
    assert.equal(err.stderr.trim().split('\n').length, 1, err.stderr);
    return true;
  };
  await assert.rejects(svc('keys', 'revoke', unknownId), oneLine(new RegExp(`no key ${unknownId}`)));
  await assert.rejects(svc('keys', 'revoke', 'not-a-uuid'), oneLine(/not-a-uuid is not a key id/));
  await assert.rejects(svc('keys', 'create', '--account', unknownId), oneLine(new RegExp(`no account ${unknownId}`)));
  await assert.rejects(svc('keys', 'list', '--account', 'acme'), oneLine(/acme is not an account id/));
});

test('svc config shows the values in effect beside the defaults, secrets masked', async () => {
  const env = {
    ...process.env,
    PORT: '9999',
    DATABASE_URL: 'postgres://svc:hunter2-db-password@127.0.0.1:5432/svc?sslmode=disable',
    SVC_BOOTSTRAP_API_KEY: 'bootstrap_secret_key_0123456789',
    SVC_CARRIERS: JSON.stringify([{ scac: 'ABCD', baseUrl: 'https://dcsa.example.com', apiKey: 'carrier-secret-value', apiKeyHeader: 'X-Api-Key' }]),
    SVC_LOG_LEVEL: '',
  };
  const { stdout } = await run(process.execPath, [bin, 'config'], { env });
  const row = (name: string) => stdout.split('\n').find((l) => l.startsWith(`${name} `)) ?? '';
  assert.match(stdout, /^variable +value +default +meaning/);
  assert.match(row('PORT'), /^PORT +9999 +8080 +HTTP port/);
  assert.match(row('SVC_LOG_LEVEL'), /^SVC_LOG_LEVEL +info +info /, 'an unset variable shows its default in effect');
  assert.match(row('DATABASE_URL'), /postgres:\/\/svc:\*\*\*@127\.0\.0\.1:5432\/svc/);
  assert.match(row('SVC_BOOTSTRAP_API_KEY'), /^SVC_BOOTSTRAP_API_KEY +\*\*\* /);
  assert.match(row('SVC_CARRIERS'), /"apiKey":"\*\*\*","apiKeyHeader":"X-Api-Key"/);
  for (const secret of ['hunter2-db-password', 'bootstrap_secret_key_0123456789', 'carrier-secret-value']) assert.ok(!stdout.includes(secret), secret);

  // A bad value is shown as such (never echoed) and svc config exits 1, as svc would refuse to start.
  const bad = await run(process.execPath, [bin, 'config'], { env: { ...env, PORT: 'eighty', SVC_BOOTSTRAP_API_KEY: 'short secret!' } }).catch((err) => err);
  assert.equal(bad.code, 1);
  assert.match(bad.stdout.split('\n').find((l: string) => l.startsWith('PORT ')), /^PORT +invalid: must be a whole number/);
  assert.ok(!bad.stdout.includes('short secret!') && !bad.stderr.includes('short secret!'));
  assert.match(bad.stderr, /PORT/);
});
