// Signing in to the web app: passwords, one-time links, sessions, CSRF, the sign-in rate limit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureOwnerSignIn, issueSignInLink } from '../src/services/users.ts';
import { startWebTestApp, type WebTestApp } from './support/web.ts';

const DAY = 86_400_000;

describe('web sign-in', () => {
  let t: WebTestApp;
  before(async () => {
    t = await startWebTestApp();
  });
  after(() => t.close());

  test('a private page sends a visitor to sign in and back to it afterwards', async () => {
    const { email, password } = await t.newUser();
    const browser = t.client();
    const first = await browser.get('/shipments?status=on_hold');
    assert.equal(first.status, 303);
    assert.equal(first.location, '/sign-in?next=%2Fshipments%3Fstatus%3Don_hold');
    const signedIn = await browser.signIn(email, password, '/shipments?status=on_hold');
    assert.equal(signedIn.location, '/shipments?status=on_hold');
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('svc_session='))!;
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.match(cookie, /Path=\//);
    assert.notEqual((await browser.get('/settings/password')).status, 303);
  });

  test('a wrong password or an unknown address is refused with the same words', async () => {
    const { email } = await t.newUser();
    for (const [address, password] of [[email, 'not the password'], ['nobody@example.com', 'whatever it is']]) {
      const page = await t.client().submit('/sign-in', '/sign-in', { email: address, password });
      assert.equal(page.status, 422);
      assert.match(page.text, /That e-mail address and password do not match/);
      assert.equal(page.headers.getSetCookie().some((c) => c.startsWith('svc_session=')), false);
    }
  });

  test('passwords are stored as argon2id hashes', async () => {
    const { userId, password } = await t.newUser();
    const { rows } = await t.db.query('SELECT password_hash FROM users WHERE id = $1', [userId]);
    assert.match(rows[0].password_hash, /^\$argon2id\$/);
    assert.ok(!rows[0].password_hash.includes(password));
  });

  test('only a local path is returned to after sign-in', async () => {
    const { email, password } = await t.newUser();
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      assert.equal((await t.client().signIn(email, password, next)).location, '/shipments');
    }
  });

  test('forms without a valid CSRF token, or sent from another site, are refused', async () => {
    const { email, password } = await t.newUser();
    const browser = t.client();
    await browser.signIn(email, password);
    const missing = await browser.request('POST', '/settings/password', { form: { password: 'a new password!', confirm: 'a new password!' } });
    assert.equal(missing.status, 403);
    assert.match(missing.text, /expired or did not come from svc/);
    const other = t.client();
    const otherUser = await t.newUser();
    await other.signIn(otherUser.email, otherUser.password);
    const foreignToken = /name="_csrf" value="([^"]+)"/.exec((await other.get('/settings/password')).text)![1];
    assert.equal((await browser.request('POST', '/sign-out', { form: { _csrf: foreignToken } })).status, 403);
    const page = await browser.get('/settings/password');
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const crossSite = await browser.request('POST', '/sign-out', { form: { _csrf: token }, headers: { origin: 'https://evil.example' } });
    assert.equal(crossSite.status, 403);
    assert.match(crossSite.text, /another site/);
    // The session survived every refused attempt.
    assert.equal((await browser.get('/settings/password')).status, 200);
  });

  test('signing out ends the session on the server, not only in the browser', async () => {
    const { email, password } = await t.newUser();
    const browser = t.client();
    await browser.signIn(email, password);
    const stolen = new Map(browser.cookies);
    const out = await browser.submit('/settings/password', '/sign-out', {});
    assert.equal(out.status, 303);
    assert.equal(out.location, '/sign-in');
    const replay = t.client();
    for (const [k, v] of stolen) replay.cookies.set(k, v);
    assert.equal((await replay.get('/settings/password')).status, 303);
  });

  test('a one-time link shows a button, signs in once, then asks for a password', async () => {
    const { user, linkToken } = await ensureOwnerSignIn(t.db, t.clock, (await t.newAccount('Owner test')).accountId, 'owner-test@localhost');
    assert.ok(linkToken);
    const browser = t.client();
    const look = await browser.get(`/sign-in/link/${linkToken}`);
    assert.equal(look.status, 200);
    assert.match(look.text, /Sign in as owner-test@localhost/);
    // Looking did not use it up (mail scanners open links).
    const used = await browser.submit(`/sign-in/link/${linkToken}`, `/sign-in/link/${linkToken}`, {});
    assert.equal(used.status, 303);
    assert.equal(used.location, '/settings/password');
    const form = await browser.get('/settings/password');
    assert.match(form.text, /Choose a password/);
    assert.doesNotMatch(form.text, /Current password/);
    assert.equal((await t.client().get(`/sign-in/link/${linkToken}`)).status, 410);
    assert.equal((await t.client().submit('/sign-in', `/sign-in/link/${linkToken}`, {})).status, 410);

    // Choosing a password: the owner then signs in with it, and the next start prints no link.
    const saved = await browser.submit('/settings/password', '/settings/password', { password: 'a long enough secret', confirm: 'a long enough secret' });
    assert.equal(saved.location, '/settings/password?saved=1');
    assert.match((await browser.get('/settings/password?saved=1')).text, /Your password is saved/);
    await t.client().signIn(user.email, 'a long enough secret');
    assert.equal((await ensureOwnerSignIn(t.db, t.clock, user.account_id, 'ignored@localhost')).linkToken, undefined);
  });

  test('a sign-in link expires after a day', async () => {
    const { userId } = await t.newUser();
    const token = await issueSignInLink(t.db, t.clock, userId);
    t.clock.advance(DAY + 1000);
    assert.equal((await t.client().get(`/sign-in/link/${token}`)).status, 410);
  });

  test('changing a password needs the current one, checks the new one, and signs out other sessions', async () => {
    const { email, password } = await t.newUser();
    const here = t.client();
    const elsewhere = t.client();
    await here.signIn(email, password);
    await elsewhere.signIn(email, password);
    const wrong = await here.submit('/settings/password', '/settings/password', { current: 'nope nope nope', password: 'another secret 1', confirm: 'another secret 1' });
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /current password is not right/);
    const short = await here.submit('/settings/password', '/settings/password', { current: password, password: 'short', confirm: 'short' });
    assert.equal(short.status, 422);
    assert.match(short.text, /at least 10 characters/);
    const differ = await here.submit('/settings/password', '/settings/password', { current: password, password: 'another secret 1', confirm: 'another secret 2' });
    assert.match(differ.text, /two new passwords differ/);
    const ok = await here.submit('/settings/password', '/settings/password', { current: password, password: 'another secret 1', confirm: 'another secret 1' });
    assert.equal(ok.status, 303);
    assert.equal((await here.get('/settings/password')).status, 200);
    assert.equal((await elsewhere.get('/settings/password')).status, 303);
  });

  test('a session ends after a week without use', async () => {
    const { email, password } = await t.newUser();
    const browser = t.client();
    await browser.signIn(email, password);
    t.clock.advance(6 * DAY);
    assert.equal((await browser.get('/settings/password')).status, 200);
    t.clock.advance(6 * DAY);
    assert.equal((await browser.get('/settings/password')).status, 200, 'used within the week: still signed in');
    t.clock.advance(8 * DAY);
    assert.equal((await browser.get('/settings/password')).status, 303);
  });

  test('pages carry security headers and no cache', async () => {
    const page = await t.client().get('/sign-in');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /text\/html/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(page.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  });

  test('an unknown page is an HTML 404 for a browser; /v2 stays JSON:API', async () => {
    const page = await t.client().get('/no/such/page');
    assert.equal(page.status, 404);
    assert.match(page.text, /<h1>Not found<\/h1>/);
    const api = await t.client().request('GET', '/v2/no-such-thing');
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type')!, /application\/vnd\.api\+json/);
  });
});

test('failed sign-ins at one account from one address are limited for a quarter of an hour, not other users there', async () => {
  const t = await startWebTestApp();
  try {
    const { email, password } = await t.newUser();
    const browser = t.client();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await browser.submit('/sign-in', '/sign-in', { email, password: `wrong guess ${i}` })).status);
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(422));
    assert.equal(statuses[10], 429);
    // Even the right password waits: a guesser must not learn it was right.
    const blocked = await browser.submit('/sign-in', '/sign-in', { email, password });
    assert.equal(blocked.status, 429);
    assert.match(blocked.text, /Too many failed sign-in attempts/);
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    // Another user behind the same address, whom nobody failed against, still signs in.
    const other = await t.newUser();
    await t.client().signIn(other.email, other.password);
    t.clock.advance(15 * 60_000);
    await browser.signIn(email, password);
  } finally {
    await t.close();
  }
});
