import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WEBHOOK_EVENT_CATEGORIES, WEBHOOK_EVENT_NAMES, isWebhookEvent } from './events.ts';
import { headerNameProblem, headerValueProblem } from './headers.ts';
import { checkWebhookUrl, isPublicAddress, urlFormProblem, type HostLookup } from './url-policy.ts';

test('non-public addresses: loopback, private, link-local, unique-local, mapped', () => {
  const nonPublic = [
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254',
    '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fc00::1', 'fdff:ffff::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.1.1.1', '::ffff:192.168.1.1', '::127.0.0.1',
    'not an address', '',
  ];
  for (const a of nonPublic) assert.equal(isPublicAddress(a), false, a);
  const publicOnes = ['93.184.215.14', '8.8.8.8', '172.15.255.255', '172.32.0.0', '192.169.0.1', '169.255.0.1', '11.0.0.1', '2606:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8', '2a00::1'];
  for (const a of publicOnes) assert.equal(isPublicAddress(a), true, a);
});

test('the URL form: absolute http(s), a host, no credentials', () => {
  assert.equal(urlFormProblem('https://example.com/hook?x=1#frag'), undefined);
  assert.equal(urlFormProblem('http://example.com'), undefined);
  for (const bad of ['example.com', '/relative', 'ftp://example.com/', 'javascript:alert(1)', 'file:///etc/passwd', 'https://u@example.com/', 'https://:p@example.com/', 'https://']) {
    assert.ok(urlFormProblem(bad), bad);
  }
});

const table: Record<string, string[]> = {
  'public.test': ['93.184.215.14', '2606:4700::1111'],
  'private.test': ['10.0.0.8'],
  'half.test': ['93.184.215.14', 'fd00::8'],
  'metadata.test': ['169.254.169.254'],
  'empty.test': [],
};
const seen: string[] = [];
const lookup: HostLookup = async (host) => {
  seen.push(host);
  if (host === 'slow.test') return new Promise(() => {});
  if (host === 'flaky.test') throw Object.assign(new Error('temporary'), { code: 'EAI_AGAIN' });
  const found = table[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const strict = { allowInsecure: false, lookup };
const lax = { allowInsecure: true, lookup };

test('strict policy: https to public addresses only', async () => {
  const ok = await checkWebhookUrl('https://public.test/hook', strict);
  assert.ok(ok.ok);
  assert.deepEqual(ok.ok && ok.addresses, ['93.184.215.14', '2606:4700::1111']);
  const literal = await checkWebhookUrl('https://[2606:4700::1111]:8443/', strict);
  assert.deepEqual(literal.ok && literal.addresses, ['2606:4700::1111']);

  const refusals: [string, string][] = [
    ['http://public.test/', 'insecure_scheme'],
    ['https://127.0.0.1/', 'non_public_address'],
    ['https://2130706433/', 'non_public_address'],
    ['https://[::ffff:127.0.0.1]/', 'non_public_address'],
    ['https://[fe80::1]/', 'non_public_address'],
    ['https://localhost/', 'non_public_address'],
    ['https://api.localhost./', 'non_public_address'],
    ['https://private.test/', 'non_public_address'],
    ['https://half.test/', 'non_public_address'],
    ['https://metadata.test/', 'non_public_address'],
    ['https://missing.test/', 'unresolvable'],
    ['https://empty.test/', 'unresolvable'],
    ['https://user:pw@public.test/', 'malformed'],
    ['not a url', 'malformed'],
  ];
  for (const [url, problem] of refusals) {
    const check = await checkWebhookUrl(url, strict);
    assert.equal(check.ok, false, url);
    assert.equal(!check.ok && check.problem, problem, url);
    assert.ok(!check.ok && check.reason.length > 10, url);
  }
});

test('insecure targets allowed: http and private addresses pass, the rest still does not', async () => {
  for (const url of ['http://127.0.0.1:9/', 'https://[::1]/', 'http://private.test/', 'https://half.test/']) {
    assert.ok((await checkWebhookUrl(url, lax)).ok, url);
  }
  for (const url of ['http://u:p@127.0.0.1/', 'gopher://127.0.0.1/', 'http://missing.test/']) {
    assert.equal((await checkWebhookUrl(url, lax)).ok, false, url);
  }
});

test('literal addresses and localhost names are never looked up under the strict policy', async () => {
  seen.length = 0;
  await checkWebhookUrl('https://10.0.0.1/', strict);
  await checkWebhookUrl('https://[::1]/', strict);
  await checkWebhookUrl('https://localhost/', strict);
  assert.deepEqual(seen, []);
});

test('resolver failures: temporary ones say so, a hung resolver times out', async () => {
  const flaky = await checkWebhookUrl('https://flaky.test/', strict);
  assert.ok(!flaky.ok && flaky.problem === 'unresolvable' && flaky.temporary === true);
  const missing = await checkWebhookUrl('https://missing.test/', strict);
  assert.ok(!missing.ok && missing.temporary === undefined);
  const slow = await checkWebhookUrl('https://slow.test/', { ...strict, lookupTimeoutMs: 20 });
  assert.ok(!slow.ok && slow.problem === 'unresolvable' && slow.temporary === true);
});

test('the system resolver answers for localhost when insecure targets are allowed', async () => {
  const check = await checkWebhookUrl('http://localhost:8080/hook', { allowInsecure: true });
  assert.ok(check.ok, JSON.stringify(check));
  assert.ok(check.ok && check.addresses.every((a) => !isPublicAddress(a)));
});

test('the event catalogue: 36 unique names in 5 categories', () => {
  assert.equal(WEBHOOK_EVENT_NAMES.length, 36);
  assert.equal(new Set(WEBHOOK_EVENT_NAMES).size, 36);
  assert.deepEqual(WEBHOOK_EVENT_CATEGORIES.map((c) => c.events.length), [24, 1, 4, 5, 2]);
  assert.ok(WEBHOOK_EVENT_CATEGORIES[0].events.every((e) => e.name.startsWith('container.transport.')));
  assert.ok(isWebhookEvent('container.transport.estimated.arrived_at_inland_destination'));
  assert.ok(!isWebhookEvent('container.transport.not_available'));
});

test('header names and values', () => {
  assert.equal(headerNameProblem('X-Api-Key'), undefined);
  assert.equal(headerNameProblem("x!#$%&'*+-.^_`|~9"), undefined);
  for (const name of ['', 'a b', 'a:b', 'é', 'Content-Type', 'HOST', 'transfer-encoding', 'X-SVC-Webhook-Signature']) assert.ok(headerNameProblem(name), name);
  assert.equal(headerValueProblem('Bearer abc.def ghi\t1'), undefined);
  assert.equal(headerValueProblem(''), undefined);
  for (const value of ['a\nb', 'a\rb', 'a\u0000b', 'ü']) assert.ok(headerValueProblem(value), JSON.stringify(value));
});
