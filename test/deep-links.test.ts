// The find link's resolution (`/shipments/find?q=…`): an exact container number, then an exact
// shipment or reference number, then part of a container number, then part of a shipment or
// reference number, else the list; numbers compared without case, blanks and dashes; only the
// caller's account; the newest shipment first among equal matches; LIKE's wildcards literal. Each
// test seeds an account of its own through the store functions the tracking engine writes with.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deepLinkNumber, deepLinkPath, type DeepLinkTarget } from '../src/domain/deep-link.ts';
import { resolveDeepLink } from '../src/services/deep-links.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { findDeepLinkMatch } from '../src/store/deep-links.ts';
import { insertShipment, saveShipmentState, upsertContainer } from '../src/store/shipments.ts';
import { insertTrackingRequest, settleTrackingRequest } from '../src/store/tracking-requests.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';

let t: TestDatabase;
forFile(() => freshDatabase(), (s) => (t = s), (s) => s.drop());

// Every row is created a minute after the previous one, so creation order is seeding order.
let minute = 0;
const next = () => new Date(Date.UTC(2026, 10, 1, 12, minute++));

const newAccount = async () => (await insertAccount(t.db, `deep links ${minute}`)).id;

interface Seeded {
  id: string;
  containers: Record<string, string>;
}

/**
 * A shipment of `accountId` tracked by `request` (a B/L), with the numbers the carrier reported,
 * its reference numbers, containers with theirs, and optionally the tracking request it came from.
 */
async function shipment(
  accountId: string,
  s: { request: string; bl?: string; booking?: string; refs?: string[]; requestRefs?: string[]; containers?: { number: string; refs?: string[] }[] },
): Promise<Seeded> {
  const at = next();
  const row = await insertShipment(t.db, { account_id: accountId, scac: 'MSCU', request_type: 'bill_of_lading', request_number: s.request, ref_numbers: s.refs ?? [], customer_id: null, at });
  await saveShipmentState(t.db, row.id, { state: {}, billOfLadingNumber: s.bl ?? null, bookingNumber: s.booking ?? null, at });
  const containers: Record<string, string> = {};
  for (const c of s.containers ?? []) {
    const { row: container } = await upsertContainer(t.db, { account_id: accountId, shipment_id: row.id, number: c.number, ref_numbers: c.refs ?? [], state: {}, at });
    containers[c.number] = container.id;
  }
  if (s.requestRefs) {
    const request = await insertTrackingRequest(t.db, { account_id: accountId, request_number: s.request, request_type: 'bill_of_lading', scac: 'MSCU', ref_numbers: s.requestRefs, customer_id: null, at });
    assert.ok(request);
    await settleTrackingRequest(t.db, request.id, { status: 'created', failed_reason: null, is_retrying: false, retry_count: 0, next_attempt_at: null, awaiting_since: null, shipment_id: row.id }, at);
  }
  return { id: row.id, containers };
}

const resolve = (accountId: string, q: string) => resolveDeepLink(t.db, accountId, q);

describe('the five outcomes', () => {
  test('an exact container number opens its shipment with the container selected', async () => {
    const a = await newAccount();
    const s = await shipment(a, { request: 'MEDU1000001', containers: [{ number: 'MSCU1234567' }, { number: 'MSCU7654321' }] });
    const target = await resolve(a, 'MSCU1234567');
    assert.deepEqual(target, { outcome: 'container', shipmentId: s.id, containerId: s.containers.MSCU1234567 });
    assert.equal(deepLinkPath(target, 'MSCU1234567'), `/shipments/${s.id}?container=${s.containers.MSCU1234567}`);
  });

  test('an exact shipment number opens the shipment', async () => {
    const a = await newAccount();
    const s = await shipment(a, { request: 'MEDU2000002', containers: [{ number: 'MSCU2000002' }] });
    const target = await resolve(a, 'MEDU2000002');
    assert.deepEqual(target, { outcome: 'shipment', shipmentId: s.id });
    assert.equal(deepLinkPath(target, 'MEDU2000002'), `/shipments/${s.id}`);
  });

  test('part of a container number opens its shipment with the container selected', async () => {
    const a = await newAccount();
    const s = await shipment(a, { request: 'MEDU3000003', containers: [{ number: 'TGHU3141592' }] });
    assert.deepEqual(await resolve(a, '314159'), { outcome: 'partial_container', shipmentId: s.id, containerId: s.containers.TGHU3141592 });
  });

  test('part of a shipment number opens the shipment', async () => {
    const a = await newAccount();
    const s = await shipment(a, { request: 'MEDU4000004', bl: 'MEDUBL4271828', containers: [{ number: 'TGHU4000004' }] });
    assert.deepEqual(await resolve(a, 'bl42718'), { outcome: 'partial_shipment', shipmentId: s.id });
  });

  test('no match opens the shipments list with the query as typed', async () => {
    const a = await newAccount();
    await shipment(a, { request: 'MEDU5000005', containers: [{ number: 'TGHU5000005' }] });
    const target = await resolve(a, ' nothing & co/7 ');
    assert.deepEqual(target, { outcome: 'none' });
    assert.equal(deepLinkPath(target, ' nothing & co/7 '), '/shipments?q=nothing%20%26%20co%2F7');
  });

  test('an empty query, or one of blanks and dashes only, names nothing', async () => {
    const a = await newAccount();
    await shipment(a, { request: 'MEDU6000006', containers: [{ number: 'TGHU6000006' }] });
    for (const q of ['', '   ', '-', ' - -- ', '\t']) {
      assert.equal(deepLinkNumber(q), null, JSON.stringify(q));
      assert.deepEqual(await resolve(a, q), { outcome: 'none' }, JSON.stringify(q));
    }
  });
});

describe('identifiers', () => {
  test('a container number matches whatever its case, blanks and dashes', async () => {
    const a = await newAccount();
    const s = await shipment(a, { request: 'MEDU7000007', containers: [{ number: 'MSCU1234567' }] });
    for (const q of ['mscu 123456-7', 'MSCU-1234567', '  Mscu1234567\t', 'ms cu-12 34 567']) {
      assert.deepEqual(await resolve(a, q), { outcome: 'container', shipmentId: s.id, containerId: s.containers.MSCU1234567 }, q);
    }
  });

  test('a booking number, a B/L, the tracked number and reference numbers each open their shipment', async () => {
    const a = await newAccount();
    const s = await shipment(a, {
      request: 'HBL-8000008',
      bl: 'MEDUBL8000008',
      booking: 'BKG 8000008',
      refs: ['PO-4711'],
      requestRefs: ['ORDER 99'],
      containers: [{ number: 'TGHU8000008', refs: ['SKU-42'] }],
    });
    const shipmentPage = { outcome: 'shipment', shipmentId: s.id };
    assert.deepEqual(await resolve(a, 'bkg8000008'), shipmentPage, 'booking number, blanks ignored');
    assert.deepEqual(await resolve(a, 'medubl8000008'), shipmentPage, 'B/L');
    assert.deepEqual(await resolve(a, 'MEDU-BL 8000008'), shipmentPage, 'B/L with a dash and a blank');
    assert.deepEqual(await resolve(a, 'hbl8000008'), shipmentPage, 'the number it was tracked by');
    assert.deepEqual(await resolve(a, 'po 4711'), shipmentPage, "the shipment's reference number");
    assert.deepEqual(await resolve(a, 'order-99'), shipmentPage, "the tracking request's reference number");
    assert.deepEqual(await resolve(a, 'sku42'), { ...shipmentPage, containerId: s.containers.TGHU8000008 }, "a container's reference number selects it");
  });

  test("LIKE's wildcards in the query are characters to find", async () => {
    const a = await newAccount();
    const s = await shipment(a, { request: 'MEDU9000009', refs: ['A_C-100%'], containers: [{ number: 'TGHU9000009' }] });
    await shipment(a, { request: 'MEDU9000010', refs: ['ABC-100X'] });
    // The newer shipment would come first, were `%` and `_` wildcards.
    assert.deepEqual(await resolve(a, '%'), { outcome: 'partial_shipment', shipmentId: s.id });
    assert.deepEqual(await resolve(a, '_'), { outcome: 'partial_shipment', shipmentId: s.id });
    assert.deepEqual(await resolve(a, 'a_c'), { outcome: 'partial_shipment', shipmentId: s.id }, 'the newer ABC-100X does not match');
    assert.deepEqual(await resolve(a, 'C100%'), { outcome: 'partial_shipment', shipmentId: s.id });
    assert.deepEqual(await resolve(a, 'A%X'), { outcome: 'none' });
    assert.deepEqual(await resolve(a, 'T\\G'), { outcome: 'none' }, 'the escape character too');
  });
});

describe('which match wins', () => {
  test("another account's identical numbers never match", async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const own = await shipment(mine, { request: 'MEDU1100011', bl: 'SAMEBL11', refs: ['SAME-REF'], containers: [{ number: 'MSCU1100011' }] });
    // Newer, so it would come first were accounts not kept apart.
    await shipment(theirs, { request: 'MEDU1100011', bl: 'SAMEBL11', refs: ['SAME-REF'], containers: [{ number: 'MSCU1100011' }, { number: 'MSCU1199999' }] });
    assert.deepEqual(await resolve(mine, 'MSCU1100011'), { outcome: 'container', shipmentId: own.id, containerId: own.containers.MSCU1100011 });
    assert.deepEqual(await resolve(mine, 'samebl11'), { outcome: 'shipment', shipmentId: own.id });
    assert.deepEqual(await resolve(mine, 'same-ref'), { outcome: 'shipment', shipmentId: own.id });
    assert.deepEqual(await resolve(mine, '1100'), { outcome: 'partial_container', shipmentId: own.id, containerId: own.containers.MSCU1100011 });
    assert.deepEqual(await resolve(mine, 'MSCU1199999'), { outcome: 'none' });
    const empty = await newAccount();
    for (const q of ['MSCU1100011', 'SAMEBL11', 'SAME-REF', '1100']) assert.deepEqual(await resolve(empty, q), { outcome: 'none' }, q);
  });

  test('among equal matches the newest shipment comes first, then its own number before a container, then containers by number', async () => {
    const a = await newAccount();
    await shipment(a, { request: 'MEDU1200001', refs: ['JOB-12'], containers: [{ number: 'TGHU1200001' }] });
    const newer = await shipment(a, {
      request: 'MEDU1200002',
      refs: ['JOB-12'],
      containers: [{ number: 'TGHU1200009', refs: ['JOB-12'] }, { number: 'TGHU1200003', refs: ['JOB-12'] }],
    });
    assert.deepEqual(await resolve(a, 'job12'), { outcome: 'shipment', shipmentId: newer.id }, "the newer shipment's own reference");
    assert.deepEqual(await resolve(a, 'MEDU12'), { outcome: 'partial_shipment', shipmentId: newer.id });
    assert.deepEqual(await resolve(a, 'TGHU12'), { outcome: 'partial_container', shipmentId: newer.id, containerId: newer.containers.TGHU1200003 });
    // Only containers carry this one: the lowest container number of the newest shipment.
    const c = await shipment(a, { request: 'MEDU1200004', containers: [{ number: 'TGHU1200008', refs: ['LOT 5'] }, { number: 'TGHU1200007', refs: ['LOT 5'] }] });
    assert.deepEqual(await resolve(a, 'lot5'), { outcome: 'shipment', shipmentId: c.id, containerId: c.containers.TGHU1200007 });
  });

  test('an exact match wins over a newer partial one, at every rank', async () => {
    const a = await newAccount();
    const exactBl = await shipment(a, { request: 'MEDU1300001', bl: 'BL130' });
    await shipment(a, { request: 'MEDU1300002', bl: 'BL1300', containers: [{ number: 'XXBL1300000' }] });
    assert.deepEqual(await resolve(a, 'bl130'), { outcome: 'shipment', shipmentId: exactBl.id }, 'exact B/L over a partial B/L and a partial container');
    const exactBox = await shipment(a, { request: 'MEDU1300003', containers: [{ number: 'TGHU1300003' }] });
    await shipment(a, { request: 'MEDU1300004', refs: ['TGHU1300003-A'], containers: [{ number: 'TGHU1300004', refs: ['XTGHU1300003'] }] });
    assert.deepEqual(await resolve(a, 'TGHU 130000-3'), { outcome: 'container', shipmentId: exactBox.id, containerId: exactBox.containers.TGHU1300003 });
    const shipmentOverBox = await shipment(a, { request: 'MEDU1300005', booking: 'TGHU13000' });
    assert.deepEqual(await resolve(a, 'tghu13000'), { outcome: 'shipment', shipmentId: shipmentOverBox.id }, 'an exact booking number over older partial containers');
  });

  test('part of a container number wins over part of a newer shipment number', async () => {
    const a = await newAccount();
    const box = await shipment(a, { request: 'MEDU1400001', containers: [{ number: 'TGHU9876543' }] });
    await shipment(a, { request: 'MEDU1400002', bl: 'XYZ98765432100', refs: ['R-9876543'] });
    assert.deepEqual(await resolve(a, '9876543'), { outcome: 'partial_container', shipmentId: box.id, containerId: box.containers.TGHU9876543 });
  });
});

test("exact look-ups are served by indexes, not by reading the account's rows", async () => {
  // An account of a few hundred shipments, so the planner sees reading all of them as the cost it is.
  const a = await newAccount();
  await t.db.query(
    `WITH s AS (INSERT INTO shipments (account_id, scac, request_type, request_number, ref_numbers, created_at, updated_at)
                SELECT $1, 'MSCU', 'bill_of_lading', 'MEDU15' || i, ARRAY['PO-' || i], now(), now() FROM generate_series(1, 500) i RETURNING id, request_number),
          c AS (INSERT INTO containers (account_id, shipment_id, number, ref_numbers, created_at, updated_at)
                SELECT $1, id, 'TGHU' || right(request_number, 7), ARRAY['SKU-' || request_number], now(), now() FROM s)
     INSERT INTO tracking_requests (account_id, request_number, request_type, scac, status, ref_numbers, shipment_id, created_at, updated_at)
     SELECT $1, request_number, 'bill_of_lading', 'MSCU', 'created', ARRAY['ORDER-' || request_number], id, now(), now() FROM s`,
    [a],
  );
  await t.db.query('ANALYZE shipments, containers, tracking_requests');
  const client = await t.db.connect();
  try {
    // The tables are tiny, so a sequential scan would win; without it, the planner reads an
    // index on the expression compared if one matches it, else another index and filters.
    await client.query('SET enable_seqscan = off');
    let plan = '';
    const explaining = { query: async (text: string, values: unknown[]) => {
      const result = await client.query(`EXPLAIN ${text}`, values);
      plan = result.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      return { ...result, rows: [] };
    } };
    await findDeepLinkMatch(explaining as unknown as Parameters<typeof findDeepLinkMatch>[0], a, 'NOTHING15');
    for (const index of ['containers_account_number', 'shipments_bare_numbers', 'tracking_requests_bare_ref_numbers', 'containers_bare_ref_numbers']) {
      assert.match(plan, new RegExp(`\\b${index}\\b`), `${index} not used:\n${plan}`);
    }
  } finally {
    client.release();
  }
});

describe('deepLinkPath', () => {
  test('ids and the query are encoded for a URL', () => {
    const target: DeepLinkTarget = { outcome: 'partial_container', shipmentId: 'a1', containerId: 'b2' };
    assert.equal(deepLinkPath(target, 'x'), '/shipments/a1?container=b2');
    assert.equal(deepLinkPath({ outcome: 'none' }, 'MSCU 1234567?#'), '/shipments?q=MSCU%201234567%3F%23');
    assert.equal(deepLinkPath({ outcome: 'none' }, '   '), '/shipments?q=');
  });
});
