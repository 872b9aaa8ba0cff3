// The tracking requests API: validation, the duplicate rule, filters, labels, isolation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/app.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

const tr = (attributes: Record<string, unknown>, relationships?: unknown) => ({ data: { type: 'tracking_request', attributes, ...(relationships ? { relationships } : {}) } });
const post = (attributes: Record<string, unknown>, key?: string) => t.request('POST', '/v2/tracking_requests', { body: tr(attributes), key });

describe('create', () => {
  test('201 with status pending and a null tracked object', async () => {
    const res = await post({ request_type: 'bill_of_lading', request_number: ' maeu 123456789 ', scac: 'MAEU', ref_numbers: ['PO-1'] });
    assert.equal(res.status, 201);
    const { attributes, relationships, links, id } = res.body.data;
    assert.equal(attributes.status, 'pending');
    assert.equal(attributes.request_number, 'MAEU123456789');
    assert.equal(attributes.scac, 'MAEU');
    assert.deepEqual(attributes.ref_numbers, ['PO-1']);
    assert.equal(attributes.failed_reason, null);
    assert.equal(attributes.is_retrying, false);
    assert.deepEqual(relationships.tracked_object, { data: null });
    assert.equal(links.self, `/v2/tracking_requests/${id}`);
  });

  test('an alternative SCAC is accepted as its line', async () => {
    const res = await post({ request_type: 'booking_number', request_number: 'ALT1', scac: 'MEDU' });
    assert.equal(res.status, 201);
    assert.equal(res.body.data.attributes.scac, 'MSCU');
  });

  test('422 with pointers and codes for each bad attribute', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ request_type: 'bill_of_lading', scac: 'MAEU' }, '/data/attributes/request_number', 'blank'],
      [{ request_type: 'bill_of_lading', request_number: '   ', scac: 'MAEU' }, '/data/attributes/request_number', 'blank'],
      [{ request_type: 'bill_of_lading', request_number: 'X1' }, '/data/attributes/scac', 'blank'],
      [{ request_type: 'bill_of_lading', request_number: 'X1', scac: 'MAE' }, '/data/attributes/scac', 'invalid'],
      [{ request_type: 'bill_of_lading', request_number: 'X1', scac: 'ZZZZ' }, '/data/attributes/scac', 'not_recognized'],
      [{ request_type: 'parcel', request_number: 'X1', scac: 'MAEU' }, '/data/attributes/request_type', 'invalid'],
      [{ request_type: 'bill_of_lading', request_number: 'X1', scac: 'MAEU', ref_numbers: 'PO-1' }, '/data/attributes/ref_numbers', 'invalid'],
      [{ request_type: 'bill_of_lading', request_number: 'X1', scac: 'MAEU', ref_numbers: [1] }, '/data/attributes/ref_numbers/0', 'invalid'],
    ];
    for (const [attributes, pointer, code] of cases) {
      const res = await post(attributes);
      assert.equal(res.status, 422, JSON.stringify(attributes));
      const error = res.body.errors.find((e: any) => e.source.pointer === pointer);
      assert.ok(error, `${JSON.stringify(attributes)} → ${JSON.stringify(res.body.errors)}`);
      assert.equal(error.code, code, JSON.stringify(attributes));
      assert.equal(error.title, 'Unprocessable Entity');
    }
  });

  test('a line that cannot track this kind of number is refused as unsupported', async () => {
    const { rows } = await t.db.query('SELECT scac FROM shipping_lines WHERE NOT container_number_tracking_support LIMIT 1');
    const res = await post({ request_type: 'container', request_number: 'MSKU1234565', scac: rows[0].scac });
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].code, 'not_supported');
  });

  test('a customer must be a party of this account', async () => {
    const party = await t.request('POST', '/v2/parties', { body: { data: { type: 'party', attributes: { company_name: 'Consignee Co' } } } });
    const ok = await t.request('POST', '/v2/tracking_requests', {
      body: tr({ request_type: 'bill_of_lading', request_number: 'CUST1', scac: 'MAEU' }, { customer: { data: { type: 'party', id: party.body.data.id } } }),
    });
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.body.data.relationships.customer.data, { type: 'party', id: party.body.data.id });
    const other = await t.newAccount('Other');
    const foreign = await t.request('POST', '/v2/tracking_requests', {
      key: other.key,
      body: tr({ request_type: 'bill_of_lading', request_number: 'CUST2', scac: 'MAEU' }, { customer: { data: { type: 'party', id: party.body.data.id } } }),
    });
    assert.equal(foreign.status, 422);
    assert.equal(foreign.body.errors[0].source.pointer, '/data/relationships/customer/data/id');
  });
});

describe('the duplicate rule', () => {
  test('a second request for the same number and SCAC is a 422 duplicate naming both', async () => {
    assert.equal((await post({ request_type: 'bill_of_lading', request_number: 'DUP1', scac: 'MAEU' })).status, 201);
    const again = await post({ request_type: 'bill_of_lading', request_number: 'dup1', scac: 'MAEU' });
    assert.equal(again.status, 422);
    const [error] = again.body.errors;
    assert.equal(error.code, 'duplicate');
    assert.equal(error.source.pointer, '/data/attributes/request_number');
    assert.match(error.detail, /DUP1/);
    assert.match(error.detail, /MAEU/);
    // Another account may track the same number.
    const other = await t.newAccount('Also tracking');
    assert.equal((await post({ request_type: 'bill_of_lading', request_number: 'DUP1', scac: 'MAEU' }, other.key)).status, 201);
  });

  test('50 concurrent identical requests: exactly one is created', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => post({ request_type: 'booking_number', request_number: 'RACE123', scac: 'HLCU' })));
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1);
    assert.equal(statuses.filter((s) => s === 422).length, 49);
    assert.ok(results.filter((r) => r.status === 422).every((r) => r.body.errors[0].code === 'duplicate'));
  });

  test('a failed request no longer blocks a new one', async () => {
    const res = await post({ request_type: 'bill_of_lading', request_number: 'RETRY1', scac: 'MAEU' });
    await t.db.query("UPDATE tracking_requests SET status = 'failed', failed_reason = 'not_found' WHERE id = $1", [res.body.data.id]);
    assert.equal((await post({ request_type: 'bill_of_lading', request_number: 'RETRY1', scac: 'MAEU' })).status, 201);
  });
});

describe('list, get, patch', () => {
  test('newest first, with filters; unknown filters are ignored', async () => {
    const other = await t.newAccount('Lister');
    const created: string[] = [];
    for (const [n, type, scac] of [['L1', 'bill_of_lading', 'MAEU'], ['L2', 'booking_number', 'CMDU'], ['L3', 'bill_of_lading', 'CMDU']]) {
      t.clock.advance(60_000);
      const res = await post({ request_type: type, request_number: n, scac, ref_numbers: [`REF-${n}`] }, other.key);
      created.push(res.body.data.id);
    }
    const get = (q: string) => t.request('GET', `/v2/tracking_requests${q}`, { key: other.key });
    assert.deepEqual((await get('')).body.data.map((r: any) => r.attributes.request_number), ['L3', 'L2', 'L1']);
    assert.deepEqual((await get('?filter[scac]=CMDU')).body.data.map((r: any) => r.attributes.request_number), ['L3', 'L2']);
    assert.deepEqual((await get('?filter[request_type]=bill_of_lading')).body.data.map((r: any) => r.attributes.request_number), ['L3', 'L1']);
    assert.deepEqual((await get('?filter[request_number]=l2')).body.data.map((r: any) => r.id), [created[1]]);
    assert.deepEqual((await get('?q=ref-l1')).body.data.map((r: any) => r.id), [created[0]]);
    assert.deepEqual((await get('?filter[status]=pending&filter[nonsense]=1')).body.meta.total, 3);
    assert.equal((await get('?filter[status]=failed')).body.meta.total, 0);
    // A status or request type svc has no such thing as is a 400 naming the filter, not an empty page.
    for (const name of ['filter[status]', 'filter[request_type]']) {
      const bogus = await get(`?${name}=bogus`);
      assert.equal(bogus.status, 400, name);
      assert.equal(bogus.body.errors[0].source.parameter, name);
    }
    const middle = new Date(t.clock.now().getTime() - 90_000).toISOString();
    assert.equal((await get(`?filter[created_at][start]=${middle}`)).body.meta.total, 2);
    assert.equal((await get(`?filter[created_at][end]=${middle}`)).body.meta.total, 1);
    assert.equal((await get('?filter[created_at][start]=yesterday')).status, 400);
  });

  test('get one with its customer included; patch ref numbers and tags', async () => {
    const party = await t.request('POST', '/v2/parties', { body: { data: { type: 'party', attributes: { company_name: 'Included Co' } } } });
    const created = await t.request('POST', '/v2/tracking_requests', {
      body: tr({ request_type: 'bill_of_lading', request_number: 'GET1', scac: 'MAEU' }, { customer: { data: { type: 'party', id: party.body.data.id } } }),
    });
    const id = created.body.data.id;
    const got = await t.request('GET', `/v2/tracking_requests/${id}?include=customer,tracked_object`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.included.map((r: any) => r.type), ['party']);
    const patched = await t.request('PATCH', `/v2/tracking_requests/${id}`, { body: tr({ ref_numbers: ['A', 'B'], tags: ['urgent'] }) });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.data.attributes.ref_numbers, ['A', 'B']);
    assert.deepEqual(patched.body.data.attributes.tags, ['urgent']);
    assert.equal((await t.request('GET', `/v2/tracking_requests/${id}?include=shipments`)).status, 400);

    // The reference's clients send one ref_number; null clears; with ref_numbers too it is a 422.
    const one = await t.request('PATCH', `/v2/tracking_requests/${id}`, { body: tr({ ref_number: ' REF-9 ' }) });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body.data.attributes.ref_numbers, ['REF-9']);
    assert.deepEqual(one.body.data.attributes.tags, ['urgent'], 'what is not sent stays');
    const cleared = await t.request('PATCH', `/v2/tracking_requests/${id}`, { body: tr({ ref_number: null }) });
    assert.deepEqual(cleared.body.data.attributes.ref_numbers, []);
    const both = await t.request('PATCH', `/v2/tracking_requests/${id}`, { body: tr({ ref_number: 'X', ref_numbers: ['Y'] }) });
    assert.equal(both.status, 422);
    assert.deepEqual([both.body.errors[0].code, both.body.errors[0].source.pointer], ['conflict', '/data/attributes/ref_number']);

    // Each tag and reference number once (the reference's uniqueItems), after trimming.
    const twice = await t.request('PATCH', `/v2/tracking_requests/${id}`, { body: tr({ tags: ['t', 'u', ' t'] }) });
    assert.equal(twice.status, 422, twice.text);
    assert.deepEqual([twice.body.errors[0].code, twice.body.errors[0].source.pointer], ['not_unique', '/data/attributes/tags/2']);
    assert.deepEqual((await t.request('GET', `/v2/tracking_requests/${id}`)).body.data.attributes.tags, ['urgent']);
  });

  test("another account's request answers 404 on get and patch", async () => {
    const other = await t.newAccount('Snoop');
    const mine = await post({ request_type: 'bill_of_lading', request_number: 'PRIVATE1', scac: 'MAEU' });
    assert.equal((await t.request('GET', `/v2/tracking_requests/${mine.body.data.id}`, { key: other.key })).status, 404);
    assert.equal((await t.request('PATCH', `/v2/tracking_requests/${mine.body.data.id}`, { key: other.key, body: tr({ tags: ['x'] }) })).status, 404);
    assert.equal((await t.request('GET', '/v2/tracking_requests?filter[request_number]=PRIVATE1', { key: other.key })).body.meta.total, 0);
  });
});

describe('lines svc has no carrier connector for', () => {
  // The connector registry of the tracking harness: the sandbox carriers only.
  let h: TrackingHarness;
  before(async () => {
    h = await startTrackingHarness();
  });
  after(async () => {
    await h.close();
  });
  const postTo = (app: TestApp, attributes: Record<string, unknown>) => app.request('POST', '/v2/tracking_requests', { body: tr(attributes) });

  test('a known line without a connector is a 422 unsupported_scac naming it, not a day of retries', async () => {
    for (const [scac, request_type] of [['WHLC', 'bill_of_lading'], ['SUDU', 'booking_number'], ['whlc', 'container']]) {
      const res = await postTo(h, { request_type, request_number: 'TPCU1234567', scac });
      assert.equal(res.status, 422, `${scac}: ${res.text}`);
      const [error] = res.body.errors;
      assert.equal(error.code, 'unsupported_scac');
      assert.equal(error.source.pointer, '/data/attributes/scac');
      assert.match(error.detail, new RegExp(`'${scac.toUpperCase()}'`));
      assert.match(error.detail, /known shipping line that svc cannot track yet/);
    }
    assert.equal((await h.request('GET', '/v2/tracking_requests')).body.meta.total, 0, 'nothing was stored');
    // Lines with a connector, directly or by an alternative SCAC, and unknown SCACs are as before.
    assert.equal((await postTo(h, { request_type: 'bill_of_lading', request_number: 'WHL1', scac: 'MAEU' })).status, 201);
    assert.equal((await postTo(h, { request_type: 'booking_number', request_number: 'ALT1', scac: 'MEDU' })).status, 201);
    assert.equal((await postTo(h, { request_type: 'bill_of_lading', request_number: 'X1', scac: 'ZZZZ' })).body.errors[0].code, 'not_recognized');
    // Without a connector registry (a plain app) every known line is accepted, as before.
    assert.equal((await postTo(t, { request_type: 'bill_of_lading', request_number: 'WHL1', scac: 'WHLC' })).status, 201);
  });

  test('shipping lines report tracking support only for lines svc can track here', async () => {
    const all = (await h.request('GET', '/v2/shipping_lines')).body.data;
    const support = (scac: string) => {
      const a = all.find((l: any) => l.attributes.scac === scac).attributes;
      return [a.bill_of_lading_tracking_support, a.booking_number_tracking_support, a.container_number_tracking_support];
    };
    assert.deepEqual(support('WHLC'), [false, false, false]);
    assert.deepEqual(support('SUDU'), [false, false, false]);
    assert.deepEqual(support('TEST'), [true, true, true]);
    assert.equal(support('MAEU')[0], true);
    assert.deepEqual((await h.request('GET', '/v2/shipping_lines/WHLC')).body.data.attributes.bill_of_lading_tracking_support, false);
    // The coverage list still speaks where svc knows no connectors.
    assert.equal((await t.request('GET', '/v2/shipping_lines/WHLC')).body.data.attributes.bill_of_lading_tracking_support, true);
  });
});
