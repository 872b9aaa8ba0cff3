// GET /shipments/find?q=… in the web app: each outcome of the spec's resolution order becomes a
// redirect to the right page, in the signed-in user's account only; a signed-out visitor signs in
// first and then lands where the link leads.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { insertShipment, saveShipmentState, upsertContainer } from '../src/store/shipments.ts';
import { forFile } from './support/for-file.ts';
import { startWebTestApp, type WebClient, type WebTestApp } from './support/web.ts';

let t: WebTestApp;
forFile(() => startWebTestApp(), (s) => (t = s));

let minute = 0;
async function seed(accountId: string, s: { request: string; bl?: string; refs?: string[]; containers: string[] }) {
  const at = new Date(Date.UTC(2026, 10, 1, 12, minute++));
  const row = await insertShipment(t.db, { account_id: accountId, scac: 'MSCU', request_type: 'bill_of_lading', request_number: s.request, ref_numbers: s.refs ?? [], customer_id: null, at });
  await saveShipmentState(t.db, row.id, { state: {}, billOfLadingNumber: s.bl ?? null, bookingNumber: null, at });
  const containers: string[] = [];
  for (const number of s.containers) containers.push((await upsertContainer(t.db, { account_id: accountId, shipment_id: row.id, number, ref_numbers: [], state: {}, at })).row.id);
  return { id: row.id, containers };
}

describe('deep links', () => {
  let browser: WebClient;
  let shipment: { id: string; containers: string[] };
  before(async () => {
    shipment = await seed(t.accountId, { request: 'MEDU7000007', refs: ['PO-4711'], containers: ['MSCU7000007', 'MSCU7000011'] });
    const user = await t.newUser();
    browser = t.client();
    await browser.signIn(user.email, user.password);
  });

  const find = (q: string) => browser.get(`/shipments/find?q=${encodeURIComponent(q)}`);

  test('an exact container number, in any case and with spaces or dashes, selects the container', async () => {
    for (const q of ['MSCU7000011', 'mscu7000011', 'MSCU 700001-1', ' mscu-7000011 ']) {
      const page = await find(q);
      assert.equal(page.status, 302, q);
      assert.equal(page.location, `/shipments/${shipment.id}?container=${shipment.containers[1]}`, q);
      assert.equal(page.headers.get('cache-control'), 'no-store');
    }
  });

  test('an exact B/L or reference number opens the shipment', async () => {
    assert.equal((await find('medu7000007')).location, `/shipments/${shipment.id}`);
    assert.equal((await find('po-4711')).location, `/shipments/${shipment.id}`);
  });

  test('part of a container number selects that container; part of a shipment number opens the shipment', async () => {
    assert.equal((await find('7000011')).location, `/shipments/${shipment.id}?container=${shipment.containers[1]}`);
    assert.equal((await find('U700000')).location, `/shipments/${shipment.id}?container=${shipment.containers[0]}`);
    assert.equal((await find('PO-47')).location, `/shipments/${shipment.id}`);
  });

  test('no match lands on the shipments list with the query filled in', async () => {
    assert.equal((await find('NOPE 123')).location, '/shipments?q=NOPE%20123');
    assert.equal((await browser.get('/shipments/find')).location, '/shipments?q=');
  });

  test("another account's numbers never match", async () => {
    const other = await t.newAccount('Other');
    const theirs = await seed(other.accountId, { request: 'OTHR9000009', containers: ['OTHU9000009'] });
    assert.equal((await find('OTHU9000009')).location, '/shipments?q=OTHU9000009');
    assert.notEqual((await find('OTHR9000009')).location, `/shipments/${theirs.id}`);
  });

  test('a signed-out visitor signs in and then lands on the page the link leads to', async () => {
    const user = await t.newUser();
    const visitor = t.client();
    const first = await visitor.get('/shipments/find?q=mscu-7000011');
    assert.equal(first.status, 303);
    const signInPath = first.location!;
    const next = new URL(signInPath, 'http://x').searchParams.get('next')!;
    assert.equal(next, '/shipments/find?q=mscu-7000011');
    const signedIn = await visitor.signIn(user.email, user.password, next);
    assert.equal(signedIn.location, next);
    assert.equal((await visitor.get(next)).location, `/shipments/${shipment.id}?container=${shipment.containers[1]}`);
  });
});
