// Webhook subscriptions through the real HTTP server: create, list, get, patch, delete; every
// validation rule with its pointer and code; the URL policy with and without insecure targets;
// account isolation; the event catalogue and the source IP list.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { HostLookup } from '../src/domain/webhooks/url-policy.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

// Host names the tests resolve, without asking any DNS server.
const names: Record<string, { address: string; family: number }[]> = {
  'hooks.example.com': [{ address: '93.184.215.14', family: 4 }],
  'v6.example.com': [{ address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }],
  'internal.example.com': [{ address: '10.20.30.40', family: 4 }],
  'mixed.example.com': [
    { address: '93.184.215.14', family: 4 },
    { address: '192.168.7.7', family: 4 },
  ],
  'mapped.example.com': [{ address: '::ffff:127.0.0.1', family: 6 }],
  localhost: [{ address: '127.0.0.1', family: 4 }],
};
const lookups: string[] = [];
const fakeLookup: HostLookup = async (hostname) => {
  lookups.push(hostname);
  const found = names[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};

let t: TestApp;
forFile(() => startTestApp({ webhooks: { lookup: fakeLookup, allowInsecure: false } }), (s) => (t = s));

const SUCCEEDED = 'tracking_request.succeeded';
const URL_OK = 'https://hooks.example.com/svc';

/** A request a second later than the last, so the rate limit (100 a minute) never bites. */
function call(method: string, path: string, options?: Parameters<TestApp['request']>[2]) {
  t.clock.advance(1000);
  return t.request(method, path, options);
}

const webhook = (attributes: Record<string, unknown>) => ({ data: { type: 'webhook', attributes } });
const create = (attributes: Record<string, unknown>, key?: string) => call('POST', '/v2/webhooks', { body: webhook(attributes), key });
const patch = (id: string, attributes: Record<string, unknown>, key?: string) => call('PATCH', `/v2/webhooks/${id}`, { body: webhook(attributes), key });

async function created(attributes: Record<string, unknown> = {}): Promise<any> {
  const res = await create({ url: URL_OK, events: [SUCCEEDED], ...attributes });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** The (pointer, code) pairs of a 422. */
function problems(res: { status: number; body: any; text: string }): string[] {
  assert.equal(res.status, 422, res.text);
  for (const e of res.body.errors) {
    assert.equal(e.status, '422');
    assert.equal(e.title, 'Unprocessable Entity');
    assert.equal(typeof e.detail, 'string');
  }
  return res.body.errors.map((e: any) => `${e.source?.pointer} ${e.code}`).sort();
}

describe('create, read, update, delete', () => {
  test('create answers 201 with the webhook and a secret svc generated', async () => {
    const res = await create({ url: URL_OK, events: [SUCCEEDED, 'container.transport.vessel_arrived'], secret: 'chosen-by-client' });
    assert.equal(res.status, 201, res.text);
    assert.match(res.headers.get('content-type')!, /^application\/vnd\.api\+json/);
    const { id, type, attributes, links } = res.body.data;
    assert.equal(type, 'webhook');
    assert.equal(links.self, `/v2/webhooks/${id}`);
    assert.equal(res.body.links.self, `${t.baseUrl}/v2/webhooks/${id}`);
    assert.equal(attributes.url, URL_OK);
    assert.equal(attributes.active, true, 'active defaults to true');
    assert.deepEqual(attributes.events, [SUCCEEDED, 'container.transport.vessel_arrived']);
    assert.equal(attributes.headers, null);
    assert.match(attributes.secret, /^[0-9a-f]{64}$/, '32 random bytes as hex');
    assert.notEqual(attributes.secret, 'chosen-by-client');
    assert.equal(attributes.created_at, t.clock.now().toISOString());
    assert.equal(attributes.updated_at, attributes.created_at);

    const got = await call('GET', `/v2/webhooks/${id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data, res.body.data, 'the secret is readable again');
  });

  test('every webhook gets its own secret', async () => {
    const a = await created();
    const b = await created();
    assert.notEqual(a.attributes.secret, b.attributes.secret);
  });

  test('active and headers are stored as given, trimmed; an empty header list is null', async () => {
    const hook = await created({ url: '  https://hooks.example.com/x  ', active: false, headers: [{ name: ' X-Api-Key ', value: ' s3cret ' }, { name: 'Authorization', value: 'Bearer abc' }] });
    assert.equal(hook.attributes.url, 'https://hooks.example.com/x');
    assert.equal(hook.attributes.active, false);
    assert.deepEqual(hook.attributes.headers, [
      { name: 'X-Api-Key', value: 's3cret' },
      { name: 'Authorization', value: 'Bearer abc' },
    ]);
    assert.equal((await created({ headers: [] })).attributes.headers, null);
    assert.equal((await created({ headers: null })).attributes.headers, null);
  });

  test('literal public IPv4 and IPv6 addresses and names resolving to public addresses are accepted', async () => {
    for (const url of ['https://93.184.215.14/hook', 'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:8443/hook', 'https://v6.example.com/', 'https://HOOKS.example.com./svc']) {
      const res = await create({ url, events: [SUCCEEDED] });
      assert.equal(res.status, 201, `${url}: ${res.text}`);
    }
  });

  test('patch changes any of url, events, active and headers', async () => {
    const hook = await created();
    const res = await patch(hook.id, { url: 'https://hooks.example.com/v2', events: ['shipment.estimated.arrival'], active: false, headers: [{ name: 'X-Tenant', value: 'acme' }] });
    assert.equal(res.status, 200, res.text);
    const a = res.body.data.attributes;
    assert.equal(a.url, 'https://hooks.example.com/v2');
    assert.deepEqual(a.events, ['shipment.estimated.arrival']);
    assert.equal(a.active, false);
    assert.deepEqual(a.headers, [{ name: 'X-Tenant', value: 'acme' }]);
    assert.equal(a.secret, hook.attributes.secret, 'the secret stays');
    assert.equal(a.created_at, hook.attributes.created_at);
    assert.equal(a.updated_at, t.clock.now().toISOString());

    const one = await patch(hook.id, { active: true });
    assert.equal(one.status, 200);
    assert.equal(one.body.data.attributes.active, true);
    assert.equal(one.body.data.attributes.url, 'https://hooks.example.com/v2', 'attributes left out stay');
    assert.deepEqual(one.body.data.attributes.headers, [{ name: 'X-Tenant', value: 'acme' }]);

    const cleared = await patch(hook.id, { headers: null });
    assert.equal(cleared.body.data.attributes.headers, null);

    t.clock.advance(60_000);
    const nothing = await patch(hook.id, {});
    assert.equal(nothing.status, 200);
    assert.equal(nothing.body.data.attributes.updated_at, cleared.body.data.attributes.updated_at, 'an empty patch changes nothing');

    assert.deepEqual((await call('GET', `/v2/webhooks/${hook.id}`)).body.data, nothing.body.data);
  });

  test('delete answers 200 with the deleted webhook; afterwards it is gone', async () => {
    const hook = await created();
    const res = await call('DELETE', `/v2/webhooks/${hook.id}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, hook);
    assert.equal((await call('GET', `/v2/webhooks/${hook.id}`)).status, 404);
    assert.equal((await call('PATCH', `/v2/webhooks/${hook.id}`, { body: webhook({ active: false }) })).status, 404);
    assert.equal((await call('DELETE', `/v2/webhooks/${hook.id}`)).status, 404);
  });

  test('unknown and malformed ids are 404 JSON:API errors', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '12345']) {
      for (const method of ['GET', 'DELETE']) {
        const res = await call(method, `/v2/webhooks/${id}`);
        assert.equal(res.status, 404, `${method} ${id}`);
        assert.equal(res.body.errors[0].status, '404');
      }
      assert.equal((await patch(id, { active: false })).status, 404);
    }
  });
});

describe('list', () => {
  let other: { accountId: string; key: string };
  const mine: string[] = [];
  before(async () => {
    other = await t.newAccount('Paging account');
    for (let i = 0; i < 5; i++) {
      const res = await create({ url: `https://hooks.example.com/${i}`, events: [SUCCEEDED] }, other.key);
      assert.equal(res.status, 201);
      mine.push(res.body.data.id);
    }
  });

  test('newest first, in pages with links and meta', async () => {
    const all = await call('GET', '/v2/webhooks', { key: other.key });
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.data.map((w: any) => w.id), [...mine].reverse());
    assert.ok(all.body.data.every((w: any) => /^[0-9a-f]{64}$/.test(w.attributes.secret)));

    const page = await call('GET', '/v2/webhooks?page[size]=2&page[number]=2', { key: other.key });
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.data.map((w: any) => w.id), [mine[2], mine[1]]);
    assert.deepEqual(page.body.meta, { size: 2, total: 5, pagination: { current: 2, next: 3, last: 3, records: 5 } });
    assert.match(page.body.links.next, /\/v2\/webhooks\?.*page%5Bnumber%5D=3/);
    assert.match(page.body.links.prev, /page%5Bnumber%5D=1/);
  });

  test('an empty list', async () => {
    const empty = await t.newAccount('No webhooks');
    const res = await call('GET', '/v2/webhooks', { key: empty.key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, []);
    assert.deepEqual(res.body.meta, { size: 0, total: 0, pagination: { current: 1, last: 1, records: 0 } });
  });

  test('an unknown include is a 400 naming the parameter', async () => {
    const res = await call('GET', '/v2/webhooks?include=shipment');
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].source.parameter, 'include');
  });
});

describe('accounts are isolated', () => {
  test("another account's webhook is a 404 on get, patch and delete and absent from its list", async () => {
    const hook = await created();
    const other = await t.newAccount('Intruder');
    assert.equal((await call('GET', `/v2/webhooks/${hook.id}`, { key: other.key })).status, 404);
    assert.equal((await patch(hook.id, { active: false, url: 'https://hooks.example.com/stolen' }, other.key)).status, 404);
    assert.equal((await call('DELETE', `/v2/webhooks/${hook.id}`, { key: other.key })).status, 404);
    const list = await call('GET', '/v2/webhooks?page[size]=100', { key: other.key });
    assert.deepEqual(list.body.data, []);

    const still = await call('GET', `/v2/webhooks/${hook.id}`);
    assert.equal(still.status, 200);
    assert.deepEqual(still.body.data, hook, 'untouched');
    const ownList = await call('GET', '/v2/webhooks?page[size]=100');
    assert.ok(ownList.body.data.some((w: any) => w.id === hook.id));
  });
});

describe('validation: 422 with a pointer and a code', () => {
  const base = { url: URL_OK, events: [SUCCEEDED] };
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['url missing', { events: [SUCCEEDED] }, ['/data/attributes/url blank']],
    ['url blank', { ...base, url: '   ' }, ['/data/attributes/url blank']],
    ['url not a string', { ...base, url: 42 }, ['/data/attributes/url invalid']],
    ['url not a URL', { ...base, url: 'hooks.example.com/svc' }, ['/data/attributes/url invalid']],
    ['url with another scheme', { ...base, url: 'ftp://hooks.example.com/' }, ['/data/attributes/url invalid']],
    ['url with credentials', { ...base, url: 'https://user:pw@hooks.example.com/' }, ['/data/attributes/url invalid']],
    ['url too long', { ...base, url: `https://hooks.example.com/${'a'.repeat(2100)}` }, ['/data/attributes/url too_long']],
    ['events missing', { url: URL_OK }, ['/data/attributes/events blank']],
    ['events empty', { ...base, events: [] }, ['/data/attributes/events blank']],
    ['events not an array', { ...base, events: SUCCEEDED }, ['/data/attributes/events invalid']],
    ['events repeated', { ...base, events: [SUCCEEDED, 'container.updated', SUCCEEDED] }, ['/data/attributes/events duplicate_event']],
    ['an unknown event', { ...base, events: [SUCCEEDED, 'container.transport.teleported'] }, ['/data/attributes/events/1 invalid']],
    ['two unknown events', { ...base, events: ['nope', SUCCEEDED, 'Tracking_Request.Succeeded'] }, ['/data/attributes/events/0 invalid', '/data/attributes/events/2 invalid']],
    ['an event that is not a string', { ...base, events: [SUCCEEDED, 7] }, ['/data/attributes/events/1 invalid']],
    ['active not a boolean', { ...base, active: 'yes' }, ['/data/attributes/active invalid']],
    ['headers not an array', { ...base, headers: { 'X-A': 'b' } }, ['/data/attributes/headers invalid']],
    ['a header that is not an object', { ...base, headers: ['X-A: b'] }, ['/data/attributes/headers/0 invalid']],
    ['a header without a value', { ...base, headers: [{ name: 'X-A' }] }, ['/data/attributes/headers/0/value blank']],
    ['a header without a name', { ...base, headers: [{ name: 'X-A', value: '1' }, { name: ' ', value: 'b' }] }, ['/data/attributes/headers/1/name blank']],
    ['a header value that is not a string', { ...base, headers: [{ name: 'X-A', value: 5 }] }, ['/data/attributes/headers/0/value invalid']],
    ['a header name that is not a token', { ...base, headers: [{ name: 'X-A', value: '1' }, { name: 'Bad Name', value: 'b' }] }, ['/data/attributes/headers/1/name invalid']],
    ['a header name with a colon', { ...base, headers: [{ name: 'X-A:', value: 'b' }] }, ['/data/attributes/headers/0/name invalid']],
    ['a header value with a line break', { ...base, headers: [{ name: 'X-A', value: 'a\r\nX-Injected: 1' }] }, ['/data/attributes/headers/0/value invalid']],
    ['a header value that is not ASCII', { ...base, headers: [{ name: 'X-A', value: 'café' }] }, ['/data/attributes/headers/0/value invalid']],
    ['a header named twice', { ...base, headers: [{ name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }] }, ['/data/attributes/headers/1/name duplicate_header']],
    ['21 headers', { ...base, headers: Array.from({ length: 21 }, (_, i) => ({ name: `X-H${i}`, value: 'v' })) }, ['/data/attributes/headers too_long']],
    ['several problems at once', { url: '', events: ['nope'], headers: [{ name: 'Host', value: 'x' }] }, ['/data/attributes/events/0 invalid', '/data/attributes/headers/0/name invalid', '/data/attributes/url blank']],
  ];
  for (const [name, attributes, expected] of cases) {
    test(`create: ${name}`, async () => {
      assert.deepEqual(problems(await create(attributes)), expected);
    });
  }

  test('20 headers are fine', async () => {
    const hook = await created({ headers: Array.from({ length: 20 }, (_, i) => ({ name: `X-H${i}`, value: 'v' })) });
    assert.equal(hook.attributes.headers.length, 20);
  });

  test('reserved header names, in any case', async () => {
    const reserved = ['Content-Type', 'content-length', 'HOST', 'X-SVC-Webhook-Signature', 'webhook-id', 'Webhook-Timestamp', 'webhook-signature', 'Connection', 'Keep-Alive', 'Transfer-Encoding', 'Upgrade', 'TE', 'Trailer', 'Proxy-Authorization', 'Proxy-Authenticate'];
    for (const name of reserved) {
      const res = await create({ ...base, headers: [{ name: 'X-Fine', value: 'ok' }, { name, value: 'v' }] });
      assert.deepEqual(problems(res), ['/data/attributes/headers/1/name invalid'], name);
      assert.match(res.body.errors[0].detail, new RegExp(name));
    }
  });

  test('the detail of an unknown event names it, and of a repeated one too', async () => {
    const unknown = await create({ ...base, events: ['container.transport.teleported'] });
    assert.match(unknown.body.errors[0].detail, /container\.transport\.teleported/);
    const twice = await create({ ...base, events: ['container.updated', 'container.updated'] });
    assert.match(twice.body.errors[0].detail, /container\.updated/);
  });

  test('a wrong resource type or a body without attributes', async () => {
    assert.deepEqual(problems(await call('POST', '/v2/webhooks', { body: { data: { type: 'party', attributes: base } } })), ['/data/type invalid']);
    assert.deepEqual(problems(await call('POST', '/v2/webhooks', { body: { data: { type: 'webhook' } } })), ['/data/attributes blank']);
    assert.deepEqual(problems(await call('POST', '/v2/webhooks', { body: [] })), [' invalid']);
  });

  test('patch applies the same rules', async () => {
    const hook = await created();
    const patchCases: [Record<string, unknown>, string[]][] = [
      [{ url: '' }, ['/data/attributes/url blank']],
      [{ url: null }, ['/data/attributes/url invalid']],
      [{ url: 'http://hooks.example.com/' }, ['/data/attributes/url invalid']],
      [{ url: 'https://10.0.0.1/' }, ['/data/attributes/url invalid']],
      [{ events: [] }, ['/data/attributes/events blank']],
      [{ events: null }, ['/data/attributes/events invalid']],
      [{ events: [SUCCEEDED, SUCCEEDED] }, ['/data/attributes/events duplicate_event']],
      [{ events: [SUCCEEDED, 'bogus'] }, ['/data/attributes/events/1 invalid']],
      [{ active: null }, ['/data/attributes/active invalid']],
      [{ headers: [{ name: 'webhook-signature', value: 'x' }] }, ['/data/attributes/headers/0/name invalid']],
      [{ headers: 'X-A: b' }, ['/data/attributes/headers invalid']],
    ];
    for (const [attributes, expected] of patchCases) {
      assert.deepEqual(problems(await patch(hook.id, attributes)), expected, JSON.stringify(attributes));
    }
    const unchanged = await call('GET', `/v2/webhooks/${hook.id}`);
    assert.deepEqual(unchanged.body.data, hook, 'a refused patch changes nothing');
  });
});

describe('URL policy', () => {
  const refused = [
    'http://hooks.example.com/svc',
    'https://127.0.0.1/hook',
    'https://127.8.9.10/hook',
    'https://2130706433/hook',
    'https://0x7f.1/hook',
    'https://0.0.0.0/hook',
    'https://10.1.2.3/',
    'https://172.16.0.1/',
    'https://172.31.255.254/',
    'https://192.168.1.1/',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/',
    'https://[::]/',
    'https://[fd12:3456::1]/',
    'https://[fc00::1]/',
    'https://[fe80::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://localhost/',
    'https://LocalHost:8443/',
    'https://localhost./',
    'https://hooks.localhost/',
    'https://internal.example.com/',
    'https://mixed.example.com/',
    'https://mapped.example.com/',
  ];

  test('insecure and non-public targets are refused by default with a detail saying why', async () => {
    for (const url of refused) {
      const res = await create({ url, events: [SUCCEEDED] });
      assert.deepEqual(problems(res), ['/data/attributes/url invalid'], url);
      assert.ok(res.body.errors[0].detail.length > 20, url);
    }
    assert.match((await create({ url: 'http://hooks.example.com/', events: [SUCCEEDED] })).body.errors[0].detail, /https/);
    assert.match((await create({ url: 'https://internal.example.com/', events: [SUCCEEDED] })).body.errors[0].detail, /10\.20\.30\.40/);
    // A name that does not resolve now is accepted: deliveries check where they connect.
    assert.equal((await create({ url: 'https://nowhere.example.com/', events: [SUCCEEDED] })).status, 201);
  });

  test('names are resolved; literal addresses and localhost are not looked up', async () => {
    lookups.length = 0;
    await create({ url: 'https://127.0.0.1/', events: [SUCCEEDED] });
    await create({ url: 'https://[::1]/', events: [SUCCEEDED] });
    await create({ url: 'https://localhost/', events: [SUCCEEDED] });
    assert.deepEqual(lookups, []);
    await create({ url: 'https://internal.example.com/', events: [SUCCEEDED] });
    assert.deepEqual(lookups, ['internal.example.com']);
  });

  test('with insecure targets allowed, http and loopback or private receivers are accepted', async () => {
    t.webhooks.allowInsecure = true;
    try {
      for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:8080/hook', 'https://[::1]:8443/', 'https://10.1.2.3/', 'http://internal.example.com/', 'https://[::ffff:127.0.0.1]/']) {
        const res = await create({ url, events: [SUCCEEDED] });
        assert.equal(res.status, 201, `${url}: ${res.text}`);
      }
      const hook = await created();
      const patched = await patch(hook.id, { url: 'http://127.0.0.1:4000/receiver' });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.data.attributes.url, 'http://127.0.0.1:4000/receiver');
      // Still refused: credentials, other schemes.
      for (const url of ['http://user:pw@127.0.0.1/', 'ftp://127.0.0.1/']) {
        assert.deepEqual(problems(await create({ url, events: [SUCCEEDED] })), ['/data/attributes/url invalid'], url);
      }
    } finally {
      t.webhooks.allowInsecure = false;
    }
    assert.equal((await create({ url: 'http://127.0.0.1:9/hook', events: [SUCCEEDED] })).status, 422, 'refused again');
  });

  test('a stored insecure URL does not block patches of other attributes', async () => {
    t.webhooks.allowInsecure = true;
    let id: string;
    try {
      id = (await created({ url: 'http://127.0.0.1:9/hook' })).id;
    } finally {
      t.webhooks.allowInsecure = false;
    }
    const res = await patch(id, { active: false });
    assert.equal(res.status, 200, res.text);
  });
});

describe('event catalogue and source addresses', () => {
  // Every name of the Events part of the spec.
  const transport = [
    'vessel_arrived', 'vessel_discharged', 'vessel_loaded', 'vessel_departed', 'rail_departed', 'rail_arrived', 'rail_loaded', 'rail_unloaded',
    'transshipment_arrived', 'transshipment_discharged', 'transshipment_loaded', 'transshipment_departed',
    'feeder_arrived', 'feeder_discharged', 'feeder_loaded', 'feeder_departed', 'empty_out', 'full_in', 'full_out', 'empty_in',
    'vessel_berthed', 'arrived_at_inland_destination', 'estimated.arrived_at_inland_destination', 'available',
  ].map((n) => `container.transport.${n}`);
  const specNames = [
    ...transport,
    'shipment.estimated.arrival',
    'tracking_request.succeeded', 'tracking_request.failed', 'tracking_request.awaiting_manifest', 'tracking_request.tracking_stopped',
    'container.created', 'container.updated', 'container.pod_terminal_changed', 'container.pickup_lfd.changed', 'container.pickup_lfd_line.changed',
    'document.extracted', 'document.extraction_failed',
  ];

  test('GET /v2/webhooks/events lists every event by category, each with a description', async () => {
    const res = await call('GET', '/v2/webhooks/events');
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type')!, /^application\/vnd\.api\+json/);
    const categories = res.body.data;
    assert.ok(Array.isArray(categories) && categories.length === 5);
    for (const c of categories) {
      assert.equal(c.type, 'webhook_event_category');
      assert.equal(typeof c.id, 'string');
      assert.equal(typeof c.attributes.name, 'string');
      for (const e of c.attributes.events) assert.ok(typeof e.description === 'string' && e.description.length > 10, e.name);
    }
    const listed = categories.flatMap((c: any) => c.attributes.events.map((e: any) => e.name));
    assert.equal(listed.length, 36);
    assert.deepEqual([...listed].sort(), [...specNames].sort());
    const transportCategory = categories.find((c: any) => c.attributes.events.some((e: any) => e.name === 'container.transport.vessel_arrived'));
    assert.equal(transportCategory.attributes.events.length, 24);
  });

  test('every catalogue event is accepted in a subscription', async () => {
    const hook = await created({ events: specNames });
    assert.deepEqual(hook.attributes.events, specNames);
  });

  test('GET /v2/webhooks/ips answers plain JSON, empty by default, then the configured addresses', async () => {
    const res = await call('GET', '/v2/webhooks/ips');
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    assert.deepEqual(res.body.webhook_notification_ips, []);
    assert.ok(!Number.isNaN(Date.parse(res.body.last_updated)) && res.body.last_updated.endsWith('Z'));

    Object.assign(t.webhooks, { sourceIps: ['203.0.113.5', '2001:db8::5'], sourceIpsUpdatedAt: new Date('2026-11-01T00:00:00Z') });
    const configured = await call('GET', '/v2/webhooks/ips');
    assert.deepEqual(configured.body, { webhook_notification_ips: ['203.0.113.5', '2001:db8::5'], last_updated: '2026-11-01T00:00:00.000Z' });
  });

  test('events and ips are static routes, not ids: they need a key, and other methods on them are 404s', async () => {
    assert.equal((await call('GET', '/v2/webhooks/events', { key: null })).status, 401);
    assert.equal((await call('GET', '/v2/webhooks/ips', { key: null })).status, 401);
    assert.equal((await call('DELETE', '/v2/webhooks/events')).status, 404);
    assert.equal((await call('PATCH', '/v2/webhooks/ips', { body: webhook({ active: false }) })).status, 404);
  });

  test('the OpenAPI document describes the webhook routes', async () => {
    const res = await call('GET', '/v2/openapi.json', { key: null });
    const paths = res.body.paths;
    assert.deepEqual(Object.keys(paths['/v2/webhooks']).sort(), ['get', 'post']);
    assert.deepEqual(Object.keys(paths['/v2/webhooks/{id}']).sort(), ['delete', 'get', 'patch']);
    assert.ok(paths['/v2/webhooks/events'].get);
    assert.ok(paths['/v2/webhooks/ips'].get.responses['200'].content['application/json']);
    const events = paths['/v2/webhooks'].post.requestBody.content['application/vnd.api+json'].schema.properties.data.properties.attributes.properties.events;
    assert.equal(events.items.enum.length, 36);
  });
});
