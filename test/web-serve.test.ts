// `npm start` (svc serve) and the web app: the banner names the web address and, until the owner
// has chosen a password, a one-time link that signs in; pages and assets are served on svc's port.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';
import { serveDatabase, startServe, stopServe } from './support/svc-process.ts';
import { WebClient } from './support/web.ts';

let database: TestDatabase;
forFile(() => serveDatabase(), (d) => (database = d), (d) => d.drop());

test('the first start prints a sign-in link for the owner; once a password is chosen, starts print none', async () => {
  const env = { DATABASE_URL: database.url, SVC_OWNER_EMAIL: 'boss@example.com' };
  const first = await startServe(env);
  let link: string;
  try {
    const banner = first.stderr();
    assert.match(banner, new RegExp(`Web app: ${first.origin.replace('127.0.0.1', 'localhost')}/`));
    const found = /sign in as boss@example\.com with this one-time link \(valid 24 h\), then choose a password: (\S+)/.exec(banner);
    assert.ok(found, banner);
    link = new URL(found[1]).pathname;
    const browser = new WebClient(first.origin);
    assert.equal((await browser.submit(link, link, {})).location, '/settings/password');
    assert.equal((await browser.submit('/settings/password', '/settings/password', { password: 'the owner password', confirm: 'the owner password' })).status, 303);
    const list = await browser.get('/shipments');
    assert.equal(list.status, 200);
    assert.match(list.text, /<h1>Shipments<\/h1>/);
    const css = await fetch(`${first.origin}/assets/app.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type')!, /text\/css/);
  } finally {
    assert.equal(await stopServe(first), 0);
  }

  const second = await startServe(env);
  try {
    assert.doesNotMatch(second.stderr(), /with this one-time link/);
    assert.match(second.stderr(), /sign in with your e-mail address and password/);
    await new WebClient(second.origin).signIn('boss@example.com', 'the owner password');
  } finally {
    assert.equal(await stopServe(second), 0);
  }
});
