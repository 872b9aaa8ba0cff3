// include=custom_fields on shipments and containers, through the real HTTP server: the values come
// as the custom_fields relationship with the custom_field records in included (the resources the
// nested routes answer with), on lists and single records and along nested paths, read in a fixed
// number of statements however many records a page holds, and only the account's own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SvcClient, customFieldValues, customFieldsOf } from '../sdk/src/index.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { doc, spacedRequests } from './support/spaced-requests.ts';
import { seedShipment } from './support/shipment-seeds.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

const call = spacedRequests(() => t);


async function ok(res: { status: number; body: any; text: string }, status = 200): Promise<any> {
  assert.equal(res.status, status, res.text);
  return res.body;
}

async function define(entity_type: string, api_slug: string, data_type: string, extra: Record<string, unknown> = {}): Promise<string> {
  return (await ok(await call('POST', '/v2/custom_field_definitions', { body: doc('custom_field_definition', { entity_type, api_slug, display_name: api_slug, data_type, ...extra }) }), 201)).data.id;
}

const set = async (path: string, api_slug: string, value: unknown) => ok(await call('POST', `${path}/custom_fields`, { body: doc('custom_field', { api_slug, value }) }), 201);

let seeded = 0;
/** A shipment with `containers` containers; its id and theirs. */
async function shipmentWith(containers: number): Promise<{ id: string; containerIds: string[] }> {
  const n = ++seeded;
  const id = await seedShipment(t.db, t.accountId, t.clock.now(), {
    number: `CFINC${String(n).padStart(4, '0')}`,
    scac: 'MAEU',
    containers: Array.from({ length: containers }, (_, i) => ({ number: `INCU${String(n * 10 + i).padStart(6, '0')}0`, status: 'new' })),
  });
  const { rows } = await t.db.query<{ id: string }>('SELECT id FROM containers WHERE shipment_id = $1 ORDER BY number', [id]);
  return { id, containerIds: rows.map((r) => r.id) };
}

/** Statements the app sends while `run` runs. */
async function statements(run: () => Promise<unknown>): Promise<number> {
  const db = t.db as unknown as { query: (...args: unknown[]) => unknown };
  const query = db.query;
  let n = 0;
  db.query = function (this: unknown, ...args: unknown[]) {
    n++;
    return query.apply(this, args);
  };
  try {
    await run();
  } finally {
    db.query = query;
  }
  return n;
}

const ids = (rel: any) => rel.data.map((d: any) => `${d.type}:${d.id}`);

test('a shipment with include=custom_fields carries its values as the nested route serves them; without it, nothing more', async () => {
  const { id } = await shipmentWith(1);
  const party = (await ok(await call('POST', '/v2/parties', { body: doc('party', { company_name: 'Acme Importers' }) }), 201)).data.id;
  const priority = await define('Shipment', 'inc_priority', 'enum');
  await ok(await call('POST', `/v2/custom_field_definitions/${priority}/options`, { body: doc('custom_field_option', { label: 'High', value: 'high' }) }), 201);
  await define('Shipment', 'inc_weight', 'number');
  await define('Shipment', 'inc_broker', 'reference', { reference_type: 'party' });
  await define('Shipment', 'inc_cleared', 'boolean');
  await set(`/v2/shipments/${id}`, 'inc_priority', 'high');
  await set(`/v2/shipments/${id}`, 'inc_weight', '123456789012.123456');
  await set(`/v2/shipments/${id}`, 'inc_broker', { type: 'party', id: party });
  await set(`/v2/shipments/${id}`, 'inc_cleared', null);

  const nested = (await ok(await call('GET', `/v2/shipments/${id}/custom_fields`))).data;
  assert.equal(nested.length, 4);
  const body = await ok(await call('GET', `/v2/shipments/${id}?include=custom_fields`));
  assert.deepEqual(ids(body.data.relationships.custom_fields), nested.map((v: any) => `custom_field:${v.id}`), 'newest first, as the nested route lists them');
  assert.deepEqual(body.included, nested, 'the same resources the nested route serves');
  const shown = Object.fromEntries(body.included.map((v: any) => [v.attributes.api_slug, v.attributes.display_value]));
  assert.deepEqual(shown, { inc_priority: 'High', inc_weight: '123456789012.123456', inc_broker: 'Acme Importers', inc_cleared: null });

  const plain = await ok(await call('GET', `/v2/shipments/${id}`));
  assert.equal(plain.data.relationships.custom_fields, undefined, 'left out unless included');
  assert.equal(plain.included, undefined);
  // Alongside other includes, and with none at all the relationship is still an empty list.
  const both = await ok(await call('GET', `/v2/shipments/${id}?include=containers,custom_fields`));
  assert.equal(both.included.filter((r: any) => r.type === 'custom_field').length, 4);
  assert.equal(both.included.filter((r: any) => r.type === 'container').length, 1);
  const bare = await shipmentWith(0);
  assert.deepEqual((await ok(await call('GET', `/v2/shipments/${bare.id}?include=custom_fields`))).data.relationships.custom_fields, { data: [] });
});

test('lists and nested paths: shipments with containers.custom_fields, containers with shipment.custom_fields', async () => {
  await define('Container', 'inc_seal', 'short_text');
  await define('Shipment', 'inc_lane', 'short_text');
  const a = await shipmentWith(2);
  const b = await shipmentWith(1);
  await set(`/v2/shipments/${a.id}`, 'inc_lane', 'Asia-USWC');
  await set(`/v2/containers/${a.containerIds[0]}`, 'inc_seal', 'SEAL-A0');
  await set(`/v2/containers/${b.containerIds[0]}`, 'inc_seal', 'SEAL-B0');

  const list = await ok(await call('GET', '/v2/shipments?include=custom_fields,containers.custom_fields&page[size]=100'));
  const shipmentA = list.data.find((s: any) => s.id === a.id);
  const lanes = shipmentA.relationships.custom_fields.data.map((d: any) => list.included.find((r: any) => r.id === d.id).attributes.value);
  assert.deepEqual(lanes, ['Asia-USWC']);
  const containerOf = (id: string) => list.included.find((r: any) => r.type === 'container' && r.id === id);
  const sealOf = (c: any) => c.relationships.custom_fields.data.map((d: any) => list.included.find((r: any) => r.id === d.id).attributes.value);
  assert.deepEqual(sealOf(containerOf(a.containerIds[0])), ['SEAL-A0']);
  assert.deepEqual(sealOf(containerOf(a.containerIds[1])), []);
  assert.deepEqual(sealOf(containerOf(b.containerIds[0])), ['SEAL-B0']);
  for (const s of list.data) assert.ok(Array.isArray(s.relationships.custom_fields.data), 'every shipment of the page has the relationship');
  assert.equal(new Set(list.included.map((r: any) => `${r.type}:${r.id}`)).size, list.included.length, 'no record twice');

  const containers = await ok(await call('GET', `/v2/containers?include=custom_fields,shipment.custom_fields&filter[shipment_id]=${a.id}`));
  assert.equal(containers.data.length, 2);
  const first = containers.data.find((c: any) => c.id === a.containerIds[0]);
  assert.deepEqual(first.relationships.custom_fields.data.map((d: any) => containers.included.find((r: any) => r.id === d.id).attributes.api_slug), ['inc_seal']);
  const parent = containers.included.find((r: any) => r.type === 'shipment');
  assert.deepEqual(parent.relationships.custom_fields.data.map((d: any) => containers.included.find((r: any) => r.id === d.id).attributes.value), ['Asia-USWC']);

  const one = await ok(await call('GET', `/v2/containers/${b.containerIds[0]}?include=custom_fields`));
  assert.deepEqual(one.included.map((r: any) => r.attributes.value), ['SEAL-B0']);
  assert.equal(one.included[0].relationships.entity.data.id, b.containerIds[0]);
});

test('a page costs the same statements whatever it holds: values are read once per type and level', async () => {
  await define('Container', 'inc_po', 'short_text');
  await define('Shipment', 'inc_ref', 'short_text');
  const pageOf = async (size: number) => {
    const path = `/v2/shipments?include=custom_fields,containers.custom_fields&page[size]=${size}`;
    return statements(async () => ok(await call('GET', path)));
  };
  for (let i = 0; i < 6; i++) {
    const s = await shipmentWith(3);
    await set(`/v2/shipments/${s.id}`, 'inc_ref', `REF-${i}`);
    for (const c of s.containerIds) await set(`/v2/containers/${c}`, 'inc_po', `PO-${i}`);
  }
  const one = await pageOf(1);
  const many = await pageOf(10);
  assert.equal(many, one, `${one} statements for a page of one shipment, ${many} for ten`);
  const plain = await statements(async () => ok(await call('GET', '/v2/shipments?page[size]=10')));
  const withValues = await statements(async () => ok(await call('GET', '/v2/shipments?include=custom_fields&page[size]=10')));
  assert.equal(withValues, plain + 1, 'include=custom_fields adds one statement to the list');
});

test("values are the account's own: another account sees none of them, and a row naming another account's record is never shown", async () => {
  const mine = await shipmentWith(1);
  await define('Shipment', 'inc_mine', 'short_text');
  await set(`/v2/shipments/${mine.id}`, 'inc_mine', 'secret');
  const other = await t.newAccount('Account B');
  assert.equal((await call('GET', `/v2/shipments/${mine.id}?include=custom_fields`, { key: other.key })).status, 404);
  const theirs = await seedShipment(t.db, other.accountId, t.clock.now(), { number: 'CFINCB001', scac: 'MAEU' });
  // A value of B's definition stored against A's shipment (no route writes one: entity ids are checked per account).
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO custom_field_definitions (account_id, entity_type, api_slug, display_name, data_type, created_at, updated_at) VALUES ($1, 'Shipment', 'inc_b', 'B', 'short_text', now(), now()) RETURNING id`,
    [other.accountId],
  );
  await t.db.query(
    `INSERT INTO custom_fields (account_id, definition_id, entity_type, entity_id, value, match_keys, created_at, updated_at) VALUES ($1, $2, 'Shipment', $3, '"b-only"', $4, now(), now())`,
    [other.accountId, rows[0].id, mine.id, [`${rows[0].id}:b-only`]],
  );
  const a = await ok(await call('GET', `/v2/shipments/${mine.id}?include=custom_fields`));
  assert.deepEqual(a.included.map((r: any) => r.attributes.value), ['secret']);
  const b = await ok(await call('GET', `/v2/shipments?include=custom_fields`, { key: other.key }));
  assert.deepEqual(b.data.map((s: any) => s.id), [theirs]);
  assert.deepEqual(b.data[0].relationships.custom_fields, { data: [] });
  assert.equal(b.included.length, 0);
});

test("a value's definition can be included along (custom_fields.definition); a path past what it declares is a 400", async () => {
  const s = await shipmentWith(0);
  const def = await define('Shipment', 'inc_def', 'short_text');
  await set(`/v2/shipments/${s.id}`, 'inc_def', 'x');
  const body = await ok(await call('GET', `/v2/shipments/${s.id}?include=custom_fields.definition`));
  const definition = body.included.find((r: any) => r.type === 'custom_field_definition');
  assert.equal(definition.id, def);
  assert.equal(definition.attributes.api_slug, 'inc_def');
  const res = await call('GET', '/v2/shipments?include=custom_fields.nothing');
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.errors[0].source.parameter, 'include');
});

test('the SDK resolves include=custom_fields into the records it returns', async () => {
  const svc = new SvcClient({ baseUrl: t.baseUrl, token: t.key });
  await define('Shipment', 'inc_sdk', 'short_text');
  await define('Container', 'inc_sdk_box', 'short_text');
  const s = await shipmentWith(1);
  await set(`/v2/shipments/${s.id}`, 'inc_sdk', 'via sdk');
  await set(`/v2/containers/${s.containerIds[0]}`, 'inc_sdk_box', 'box');
  const shipment = await svc.shipments.get(s.id, { include: 'custom_fields,containers.custom_fields' });
  assert.deepEqual(customFieldValues(shipment), { inc_sdk: 'via sdk' });
  assert.equal(customFieldsOf(shipment)[0].display_value, 'via sdk');
  const [box] = shipment.containers as { custom_fields?: unknown }[];
  assert.deepEqual(customFieldValues(box), { inc_sdk_box: 'box' });
  const page = await svc.containers.list({ include: 'custom_fields', 'filter[shipment_id]': s.id } as never);
  assert.deepEqual(customFieldValues(page.items[0]), { inc_sdk_box: 'box' });
  // Without the include there is nothing to resolve.
  assert.deepEqual(customFieldsOf(await svc.shipments.get(s.id)), []);
});
