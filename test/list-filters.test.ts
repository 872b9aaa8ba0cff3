// The journey filters of GET /v2/shipments and GET /v2/containers (status, port, pod_locode,
// line_scac, updated_at): each keeps what it names and drops the rest, they combine with AND,
// pages and order hold, another account's records never show, a malformed value is a 400 naming
// its parameter, and every answer is the one the served OpenAPI document describes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { insertShipment, saveShipmentState, upsertContainer } from '../src/store/shipments.ts';
import type { TestApp } from './support/app.ts';
import { startTestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { openApiChecker, type OpenApiChecker } from './support/openapi.ts';

let t: TestApp;
let checker: OpenApiChecker;

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute));

interface Seeded {
  shipment: string;
  containers: Record<string, string>;
}

/** A shipment of `accountId` with its ports, and containers by number with their status (none: no status stored). */
async function seed(
  accountId: string,
  s: { number: string; scac: string; pol: string | null; pod: string | null; destination?: string | null; created: number; updated: number },
  containers: { number: string; status?: string; created: number; updated: number }[],
): Promise<Seeded> {
  const row = await insertShipment(t.db, { account_id: accountId, scac: s.scac, request_type: 'bill_of_lading', request_number: s.number, ref_numbers: [], customer_id: null, at: at(s.created) });
  const ids: Record<string, string> = {};
  for (const c of containers) {
    const state = c.status ? { current_status: c.status } : {};
    const { row: container } = await upsertContainer(t.db, { account_id: accountId, shipment_id: row.id, number: c.number, ref_numbers: [], state, at: at(c.created) });
    // The state again at a later instant: a change, so updated_at moves while created_at stays.
    if (c.updated !== c.created) await upsertContainer(t.db, { account_id: accountId, shipment_id: row.id, number: c.number, ref_numbers: [], state: { ...state, seal_number: 'S' }, at: at(c.updated) });
    ids[c.number] = container.id;
  }
  const state = { port_of_lading_locode: s.pol, port_of_discharge_locode: s.pod, destination_locode: s.destination ?? null };
  await saveShipmentState(t.db, row.id, { state, billOfLadingNumber: null, bookingNumber: null, at: at(s.updated) });
  return { shipment: row.id, containers: ids };
}

let s1: Seeded, s2: Seeded, s3: Seeded, s4: Seeded, other: Seeded;
let otherKey: string;

forFile(async () => {
  t = await startTestApp();
  await seedAll();
  return t;
}, () => {});

async function seedAll(): Promise<void> {
  // Created in this order, so newest first is S4, S3, S2, S1; updated in another order.
  s1 = await seed(t.accountId, { number: 'S1', scac: 'MAEU', pol: 'CNSHA', pod: 'USLAX', created: 1, updated: 40 }, [
    { number: 'MSKU0000001', status: 'on_ship', created: 1, updated: 31 },
    { number: 'MSKU0000002', status: 'grounded', created: 2, updated: 32 },
  ]);
  s2 = await seed(t.accountId, { number: 'S2', scac: 'MSCU', pol: 'DEHAM', pod: 'USNYC', destination: 'USCHI', created: 3, updated: 20 }, [
    { number: 'MSCU0000003', status: 'available', created: 3, updated: 33 },
  ]);
  // A container with no stored status: the API reports it new.
  s3 = await seed(t.accountId, { number: 'S3', scac: 'CMDU', pol: 'USLAX', pod: 'NLRTM', created: 4, updated: 30 }, [{ number: 'CMAU0000004', created: 4, updated: 4 }]);
  s4 = await seed(t.accountId, { number: 'S4', scac: 'MAEU', pol: null, pod: 'USLAX', created: 5, updated: 10 }, []);
  // Another account's shipment that every filter below would match.
  const b = await t.newAccount('Account B');
  otherKey = b.key;
  other = await seed(b.accountId, { number: 'SB', scac: 'MAEU', pol: 'USLAX', pod: 'USLAX', destination: 'USLAX', created: 6, updated: 30 }, [
    { number: 'MSKU0000009', status: 'on_ship', created: 6, updated: 30 },
  ]);
  checker = await openApiChecker(t);
}

/** The ids a documented list answers with, in order, after checking the answer against the document. */
async function ids(path: string, key?: string): Promise<string[]> {
  const template = path.split('?')[0];
  const res = await checker.call('GET', path, template, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((r: { id: string }) => r.id);
}

async function refused(path: string, parameter: string): Promise<string> {
  const res = await checker.call('GET', path, path.split('?')[0]);
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.errors[0].source.parameter, parameter);
  return res.body.errors[0].detail;
}

describe('GET /v2/shipments', () => {
  const shipments = (query: string, key?: string) => ids(`/v2/shipments?${query}`, key);

  test('filter[status]: shipments with at least one container in that status, any of a list', async () => {
    assert.deepEqual(await shipments('filter[status]=on_ship'), [s1.shipment]);
    assert.deepEqual(await shipments('filter[status]=grounded'), [s1.shipment]);
    assert.deepEqual(await shipments('filter[status]=available,grounded'), [s2.shipment, s1.shipment]);
    assert.deepEqual(await shipments('filter[status]=new'), [s3.shipment], 'a container without a stored status is new');
    assert.deepEqual(await shipments('filter[status]=picked_up'), []);
  });

  test('filter[port] matches the port of lading, of discharge or the destination; filter[pod_locode] only the port of discharge', async () => {
    assert.deepEqual(await shipments('filter[port]=USLAX'), [s4.shipment, s3.shipment, s1.shipment]);
    assert.deepEqual(await shipments('filter[port]=uslax'), [s4.shipment, s3.shipment, s1.shipment], 'in any case');
    assert.deepEqual(await shipments('filter[port]=USCHI'), [s2.shipment], 'the destination');
    assert.deepEqual(await shipments('filter[port]=DEHAM,NLRTM'), [s3.shipment, s2.shipment]);
    assert.deepEqual(await shipments('filter[pod_locode]=USLAX'), [s4.shipment, s1.shipment]);
    assert.deepEqual(await shipments('filter[pod_locode]=CNSHA'), [], 'a port of lading is not the port of discharge');
  });

  test('filter[line_scac]: by SCAC in any case, or by an alternative SCAC of the line', async () => {
    assert.deepEqual(await shipments('filter[line_scac]=maeu'), [s4.shipment, s1.shipment]);
    assert.deepEqual(await shipments('filter[line_scac]=MAEU,CMDU'), [s4.shipment, s3.shipment, s1.shipment]);
    assert.deepEqual(await shipments('filter[line_scac]=MEDU'), [s2.shipment], "MEDU is MSC's, recorded as MSCU");
    assert.deepEqual(await shipments('filter[line_scac]=HLCU'), []);
  });

  test('filter[updated_at][start] and [end] are inclusive bounds on the shipment updated_at', async () => {
    const iso = (minute: number) => at(minute).toISOString();
    assert.deepEqual(await shipments(`filter[updated_at][start]=${iso(30)}`), [s3.shipment, s1.shipment]);
    assert.deepEqual(await shipments(`filter[updated_at][end]=${iso(20)}`), [s4.shipment, s2.shipment]);
    assert.deepEqual(await shipments(`filter[updated_at][start]=${iso(20)}&filter[updated_at][end]=${iso(20)}`), [s2.shipment]);
    assert.deepEqual(await shipments('filter[updated_at][start]=2026-11-02'), [], 'a date alone is its midnight, UTC');
  });

  test('filters combine with AND, with each other and with the filters there were before', async () => {
    assert.deepEqual(await shipments('filter[port]=USLAX&filter[line_scac]=MAEU'), [s4.shipment, s1.shipment]);
    assert.deepEqual(await shipments('filter[port]=USLAX&filter[line_scac]=MAEU&filter[status]=on_ship'), [s1.shipment]);
    assert.deepEqual(await shipments('filter[port]=USLAX&filter[status]=new'), [s3.shipment]);
    assert.deepEqual(await shipments(`filter[pod_locode]=USLAX&filter[updated_at][end]=${at(10).toISOString()}`), [s4.shipment]);
    assert.deepEqual(await shipments('filter[status]=on_ship&filter[line_scac]=CMDU'), []);
    assert.deepEqual(await shipments('filter[port]=USLAX&q=S3'), [s3.shipment]);
    assert.deepEqual(await shipments('filter[port]=USLAX&number=S1'), [s1.shipment]);
    assert.deepEqual(await shipments('filter[port]=USLAX&filter[tracking_stopped]=false'), [s4.shipment, s3.shipment, s1.shipment]);
    assert.deepEqual(await shipments('filter[port]=USLAX&filter[tracking_stopped]=true'), []);
  });

  test('pages keep the filters, their meta counts only what matches, and links carry the filters on', async () => {
    const first = await checker.call('GET', '/v2/shipments?filter[port]=USLAX&page[size]=2', '/v2/shipments');
    assert.deepEqual(first.body.data.map((r: any) => r.id), [s4.shipment, s3.shipment]);
    assert.deepEqual(first.body.meta, { size: 2, total: 3, pagination: { current: 1, next: 2, last: 2, records: 3 } });
    const next = new URL(first.body.links.next);
    assert.equal(next.searchParams.get('filter[port]'), 'USLAX');
    const second = await checker.call('GET', next.pathname + next.search, '/v2/shipments');
    assert.deepEqual(second.body.data.map((r: any) => r.id), [s1.shipment]);
  });

  test("another account's shipments never appear, and it sees its own", async () => {
    for (const query of ['filter[port]=USLAX', 'filter[pod_locode]=USLAX', 'filter[line_scac]=MAEU', 'filter[status]=on_ship', `filter[updated_at][start]=${at(0).toISOString()}`]) {
      assert.ok(!(await shipments(query)).includes(other.shipment), query);
      assert.deepEqual(await shipments(query, otherKey), [other.shipment], query);
    }
    assert.deepEqual(await shipments('filter[status]=available', otherKey), []);
  });
});

describe('GET /v2/containers', () => {
  const containers = (query: string, key?: string) => ids(`/v2/containers?${query}`, key);
  const c = (s: Seeded, number: string) => s.containers[number];

  test("filter[status] is the container's own current_status", async () => {
    assert.deepEqual(await containers('filter[status]=on_ship'), [c(s1, 'MSKU0000001')]);
    assert.deepEqual(await containers('filter[status]=grounded,available'), [c(s2, 'MSCU0000003'), c(s1, 'MSKU0000002')]);
    assert.deepEqual(await containers('filter[status]=new'), [c(s3, 'CMAU0000004')]);
  });

  test("port, pod_locode and line_scac are the container's shipment's", async () => {
    assert.deepEqual(await containers('filter[port]=uslax'), [c(s3, 'CMAU0000004'), c(s1, 'MSKU0000002'), c(s1, 'MSKU0000001')]);
    assert.deepEqual(await containers('filter[pod_locode]=USLAX'), [c(s1, 'MSKU0000002'), c(s1, 'MSKU0000001')]);
    assert.deepEqual(await containers('filter[line_scac]=MEDU'), [c(s2, 'MSCU0000003')]);
    assert.deepEqual(await containers('filter[line_scac]=cmdu,MSCU'), [c(s3, 'CMAU0000004'), c(s2, 'MSCU0000003')]);
  });

  test("filter[updated_at] bounds the container's own updated_at, not its shipment's", async () => {
    // S1 was updated at minute 40; its containers at 31 and 32.
    assert.deepEqual(await containers(`filter[updated_at][start]=${at(32).toISOString()}`), [c(s2, 'MSCU0000003'), c(s1, 'MSKU0000002')]);
    assert.deepEqual(await containers(`filter[updated_at][end]=${at(31).toISOString()}`), [c(s3, 'CMAU0000004'), c(s1, 'MSKU0000001')]);
  });

  test('filters combine with AND, and with filter[shipment_id] and filter[number]', async () => {
    assert.deepEqual(await containers('filter[status]=on_ship&filter[pod_locode]=USLAX'), [c(s1, 'MSKU0000001')]);
    assert.deepEqual(await containers('filter[status]=on_ship&filter[line_scac]=CMDU'), []);
    assert.deepEqual(await containers('filter[port]=USLAX&filter[line_scac]=MAEU&filter[pod_locode]=USLAX&filter[status]=grounded'), [c(s1, 'MSKU0000002')]);
    assert.deepEqual(await containers(`filter[port]=USLAX&filter[shipment_id]=${s1.shipment}`), [c(s1, 'MSKU0000002'), c(s1, 'MSKU0000001')]);
    assert.deepEqual(await containers(`filter[port]=DEHAM&filter[shipment_id]=${s1.shipment}`), []);
    assert.deepEqual(await containers(`filter[shipment_id]=${s1.shipment.toUpperCase()}`), [c(s1, 'MSKU0000002'), c(s1, 'MSKU0000001')], 'a uuid in capitals is the same id');
    assert.deepEqual(await containers('filter[shipment_id]=not-a-uuid&filter[status]=on_ship'), []);
    assert.deepEqual(await containers('filter[number]=MSKU 000000-1&filter[status]=on_ship'), [c(s1, 'MSKU0000001')]);
    const page = await checker.call('GET', '/v2/containers?filter[port]=USLAX&page[size]=1&page[number]=3', '/v2/containers');
    assert.deepEqual(page.body.data.map((r: any) => r.id), [c(s1, 'MSKU0000001')]);
    assert.equal(page.body.meta.total, 3);
  });

  test("another account's containers never appear, and it sees its own", async () => {
    const theirs = c(other, 'MSKU0000009');
    for (const query of ['filter[port]=USLAX', 'filter[pod_locode]=USLAX', 'filter[line_scac]=MAEU', 'filter[status]=on_ship']) {
      assert.ok(!(await containers(query)).includes(theirs), query);
      assert.deepEqual(await containers(query, otherKey), [theirs], query);
    }
    assert.deepEqual(await containers(`filter[shipment_id]=${other.shipment}`), []);
  });
});

describe('malformed filters', () => {
  for (const list of ['/v2/shipments', '/v2/containers']) {
    test(`${list}: a 400 naming the parameter, as documented`, async () => {
      const detail = await refused(`${list}?filter[status]=on_ship,sunk`, 'filter[status]');
      assert.match(detail, /'sunk'/);
      for (const status of ['new', 'on_ship', 'empty_returned']) assert.ok(detail.includes(status), `the detail lists ${status}: ${detail}`);
      await refused(`${list}?filter[status]=ON_SHIP`, 'filter[status]');
      await refused(`${list}?filter[port]=USLA`, 'filter[port]');
      await refused(`${list}?filter[port]=USLAX,US-LA`, 'filter[port]');
      await refused(`${list}?filter[pod_locode]=US1AX`, 'filter[pod_locode]');
      await refused(`${list}?filter[line_scac]=MAE`, 'filter[line_scac]');
      await refused(`${list}?filter[line_scac]=MAEU1`, 'filter[line_scac]');
      await refused(`${list}?filter[updated_at][start]=yesterday`, 'filter[updated_at][start]');
      await refused(`${list}?filter[updated_at][end]=2026-13-45`, 'filter[updated_at][end]');
      await refused(`${list}?filter[updated_at][start]=2026-11-02&filter[updated_at][end]=2026-11-01`, 'filter[updated_at][start]');
      await refused(`${list}?filter[port]=USLAX&filter[port]=USNYC`, 'filter[port]');
    });
  }

  test('blank filters are absent', async () => {
    assert.equal((await ids('/v2/shipments?filter[status]=&filter[port]=%20&filter[line_scac]=,')).length, 4);
  });
});

test('the OpenAPI document lists the filters of both lists, comma lists as such', async () => {
  for (const path of ['/v2/shipments', '/v2/containers']) {
    const parameters: any[] = checker.doc.paths[path].get.parameters;
    const byName = new Map(parameters.map((p) => [p.name, p]));
    for (const name of ['filter[status]', 'filter[port]', 'filter[pod_locode]', 'filter[line_scac]', 'filter[updated_at][start]', 'filter[updated_at][end]']) {
      assert.ok(byName.has(name), `${path} documents ${name}`);
    }
    // The values a filter takes are the values a container reports.
    const container = checker.doc.paths['/v2/containers'].get.responses['200'].content['application/vnd.api+json'].schema.properties.data.items;
    assert.deepEqual(byName.get('filter[status]').schema.items.enum, container.properties.attributes.properties.current_status.enum);
    for (const name of ['filter[status]', 'filter[port]', 'filter[pod_locode]', 'filter[line_scac]']) {
      assert.equal(byName.get(name).style, 'form');
      assert.equal(byName.get(name).explode, false);
    }
  }
  // The tracking requests' ranges are declared by the same helper.
  const trNames = checker.doc.paths['/v2/tracking_requests'].get.parameters.map((p: any) => p.name);
  for (const name of ['filter[created_at][start]', 'filter[created_at][end]', 'filter[updated_at][start]', 'filter[updated_at][end]']) assert.ok(trNames.includes(name));
});
