// GET /v2/shipments for the web app's list: `sort`, filter[pol_locode] (containers too),
// filter[on_hold], filter[pod_eta_at], and `q` comparing numbers without spaces and dashes. Every
// answer is checked against the served OpenAPI document; another account's records never show.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { insertShipment, saveShipmentState, upsertContainer } from '../src/store/shipments.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { openApiChecker, type OpenApiChecker } from './support/openapi.ts';

let t: TestApp;
let checker: OpenApiChecker;
const day = (n: number) => new Date(Date.UTC(2026, 10, 20 + n, 12)).toISOString();
const ids: Record<string, string> = {};
let otherKey: string;
let otherContainer: string;

async function seed(
  accountId: string,
  name: string,
  s: { number: string; scac: string; pol: string; pod: string; podName: string; eta?: string; ata?: string; refs?: string[]; containers: { number: string; hold?: 'hold' | 'pending'; refs?: string[] }[] },
): Promise<string[]> {
  const at = new Date(Date.UTC(2026, 10, 1, 12, Object.keys(ids).length));
  const row = await insertShipment(t.db, { account_id: accountId, scac: s.scac, request_type: 'bill_of_lading', request_number: s.number, ref_numbers: s.refs ?? [], customer_id: null, at });
  ids[name] = row.id;
  const containerIds = [];
  for (const c of s.containers) {
    const holds = c.hold ? [{ name: 'customs', status: c.hold, description: null }] : [];
    const { row: container } = await upsertContainer(t.db, { account_id: accountId, shipment_id: row.id, number: c.number, ref_numbers: c.refs ?? [], state: { current_status: 'on_ship', holds_at_pod_terminal: holds }, at });
    containerIds.push(container.id);
  }
  const state = { port_of_lading_locode: s.pol, port_of_discharge_locode: s.pod, port_of_discharge_name: s.podName, pod_eta_at: s.eta ?? null, pod_ata_at: s.ata ?? null };
  await saveShipmentState(t.db, row.id, { state, billOfLadingNumber: null, bookingNumber: null, at });
  return containerIds;
}

forFile(
  async () => {
    t = await startTestApp();
    // Created in this order: newest first is C, B, A.
    await seed(t.accountId, 'A', { number: 'BL-A', scac: 'MAEU', pol: 'CNSHA', pod: 'USLAX', podName: 'Los Angeles', eta: day(5), refs: ['PO 77'], containers: [{ number: 'MSKU1234565', hold: 'hold' }] });
    await seed(t.accountId, 'B', { number: 'BL-B', scac: 'MSCU', pol: 'DEHAM', pod: 'NLRTM', podName: 'Rotterdam', eta: day(1), ata: day(1), containers: [{ number: 'MSCU7654321', hold: 'pending', refs: ['CUST-9'] }] });
    await seed(t.accountId, 'C', { number: 'BL-C', scac: 'CMDU', pol: 'CNSHA', pod: 'DEHAM', podName: 'Hamburg', containers: [] });
    const b = await t.newAccount('Account B');
    otherKey = b.key;
    [otherContainer] = await seed(b.accountId, 'other', { number: 'BL-A2', scac: 'MAEU', pol: 'CNSHA', pod: 'USLAX', podName: 'Los Angeles', eta: day(5), refs: ['PO 77'], containers: [{ number: 'MSKU7777777', hold: 'hold' }] });
    checker = await openApiChecker(t);
    return t;
  },
  () => {},
);

async function list(query: string, key?: string): Promise<string[]> {
  const res = await checker.call('GET', `/v2/shipments?${query}`, '/v2/shipments', { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((r: { id: string }) => r.id);
}

const names = async (query: string, key?: string) => (await list(query, key)).map((id) => Object.keys(ids).find((n) => ids[n] === id));

describe('GET /v2/shipments sort', () => {
  test('each field orders both ways; records without a value come last either way', async () => {
    assert.deepEqual(await names(''), ['C', 'B', 'A'], 'newest first by default');
    assert.deepEqual(await names('sort=created_at'), ['A', 'B', 'C']);
    assert.deepEqual(await names('sort=bill_of_lading_number'), ['A', 'B', 'C']);
    assert.deepEqual(await names('sort=-bill_of_lading_number'), ['C', 'B', 'A']);
    assert.deepEqual(await names('sort=shipping_line_scac'), ['C', 'A', 'B']);
    assert.deepEqual(await names('sort=port_of_discharge_name'), ['C', 'A', 'B']);
    assert.deepEqual(await names('sort=pod_arrival_at'), ['B', 'A', 'C'], 'the arrival, then the estimate; none last');
    assert.deepEqual(await names('sort=-pod_arrival_at'), ['A', 'B', 'C'], 'none last descending too');
    assert.deepEqual(await names('sort=-line_tracking_last_succeeded_at'), ['C', 'B', 'A'], 'equals (all null here) newest first');
  });

  test('pages follow the order, and its links carry it on', async () => {
    const first = await checker.call('GET', '/v2/shipments?sort=bill_of_lading_number&page[size]=2', '/v2/shipments');
    assert.deepEqual(first.body.data.map((r: any) => r.id), [ids.A, ids.B]);
    const next = new URL(first.body.links.next);
    assert.equal(next.searchParams.get('sort'), 'bill_of_lading_number');
    assert.deepEqual((await checker.call('GET', next.pathname + next.search, '/v2/shipments')).body.data.map((r: any) => r.id), [ids.C]);
  });

  test('an unknown field is a 400 naming sort', async () => {
    for (const sort of ['eta', '--created_at', 'created_at,updated_at', 'state']) {
      const res = await checker.call('GET', `/v2/shipments?sort=${sort}`, '/v2/shipments');
      assert.equal(res.status, 400, sort);
      assert.equal(res.body.errors[0].source.parameter, 'sort');
    }
  });
});

describe('GET /v2/shipments filters for the web list', () => {
  test('filter[pol_locode]: the port of lading only, in any case, any of a list', async () => {
    assert.deepEqual(await names('filter[pol_locode]=cnsha'), ['C', 'A']);
    assert.deepEqual(await names('filter[pol_locode]=DEHAM'), ['B'], 'a port of discharge elsewhere is not a port of lading');
    assert.deepEqual(await names('filter[pol_locode]=DEHAM,CNSHA&filter[line_scac]=MAEU'), ['A']);
    const res = await checker.call('GET', '/v2/shipments?filter[pol_locode]=XX', '/v2/shipments');
    assert.equal(res.body.errors[0].source.parameter, 'filter[pol_locode]');
  });

  test('filter[on_hold]: a container with an active hold (a pending one is none)', async () => {
    assert.deepEqual(await names('filter[on_hold]=true'), ['A']);
    assert.deepEqual(await names('filter[on_hold]=false'), ['C', 'B']);
    const res = await checker.call('GET', '/v2/shipments?filter[on_hold]=maybe', '/v2/shipments');
    assert.equal(res.body.errors[0].source.parameter, 'filter[on_hold]');
  });

  test('filter[on_hold] follows the holds as containers change (a hold set, cleared, its container gone), the other containers included', async () => {
    const c = await t.newAccount('Holds');
    const at = new Date(Date.UTC(2026, 10, 2));
    const shipment = await insertShipment(t.db, { account_id: c.accountId, scac: 'MAEU', request_type: 'bill_of_lading', request_number: 'BL-H', ref_numbers: [], customer_id: null, at });
    const put = (number: string, hold: string | null) =>
      upsertContainer(t.db, { account_id: c.accountId, shipment_id: shipment.id, number, ref_numbers: [], at, state: { holds_at_pod_terminal: hold ? [{ name: 'customs', status: hold, description: null }] : [] } });
    const held = async () => (await list('filter[on_hold]=true', c.key)).length === 1;
    await put('MSKU0000001', null);
    assert.equal(await held(), false);
    await put('MSKU0000002', 'hold');
    assert.equal(await held(), true, 'a new container on hold');
    await put('MSKU0000001', 'hold');
    await put('MSKU0000002', 'pending');
    assert.equal(await held(), true, 'another container still on hold');
    await put('MSKU0000001', null);
    assert.equal(await held(), false, 'the last hold cleared');
    assert.deepEqual(await list('filter[on_hold]=false', c.key), [shipment.id]);
    const { row } = await put('MSKU0000003', 'hold');
    assert.equal(await held(), true);
    await t.db.query('DELETE FROM containers WHERE id = $1', [row.id]);
    assert.equal(await held(), false, 'the held container gone');
  });

  test('filter[status] and filter[port] follow the containers and the state as they change (kept on the shipment, migration 026)', async () => {
    const c = await t.newAccount('Statuses');
    const at = new Date(Date.UTC(2026, 10, 2));
    const [s1, s2] = await Promise.all(
      ['BL-S1', 'BL-S2'].map((number) => insertShipment(t.db, { account_id: c.accountId, scac: 'MAEU', request_type: 'bill_of_lading', request_number: number, ref_numbers: [], customer_id: null, at })),
    );
    const put = (shipmentId: string, number: string, status?: string) =>
      upsertContainer(t.db, { account_id: c.accountId, shipment_id: shipmentId, number, ref_numbers: [], at, state: status ? { current_status: status } : {} });
    const having = async (query: string) => (await list(query, c.key)).sort();
    assert.deepEqual(await having('filter[status]=new'), [], 'no containers, no status');
    const { row: first } = await put(s1.id, 'MSKU0000001');
    assert.deepEqual(await having('filter[status]=new'), [s1.id], 'a container without a stored status is new');
    await put(s1.id, 'MSKU0000001', 'on_ship');
    await put(s2.id, 'MSKU0000002', 'available');
    await put(s1.id, 'MSKU0000003', 'available');
    assert.deepEqual(await having('filter[status]=new'), []);
    assert.deepEqual(await having('filter[status]=on_ship'), [s1.id]);
    assert.deepEqual(await having('filter[status]=available'), [s1.id, s2.id].sort());
    await t.db.query('UPDATE containers SET shipment_id = $1 WHERE id = $2', [s2.id, first.id]);
    assert.deepEqual(await having('filter[status]=on_ship'), [s2.id], 'a container moved to another shipment');
    await t.db.query('DELETE FROM containers WHERE id = $1', [first.id]);
    assert.deepEqual(await having('filter[status]=on_ship'), [], 'its container gone');
    assert.deepEqual(await having('filter[status]=available'), [s1.id, s2.id].sort());

    assert.deepEqual(await having('filter[port]=USLAX'), []);
    await saveShipmentState(t.db, s1.id, { state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'USLAX', destination_locode: 'USCHI' }, billOfLadingNumber: null, bookingNumber: null, at });
    await saveShipmentState(t.db, s2.id, { state: { port_of_lading_locode: 'USLAX', port_of_discharge_locode: 'CNSHA' }, billOfLadingNumber: null, bookingNumber: null, at });
    assert.deepEqual(await having('filter[port]=USLAX'), [s1.id, s2.id].sort(), 'discharge or lading');
    assert.deepEqual(await having('filter[port]=USCHI'), [s1.id], 'the destination');
    await saveShipmentState(t.db, s1.id, { state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'USLGB' }, billOfLadingNumber: null, bookingNumber: null, at });
    assert.deepEqual(await having('filter[port]=USLAX'), [s2.id], 'a port changed');
    assert.deepEqual(await having('filter[port]=USCHI'), [], 'a destination gone');
  });

  test("filter[pod_eta_at]: inclusive bounds on the carrier's estimate at the port of discharge", async () => {
    assert.deepEqual(await names(`filter[pod_eta_at][start]=${day(0)}&filter[pod_eta_at][end]=${day(5)}`), ['B', 'A']);
    assert.deepEqual(await names(`filter[pod_eta_at][start]=${day(2)}`), ['A']);
    assert.deepEqual(await names(`filter[pod_eta_at][end]=${day(2)}`), ['B']);
    const res = await checker.call('GET', `/v2/shipments?filter[pod_eta_at][start]=${day(5)}&filter[pod_eta_at][end]=${day(0)}`, '/v2/shipments');
    assert.equal(res.body.errors[0].source.parameter, 'filter[pod_eta_at][start]');
  });

  test('a state time that is no time is saved, and is in no range and last in the arrival order', async () => {
    const { accountId, key } = await t.newAccount('Odd times');
    await seed(accountId, 'odd', { number: 'BL-ODD', scac: 'MAEU', pol: 'CNSHA', pod: 'USLAX', podName: 'Los Angeles', eta: 'next Tuesday', containers: [] });
    await seed(accountId, 'fine', { number: 'BL-FINE', scac: 'MAEU', pol: 'CNSHA', pod: 'USLAX', podName: 'Los Angeles', eta: day(3), containers: [] });
    assert.deepEqual(await names(`filter[pod_eta_at][start]=${day(0)}`, key), ['fine']);
    assert.deepEqual(await names('sort=pod_arrival_at', key), ['fine', 'odd']);
  });

  test('q compares numbers without case, spaces and dashes, and finds containers by their reference numbers', async () => {
    assert.deepEqual(await names('q=MSKU 123456-5'), ['A']);
    assert.deepEqual(await names('q=msku-1234'), ['A']);
    assert.deepEqual(await names('q=BLA'), ['A'], 'BL-A without its dash');
    assert.deepEqual(await names('q=po77'), ['A']);
    assert.deepEqual(await names('q=cust 9'), ['B']);
    assert.deepEqual(await names('q=BL_'), [], 'an underscore is a character, not a wildcard');
    assert.deepEqual(await names('q= - '), ['C', 'B', 'A'], 'only dashes and spaces: no search');
  });

  test("another account's shipments never appear, and it sees its own", async () => {
    for (const query of ['q=MSKU', 'q=PO 77', 'filter[on_hold]=true', 'filter[pol_locode]=CNSHA', `filter[pod_eta_at][start]=${day(0)}`, 'sort=-pod_arrival_at']) {
      assert.ok(!(await list(query)).includes(ids.other), query);
      assert.deepEqual(await list(query, otherKey), [ids.other], query);
    }
  });
});

describe('GET /v2/containers filter[pol_locode]', () => {
  test("is the container's shipment's port of lading", async () => {
    const res = await checker.call('GET', '/v2/containers?filter[pol_locode]=CNSHA', '/v2/containers', { key: otherKey });
    assert.deepEqual(res.body.data.map((r: any) => r.id), [otherContainer]);
    const mine = await checker.call('GET', '/v2/containers?filter[pol_locode]=DEHAM', '/v2/containers');
    assert.equal(mine.body.data.length, 1);
    assert.equal(mine.body.data[0].attributes.number, 'MSCU7654321');
  });
});
