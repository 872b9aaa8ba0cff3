import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
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
  const publicOnes = ['93.184.215.14', '8.8.8.8', '172.15.255.255', '172.32.0.0', '192.169.0.1', '169.255.0.1', '11.0.0.1', '2606:4700::1111', '2001:4860:4860::8888', '2a00::1'];
  for (const a of publicOnes) assert.equal(isPublicAddress(a), true, a);
});

// IANA's special-purpose registries (IPv4 and IPv6), one address of each range or more, written the
// ways an attacker would write them. None is public, whatever IPv4 address an IPv6 form embeds.
const SPECIAL_PURPOSE: [string, string][] = [
  ['0.0.0.0', 'this network'],
  ['0.1.2.3', 'this network'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'shared address space (CGNAT)'],
  ['100.127.255.254', 'shared address space (CGNAT)'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.16.0.1', 'private'],
  ['192.0.0.1', 'IETF protocol assignments'],
  ['192.0.0.170', 'NAT64 discovery'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['192.31.196.1', 'AS112'],
  ['192.52.193.1', 'AMT'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.1', 'private'],
  ['192.175.48.1', 'AS112 direct delegation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.254', 'benchmarking'],
  ['198.51.100.1', 'documentation TEST-NET-2'],
  ['203.0.113.1', 'documentation TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'limited broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
  ['::8.8.8.8', 'IPv4-compatible (deprecated)'],
  ['::ffff:127.0.0.1', 'IPv4-mapped'],
  ['::ffff:7f00:1', 'IPv4-mapped, hex'],
  ['0:0:0:0:0:ffff:7f00:0001', 'IPv4-mapped, long hex'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata'],
  ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
  ['::ffff:0:7f00:1', 'IPv4-translated (RFC 6145)'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix'],
  ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix, dotted'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
  ['64:ff9b::808:808', 'NAT64 of a public address'],
  ['64:ff9b:1::a00:1', 'NAT64 local-use prefix'],
  ['100::1', 'discard-only'],
  ['2001::1', 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:1::1', 'port control protocol anycast'],
  ['2001:2::1', 'benchmarking'],
  ['2001:3::1', 'AMT'],
  ['2001:4:112::1', 'AS112-v6'],
  ['2001:10::1', 'ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:db8::1', 'documentation'],
  ['2002:7f00:1::', '6to4 of loopback'],
  ['2002:a9fe:a9fe::1', '6to4 of metadata'],
  ['2002:808:808::1', '6to4 of a public address'],
  ['2620:4f:8000::1', 'AS112 direct delegation'],
  ['3fff::1', 'documentation (RFC 9637)'],
  ['5f00::1', 'segment routing SIDs'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with zone'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['4000::1', 'not yet allocated by IANA'],
  ['1::1', 'reserved by IETF'],
];

test('special-purpose addresses of every IANA range are not public', () => {
  const accepted = SPECIAL_PURPOSE.filter(([address]) => isPublicAddress(address));
  assert.deepEqual(accepted, []);
});

/** An IPv4 address as the two hex groups IPv6 forms embed it in. */
const hexGroups = (octets: number[]) => [(octets[0] << 8) | octets[1], (octets[2] << 8) | octets[3]].map((g) => g.toString(16));

test('property: no IPv6 form that embeds an IPv4 address is public, whatever the IPv4 address', () => {
  const octets = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 });
  fc.assert(
    fc.property(octets, fc.integer({ min: 0, max: 0xffff }), (o, subnet) => {
      const [hi, lo] = hexGroups(o);
      const dotted = o.join('.');
      const forms = [
        `::ffff:${dotted}`,
        `::ffff:${hi}:${lo}`,
        `::${dotted}`,
        `::ffff:0:${hi}:${lo}`,
        `64:ff9b::${hi}:${lo}`,
        `64:ff9b::${dotted}`,
        `64:ff9b:1:${subnet.toString(16)}::${hi}:${lo}`,
        `2002:${hi}:${lo}:${subnet.toString(16)}::1`,
        `2001:0:${hi}:${lo}::${subnet.toString(16)}`,
      ];
      for (const form of forms) assert.equal(isPublicAddress(form), false, form);
    }),
    { numRuns: 500 },
  );
});

test('property: loopback and private IPv4 addresses are refused however a URL spells them', async () => {
  const v4 = fc.oneof(
    fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
  );
  await fc.assert(
    fc.asyncProperty(v4, async (o) => {
      const n = ((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3];
      const [hi, lo] = hexGroups(o);
      const spellings = [
        o.join('.'),
        String(n), // decimal
        `0x${n.toString(16)}`, // hex
        o.map((x) => `0${x.toString(8)}`).join('.'), // octal parts
        `${o[0]}.${(o[1] << 16) + (o[2] << 8) + o[3]}`, // two parts
        `[::ffff:${o.join('.')}]`,
        `[::ffff:${hi}:${lo}]`,
        `[64:ff9b::${hi}:${lo}]`,
        `[2002:${hi}:${lo}::]`,
      ];
      for (const host of spellings) {
        const check = await checkWebhookUrl(`https://${host}:8443/hook`, strict);
        assert.ok(!check.ok && check.problem === 'non_public_address', `${host}: ${JSON.stringify(check)}`);
      }
    }),
    { numRuns: 200 },
  );
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
  'nat64.test': ['64:ff9b::7f00:1'],
  'sixtofour.test': ['2002:a9fe:a9fe::1'],
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
    ['https://[::ffff:7f00:1]/', 'non_public_address'],
    ['https://[64:ff9b::7f00:1]/', 'non_public_address'],
    ['https://[2002:7f00:1::]/', 'non_public_address'],
    ['https://0177.0.0.1/', 'non_public_address'],
    ['https://0x7f.1/', 'non_public_address'],
    ['https://nat64.test/', 'non_public_address'],
    ['https://sixtofour.test/', 'non_public_address'],
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
