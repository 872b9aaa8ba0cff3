// Where the web app sends a browser stays on svc's origin whatever `next=` holds: tabs, CR and LF
// (stripped by URL parsers, or refused by a Location header), backslashes, encoded or dotted
// slashes, other schemes and Unicode look-alikes are answered with a local Location, never a 500;
// a signed-out form post with a malformed Referer goes to sign-in too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startWebTestApp, type WebClient, type WebTestApp } from './support/web.ts';

let t: WebTestApp;
let signedIn: WebClient;
let user: { email: string; password: string };
before(async () => {
  t = await startWebTestApp();
  user = await t.newUser();
  signedIn = t.client();
  await signedIn.signIn(user.email, user.password);
});
after(() => t.close());

/** `next` values as they would be decoded from a query or a form. */
const HOSTILE = [
  '/\t/evil.example',
  '/\r\n/evil.example',
  '/\nSet-Cookie: x=y',
  '/\r/evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '\\\\evil.example',
  '//evil.example',
  '///evil.example',
  '/%2F%2Fevil.example',
  '/.//evil.example',
  '/..//evil.example',
  '/%2e%2e//evil.example',
  '/./%2e//evil.example',
  'https://evil.example/',
  'https:evil.example',
  'javascript:alert(1)',
  '/\u0000/evil.example',
  '/\u0085/evil.example',
  '/\u2028/evil.example',
  '/\u3000/evil.example',
  '/\uff0f\uff0fevil.example',
  '/\u2215\u2215evil.example',
  '/shipments?x=\u00e9#\u2028',
  `/${'a'.repeat(5000)}`,
];

function assertLocal(res: { status: number; location: string | null; text: string }, next: string): void {
  assert.equal(res.status, 303, `${JSON.stringify(next)}: ${res.status} ${res.text.slice(0, 200)}`);
  const location = res.location!;
  assert.doesNotMatch(location, /[\u0000-\u001f\u007f-\uffff\\]/, `${JSON.stringify(next)} -> ${JSON.stringify(location)}`);
  assert.equal(new URL(location, t.baseUrl).origin, new URL(t.baseUrl).origin, `${JSON.stringify(next)} -> ${JSON.stringify(location)}`);
  assert.ok(location.startsWith('/') && !location.startsWith('//'), `${JSON.stringify(next)} -> ${JSON.stringify(location)}`);
}

test('GET /sign-in?next= when signed in answers with a Location on svc’s origin for every hostile next', async () => {
  for (const next of HOSTILE) assertLocal(await signedIn.get(`/sign-in?next=${encodeURIComponent(next)}`), next);
  // The request as sent, unencoded but for the tab, and CR LF sent the same way.
  for (const raw of ['/%09/evil.example', '/%0d%0a/evil.example', '/%0aLocation:%20https://evil.example', '/%5Cevil.example']) {
    const res = await signedIn.get(`/sign-in?next=${raw}`);
    assertLocal(res, raw);
    assert.equal(res.location, '/shipments', raw);
  }
});

test('POST /sign-in answers with a Location on svc’s origin for every hostile next', async () => {
  // Each sign-in hashes a password: the ones a form can carry that the query cases do not cover as well.
  const sent = ['/\t/evil.example', '/\r\n/evil.example', '/\\evil.example', '//evil.example', '/..//evil.example', '/%2e%2e//evil.example', 'https:evil.example', 'javascript:alert(1)'];
  for (const next of sent) assertLocal(await t.client().signIn(user.email, user.password, next), next);
});

test('local paths are still returned to, query and fragment kept', async () => {
  for (const [next, location] of [
    ['/shipments?status=on_hold', '/shipments?status=on_hold'],
    ['/shipments/abc#events', '/shipments/abc#events'],
    ['/settings/api-keys', '/settings/api-keys'],
    ['/shipments?q=caf\u00e9', '/shipments?q=caf%C3%A9'],
  ]) {
    assert.equal((await signedIn.get(`/sign-in?next=${encodeURIComponent(next!)}`)).location, location);
  }
});

test('a signed-out form post with a malformed or foreign Referer goes to sign-in, not a 500', async () => {
  for (const referer of ['http://[', 'http://svc:99999/x', '::::', 'https://evil.example//evil.example/x', '\u00ff\u00fe']) {
    const res = await t.client().request('POST', '/settings/password', { form: { password: 'x' }, headers: { referer } });
    assert.equal(res.status, 303, `${referer}: ${res.text.slice(0, 200)}`);
    assert.match(res.location!, /^\/sign-in\?next=/);
    assert.doesNotMatch(res.location!, /[^\x21-\x7e]/);
    const next = new URL(res.location!, t.baseUrl).searchParams.get('next')!;
    assert.ok(next.startsWith('/') && !next.startsWith('//'), `${referer} -> ${next}`);
    assert.equal(new URL(next, t.baseUrl).origin, new URL(t.baseUrl).origin);
  }
});
