// `svc users`: an operator adds people to an account and resets their passwords; the links and
// passwords it hands out work in the web app.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { forFile } from './support/for-file.ts';
import { startWebTestApp, type WebTestApp } from './support/web.ts';

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '../bin/svc.js');

let t: WebTestApp;
forFile(() => startWebTestApp(), (s) => (t = s));

const env = () => ({ ...process.env, DATABASE_URL: t.database.url, SVC_APP_URL: 'https://track.example.com' });
const svc = (...args: string[]) => run(process.execPath, [bin, ...args], { env: env() });

/** Runs svc with `input` on stdin (for --password-stdin). */
function svcWithInput(input: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env: env() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const linkPath = (stdout: string) => {
  const link = /(https:\/\/track\.example\.com\/sign-in\/link\/\S+)/.exec(stdout)?.[1];
  assert.ok(link, `no sign-in link in: ${stdout}`);
  return new URL(link).pathname;
};

test('users create prints a one-time link of SVC_APP_URL that signs the new user in', async () => {
  const created = await svc('users', 'create', 'Ops.Person@Example.com', '--account', t.accountId, '--name', 'Ops Person');
  assert.match(created.stdout, /user [0-9a-f-]{36} \(Ops\.Person@Example\.com\) in account/);
  const browser = t.client();
  const used = await browser.submit(linkPath(created.stdout), linkPath(created.stdout), {});
  assert.equal(used.location, '/settings/password');
  const listed = await svc('users', 'list');
  assert.match(listed.stdout, /Ops\.Person@Example\.com/);
  assert.match(listed.stdout, /not yet/);
  // Addresses are unique without case.
  await assert.rejects(svc('users', 'create', 'ops.person@example.com', '--account', t.accountId), (err: any) => err.code === 1 && /exists already/.test(err.stderr));
});

test('users create --password-stdin sets the password; reset-password prints a link or sets one', async () => {
  const created = await svcWithInput('first password 123\n', 'users', 'create', 'stdin@example.com', '--account', t.accountId, '--password-stdin');
  assert.equal(created.code, 0, created.stderr);
  assert.doesNotMatch(created.stdout, /sign-in\/link/);
  const browser = t.client();
  await browser.signIn('stdin@example.com', 'first password 123');

  const reset = await svc('users', 'reset-password', 'STDIN@example.com');
  const link = linkPath(reset.stdout);
  const other = t.client();
  assert.equal((await other.submit(link, link, {})).location, '/shipments');

  const changed = await svcWithInput('second password 456\n', 'users', 'reset-password', 'stdin@example.com', '--password-stdin');
  assert.equal(changed.code, 0, changed.stderr);
  assert.match(changed.stdout, /sessions were signed out/);
  assert.equal((await browser.get('/settings/password')).status, 303, 'the old session ended');
  await t.client().signIn('stdin@example.com', 'second password 456');
});

test('users commands refuse bad input in one line', async () => {
  await assert.rejects(svc('users', 'create', 'not-an-address', '--account', t.accountId), (err: any) => err.code === 1 && /is not an e-mail address/.test(err.stderr));
  await assert.rejects(svc('users', 'reset-password', 'nobody@example.com'), (err: any) => err.code === 1 && /No user has the e-mail address/.test(err.stderr));
  const short = await svcWithInput('short\n', 'users', 'create', 'short@example.com', '--account', t.accountId, '--password-stdin');
  assert.equal(short.code, 1);
  assert.match(short.stderr, /at least 10 characters/);
  await assert.rejects(svc('users', 'list', '--password-stdin'), (err: any) => err.code === 2);
  // The key names the web app refuses are refused here too, in one line.
  await assert.rejects(svc('keys', 'create', '--account', t.accountId, '--name', 'x'.repeat(101)), (err: any) => err.code === 1 && /^svc: .*100 characters/m.test(err.stderr) && !/^\s+at /m.test(err.stderr));
});
