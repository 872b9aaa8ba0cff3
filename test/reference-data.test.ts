// Reference data as a client reads it: shipping lines, ports, metro areas, terminals, vessels.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seedReferenceData } from '../src/refdata/seed.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

test('all shipping lines in one response, with the test carrier', async () => {
  const res = await t.request('GET', '/v2/shipping_lines');
  assert.equal(res.status, 200);
  assert.ok(res.body.data.length > 50);
  assert.equal(res.body.meta, undefined, 'not paginated');
  const maersk = res.body.data.find((l: any) => l.attributes.scac === 'MAEU');
  assert.deepEqual(Object.keys(maersk.attributes).sort(), [
    'alternative_scacs',
    'bill_of_lading_tracking_support',
    'booking_number_tracking_support',
    'container_number_tracking_support',
    'name',
    'scac',
    'short_name',
  ]);
  assert.equal(maersk.attributes.bill_of_lading_tracking_support, true);
  assert.equal(maersk.links.self, `/v2/shipping_lines/${maersk.id}`);
  assert.ok(res.body.data.some((l: any) => l.attributes.scac === 'TEST'));
});

test('search by name or SCAC, including alternative SCACs', async () => {
  const byName = await t.request('GET', '/v2/shipping_lines?search=maersk');
  assert.ok(byName.body.data.some((l: any) => l.attributes.scac === 'MAEU'));
  const byAlt = await t.request('GET', '/v2/shipping_lines?search=medu');
  assert.deepEqual(byAlt.body.data.map((l: any) => l.attributes.scac), ['MSCU']);
  for (const spelling of ['hapag lloyd', 'HAPAG-LLOYD', 'hapaglloyd']) {
    const res = await t.request('GET', `/v2/shipping_lines?search=${encodeURIComponent(spelling)}`);
    assert.ok(res.body.data.some((l: any) => l.attributes.scac === 'HLCU'), spelling);
  }
  const none = await t.request('GET', '/v2/shipping_lines?search=zzzz-no-such-line');
  assert.deepEqual(none.body.data, []);
});

test('a shipping line by SCAC or id', async () => {
  const bySac = await t.request('GET', '/v2/shipping_lines/MAEU');
  assert.equal(bySac.status, 200);
  const byId = await t.request('GET', `/v2/shipping_lines/${bySac.body.data.id}`);
  assert.deepEqual(byId.body.data, bySac.body.data);
  assert.equal((await t.request('GET', '/v2/shipping_lines/NOPE')).status, 404);
});

test('a port by UN/LOCODE (any case) or id, with coordinates and time zone', async () => {
  const res = await t.request('GET', '/v2/ports/USLAX');
  assert.equal(res.status, 200);
  const { id, type, attributes } = res.body.data;
  assert.equal(type, 'port');
  assert.equal(attributes.code, 'USLAX');
  assert.equal(attributes.name, 'Los Angeles');
  assert.equal(attributes.country_code, 'US');
  assert.equal(attributes.state_abbr, 'CA');
  assert.equal(attributes.time_zone, 'America/Los_Angeles');
  assert.equal(typeof attributes.latitude, 'number');
  assert.equal(typeof attributes.longitude, 'number');
  assert.equal((await t.request('GET', `/v2/ports/${id}`)).body.data.attributes.code, 'USLAX');
  assert.equal((await t.request('GET', '/v2/ports/uslax')).body.data.id, id);
  assert.equal((await t.request('GET', '/v2/ports/CNSHA')).status, 200, 'the code carriers still use for Shanghai');
  assert.equal((await t.request('GET', '/v2/ports/XXXXX')).status, 404);
});

test('ids are stable across installs (derived from the natural key)', async () => {
  const a = await t.request('GET', '/v2/ports/NLRTM');
  const other = await startTestApp();
  try {
    const b = await other.request('GET', '/v2/ports/NLRTM');
    assert.equal(a.body.data.id, b.body.data.id);
  } finally {
    await other.close();
  }
});

test('a metro area by UN/LOCODE', async () => {
  const res = await t.request('GET', '/v2/metro_areas/USCHI');
  assert.equal(res.status, 200);
  assert.equal(res.body.data.type, 'metro_area');
  assert.equal(res.body.data.attributes.time_zone, 'America/Chicago');
});

test('a terminal by FIRMS code with its port included; unknown includes are refused', async () => {
  const res = await t.request('GET', '/v2/terminals/Y124?include=port');
  assert.equal(res.status, 200);
  const terminal = res.body.data;
  assert.equal(terminal.type, 'terminal');
  assert.equal(terminal.attributes.firms_code, 'Y124');
  assert.equal(terminal.attributes.id, terminal.id, 'the id repeated, as the spec lists it');
  const portId = terminal.relationships.port.data.id;
  assert.deepEqual(res.body.included.map((r: any) => [r.type, r.id, r.attributes.code]), [['port', portId, 'USLAX']]);
  assert.equal((await t.request('GET', `/v2/terminals/${terminal.id}`)).body.data.id, terminal.id);
  const bad = await t.request('GET', '/v2/terminals/Y124?include=port,shipment');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].source.parameter, 'include');
  assert.equal((await t.request('GET', '/v2/terminals/Y124?include=port.terminals')).status, 400);
});

test('a rail terminal with its metro area', async () => {
  const { rows } = await t.db.query(
    "SELECT r.id, l.locode FROM rail_terminals r JOIN locations l ON l.id = r.metro_area_id WHERE l.is_inland_hub ORDER BY l.locode LIMIT 1",
  );
  const res = await t.request('GET', `/v2/rail_terminals/${rows[0].id}?include=metro_area`);
  assert.equal(res.status, 200);
  assert.equal(res.body.data.type, 'rail_terminal');
  assert.equal(res.body.included[0].type, 'metro_area');
  assert.equal(res.body.included[0].attributes.code, rows[0].locode);
});

test('a vessel found by IMO or by id links to itself by id', async () => {
  const byImo = await t.request('GET', '/v2/vessels/9811000');
  assert.equal(byImo.status, 200);
  assert.equal(byImo.body.data.attributes.name, 'EVER GIVEN');
  assert.equal(byImo.body.data.attributes.imo, '9811000');
  assert.equal(byImo.body.data.links.self, `/v2/vessels/${byImo.body.data.id}`);
  const byId = await t.request('GET', `/v2/vessels/${byImo.body.data.id}`);
  assert.equal(byId.body.data.links.self, `/v2/vessels/${byImo.body.data.id}`);
  assert.equal((await t.request('GET', '/v2/vessels/1234567')).status, 404);
});

test('seeding again with unchanged files does nothing', async () => {
  const result = await seedReferenceData(t.db);
  assert.deepEqual(result.loaded, []);
  assert.ok(result.skipped.length >= 5);
});
