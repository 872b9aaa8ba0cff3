// Custom fields through the real HTTP server: definitions of all eight data types with their
// rules, options of enum fields, values by id and by slug under shipments, containers and
// tracking requests, every value rule with the pointer of its 422, display values, list filters
// on shipments and containers, and deleting a definition with its values.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { writeField } from '../src/store/custom-fields.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { seedShipment } from './support/shipment-seeds.ts';

let t: TestApp;
// Started and seeded together: the shipments, container, tracking request and party values go on.
forFile(
  async () => {
    t = await startTestApp();
    await seed();
    return t;
  },
  (s) => (t = s),
);

/** A request a second later than the last, so the rate limit (100 a minute) never bites. */
function call(method: string, path: string, options?: Parameters<TestApp['request']>[2]) {
  t.clock.advance(1000);
  return t.request(method, path, options);
}

const doc = (type: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ data: { type, attributes, ...extra } });

async function ok(res: { status: number; body: any; text: string }, status = 200): Promise<any> {
  assert.equal(res.status, status, res.text);
  return res.body.data;
}

/** The single error of a failed answer: status, pointer or parameter, code. */
function problem(res: { status: number; body: any; text: string }, status = 422): string {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.errors.length, 1, res.text);
  const [e] = res.body.errors;
  assert.equal(e.status, String(status));
  assert.equal(typeof e.detail, 'string');
  return `${e.source?.pointer ?? e.source?.parameter ?? '-'} ${e.code}`;
}

let slugs = 0;
async function defineField(attributes: Record<string, unknown>, key?: string): Promise<any> {
  const res = await call('POST', '/v2/custom_field_definitions', { body: doc('custom_field_definition', { entity_type: 'Shipment', api_slug: `f${++slugs}`, display_name: `Field ${slugs}`, ...attributes }), key });
  return ok(res, 201);
}

async function addOption(definitionId: string, attributes: Record<string, unknown>, key?: string): Promise<any> {
  return ok(await call('POST', `/v2/custom_field_definitions/${definitionId}/options`, { body: doc('custom_field_option', attributes), key }), 201);
}

let shipmentId: string;
let otherShipmentId: string;
let containerId: string;
let trackingRequestId: string;
let partyId: string;

async function seed(): Promise<void> {
  shipmentId = await seedShipment(t.db, t.accountId, t.clock.now(), { number: 'CFBL0001', scac: 'MAEU', containers: [{ number: 'MSCU1234565', status: 'new' }] });
  otherShipmentId = await seedShipment(t.db, t.accountId, t.clock.now(), { number: 'CFBL0002', scac: 'MAEU', containers: [{ number: 'TGHU9876543', status: 'new' }] });
  containerId = (await t.db.query('SELECT id FROM containers WHERE shipment_id = $1', [shipmentId])).rows[0].id;
  trackingRequestId = (
    await t.db.query(
      `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, created_at, updated_at) VALUES ($1, 'CFTR0001', 'bill_of_lading', 'MAEU', now(), now()) RETURNING id`,
      [t.accountId],
    )
  ).rows[0].id;
  partyId = (await ok(await call('POST', '/v2/parties', { body: doc('party', { company_name: 'Acme Importers' }) }), 201)).id;
}

describe('definitions', () => {
  test('create answers 201 with the definition in the reference shape, and a link to it', async () => {
    const res = await call('POST', '/v2/custom_field_definitions', {
      body: doc('custom_field_definition', { entity_type: 'Shipment', api_slug: 'customer_po', display_name: 'Customer PO', description: 'The PO the customer sent', data_type: 'short_text', validation: { max_length: 20 } }),
    });
    const data = await ok(res, 201);
    assert.equal(data.type, 'custom_field_definition');
    assert.equal(data.links.self, `/v2/custom_field_definitions/${data.id}`);
    assert.equal(res.body.links.self, `${t.baseUrl}/v2/custom_field_definitions/${data.id}`);
    assert.deepEqual(data.attributes, {
      entity_type: 'Shipment',
      api_slug: 'customer_po',
      display_name: 'Customer PO',
      description: 'The PO the customer sent',
      data_type: 'short_text',
      reference_type: null,
      validation: { max_length: 20 },
      default_format: null,
      default_value: null,
      template_id: null,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    assert.deepEqual(data.relationships, { account: { data: { type: 'account', id: t.accountId } }, options: { data: [] } });
    const shown = await ok(await call('GET', `/v2/custom_field_definitions/${data.id}`));
    assert.deepEqual(shown.attributes, data.attributes);
  });

  test('every data type can be defined', async () => {
    for (const data_type of ['short_text', 'number', 'date', 'datetime', 'boolean', 'enum', 'enum_multi', 'reference']) {
      const def = await defineField({ data_type, ...(data_type === 'reference' ? { reference_type: 'party' } : {}) });
      assert.equal(def.attributes.data_type, data_type);
    }
  });

  test('the attributes a definition needs, and the values they take, are checked with a pointer at each', async () => {
    const create = (attributes: Record<string, unknown>) =>
      call('POST', '/v2/custom_field_definitions', { body: doc('custom_field_definition', { entity_type: 'Container', api_slug: `chk${++slugs}`, display_name: 'Checked', data_type: 'short_text', ...attributes }) });
    const cases: [Record<string, unknown>, string][] = [
      [{ api_slug: 'Has Spaces' }, '/data/attributes/api_slug invalid'],
      [{ api_slug: '9lives' }, '/data/attributes/api_slug invalid'],
      [{ api_slug: '' }, '/data/attributes/api_slug blank'],
      [{ display_name: ' ' }, '/data/attributes/display_name blank'],
      [{ entity_type: 'Vessel' }, '/data/attributes/entity_type invalid'],
      [{ data_type: 'long_text' }, '/data/attributes/data_type invalid'],
      [{ data_type: 'reference' }, '/data/attributes/reference_type blank'],
      [{ data_type: 'reference', reference_type: 'vessel' }, '/data/attributes/reference_type invalid'],
      [{ reference_type: 'party' }, '/data/attributes/reference_type invalid'],
      [{ validation: { maximum: 3 } }, '/data/attributes/validation/maximum unsupported'],
      [{ validation: { min: 3 } }, '/data/attributes/validation/min unsupported'],
      [{ validation: { required: 'yes' } }, '/data/attributes/validation/required invalid'],
      [{ validation: { max_length: 0 } }, '/data/attributes/validation/max_length invalid'],
      [{ validation: { min_length: 5, max_length: 2 } }, '/data/attributes/validation/min_length invalid'],
      [{ validation: { pattern: '([a-z' } }, '/data/attributes/validation/pattern invalid'],
      [{ validation: { pattern: '^(a)\\1$' } }, '/data/attributes/validation/pattern unsupported_pattern'],
      [{ validation: { pattern: '^(?=a)' } }, '/data/attributes/validation/pattern unsupported_pattern'],
      [{ validation: { pattern: '(a|b|c|d){1000}' } }, '/data/attributes/validation/pattern unsupported_pattern'],
      [{ validation: { pattern: '^\ud800$' } }, '/data/attributes/validation/pattern invalid'],
      [{ data_type: 'number', validation: { min: 10, max: 1 } }, '/data/attributes/validation/min invalid'],
      [{ default_format: 'MM/DD/YYYY' }, '/data/attributes/default_format invalid'],
      [{ data_type: 'date', default_format: 'YY/MM/DD' }, '/data/attributes/default_format invalid'],
      [{ data_type: 'number', default_value: 'ten' }, '/data/attributes/default_value invalid'],
      [{ data_type: 'boolean', default_value: 3 }, '/data/attributes/default_value invalid'],
      [{ data_type: 'enum', default_value: 'red' }, '/data/attributes/default_value not_an_option'],
      [{ data_type: 'reference', reference_type: 'party', default_value: { type: 'party', id: randomUUID() } }, '/data/attributes/default_value/id not_found'],
      [{ validation: { max_length: 3 }, default_value: 'toolong' }, '/data/attributes/default_value too_long'],
    ];
    for (const [attributes, expected] of cases) assert.equal(problem(await create(attributes)), expected, JSON.stringify(attributes));
  });

  test('an api_slug is unique in the account', async () => {
    await defineField({ api_slug: 'booking_ref', data_type: 'short_text' });
    assert.equal(problem(await call('POST', '/v2/custom_field_definitions', { body: doc('custom_field_definition', { entity_type: 'Container', api_slug: 'booking_ref', display_name: 'Again', data_type: 'number' }) })), '/data/attributes/api_slug taken');
  });

  test('PATCH changes the display name, description, validation, format and default; api_slug, entity_type and data_type are immutable', async () => {
    const def = await defineField({ data_type: 'date' });
    const patch = (attributes: Record<string, unknown>) => call('PATCH', `/v2/custom_field_definitions/${def.id}`, { body: doc('custom_field_definition', attributes) });
    const changed = await ok(await patch({ display_name: 'Cargo ready', description: 'When the cargo is ready', validation: { required: true }, default_format: 'DD.MM.YYYY', default_value: '24.12.2026' }));
    assert.equal(changed.attributes.display_name, 'Cargo ready');
    assert.equal(changed.attributes.description, 'When the cargo is ready');
    assert.deepEqual(changed.attributes.validation, { required: true });
    assert.equal(changed.attributes.default_format, 'DD.MM.YYYY');
    assert.equal(changed.attributes.default_value, '2026-12-24', 'the default is stored in canonical form');
    const cleared = await ok(await patch({ description: null, default_value: null, validation: null }));
    assert.equal(cleared.attributes.description, null);
    assert.equal(cleared.attributes.default_value, null);
    assert.equal(cleared.attributes.validation, null);
    assert.equal(cleared.attributes.display_name, 'Cargo ready', 'left out stays');
    // Sending an immutable attribute unchanged is fine; a different one is refused at its pointer.
    await ok(await patch({ api_slug: def.attributes.api_slug, data_type: 'date' }));
    assert.equal(problem(await patch({ api_slug: 'renamed' })), '/data/attributes/api_slug immutable');
    assert.equal(problem(await patch({ entity_type: 'Container' })), '/data/attributes/entity_type immutable');
    assert.equal(problem(await patch({ data_type: 'datetime' })), '/data/attributes/data_type immutable');
    assert.equal(problem(await patch({ default_value: '2026-13-01' })), '/data/attributes/default_value invalid');
    assert.equal(problem(await patch({ default_format: 'MM/DD/YYYY', default_value: '24.12.2026' })), '/data/attributes/default_value invalid', 'the default is checked against the new format');
    assert.equal(problem(await call('PATCH', `/v2/custom_field_definitions/${randomUUID()}`, { body: doc('custom_field_definition', { display_name: 'x' }) }), 404), '- not_found');
  });

  test('the list pages 25 at a time and filters by entity type, data type and the start of the display name', async () => {
    const list = async (query: string) => (await call('GET', `/v2/custom_field_definitions${query}`)).body;
    const all = await list('');
    assert.equal(all.meta.size, Math.min(25, all.meta.total));
    assert.ok(all.meta.total > 10);
    await defineField({ entity_type: 'Container', data_type: 'boolean', display_name: 'Reefer Plugged' });
    const containers = await list('?filter[entity_type]=Container&filter[data_type]=boolean');
    assert.ok(containers.data.length > 0);
    assert.ok(containers.data.every((d: any) => d.attributes.entity_type === 'Container' && d.attributes.data_type === 'boolean'));
    const named = await list('?filter[display_name]=reefer');
    assert.deepEqual(named.data.map((d: any) => d.attributes.display_name), ['Reefer Plugged']);
    assert.equal((await list('?filter[display_name]=Plugged')).data.length, 0, 'a prefix, not any part');
    assert.equal((await list('?filter[display_name]=%25')).data.length, 0, 'LIKE wildcards are characters');
    const page2 = await list('?page[size]=2&page[number]=2');
    assert.equal(page2.data.length, 2);
    assert.equal(page2.meta.pagination.current, 2);
    assert.equal(problem(await call('GET', '/v2/custom_field_definitions?filter[entity_type]=Vessel'), 400), 'filter[entity_type] invalid');
    assert.equal(problem(await call('GET', '/v2/custom_field_definitions?filter[data_type]=text'), 400), 'filter[data_type] invalid');
  });

  test('DELETE answers 200 with the definition and deletes its options and values with it', async () => {
    const def = await defineField({ data_type: 'enum' });
    const option = await addOption(def.id, { label: 'Red', value: 'red' });
    const value = await ok(await call('POST', `/v2/shipments/${shipmentId}/custom_fields`, { body: doc('custom_field', { api_slug: def.attributes.api_slug, value: 'red' }) }), 201);
    const deleted = await ok(await call('DELETE', `/v2/custom_field_definitions/${def.id}`));
    assert.equal(deleted.id, def.id);
    assert.equal((await call('GET', `/v2/custom_field_definitions/${def.id}`)).status, 404);
    assert.equal((await call('GET', `/v2/custom_fields/${value.id}`)).status, 404);
    assert.equal((await call('GET', `/v2/custom_field_definitions/${def.id}/options/${option.id}`)).status, 404);
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM custom_fields WHERE definition_id = $1', [def.id]);
    assert.equal(rows[0].n, 0);
    assert.equal((await call('DELETE', `/v2/custom_field_definitions/${def.id}`)).status, 404);
  });
});

test('a value written as its definition is deleted is refused by the foreign key, which the store reports as gone (a 404, not a 500)', async () => {
  const def = await defineField({ data_type: 'short_text' });
  await ok(await call('DELETE', `/v2/custom_field_definitions/${def.id}`));
  const target = { account_id: t.accountId, definition_id: def.id, entity_type: 'Shipment' as const, entity_id: shipmentId };
  assert.equal(await writeField(t.db, target, { value: 'late', keys: ['late'] }, t.clock.now(), true), 'gone');
});

describe('options', () => {
  test('enum fields take options: listed in position order, shown, relabelled, their value immutable', async () => {
    const def = await defineField({ data_type: 'enum' });
    const base = `/v2/custom_field_definitions/${def.id}/options`;
    const res = await call('POST', base, { body: doc('custom_field_option', { label: 'Low', value: 'low', position: 2 }) });
    const low = await ok(res, 201);
    assert.equal(res.body.links.self, `${t.baseUrl}${base}/${low.id}`);
    assert.deepEqual(low.attributes, { label: 'Low', value: 'low', position: 2, created_at: t.clock.now().toISOString(), updated_at: t.clock.now().toISOString() });
    assert.deepEqual(low.relationships.definition.data, { type: 'custom_field_definition', id: def.id });
    const high = await addOption(def.id, { label: 'High', value: 'high', position: 1 });
    const none = await addOption(def.id, { label: 'Unsorted', value: 'unsorted' });
    const listed = (await call('GET', base)).body;
    assert.deepEqual(listed.data.map((o: any) => o.attributes.value), ['high', 'low', 'unsorted']);
    assert.equal(listed.meta.total, 3);
    assert.deepEqual((await ok(await call('GET', `/v2/custom_field_definitions/${def.id}`))).relationships.options.data.map((o: any) => o.id), [high.id, low.id, none.id]);
    assert.equal((await ok(await call('GET', `${base}/${low.id}`))).attributes.label, 'Low');
    const relabelled = await ok(await call('PATCH', `${base}/${low.id}`, { body: doc('custom_field_option', { label: 'Lowest', position: null }) }));
    assert.deepEqual([relabelled.attributes.label, relabelled.attributes.position, relabelled.attributes.value], ['Lowest', null, 'low']);
    assert.equal(problem(await call('PATCH', `${base}/${low.id}`, { body: doc('custom_field_option', { value: 'lowest' }) })), '/data/attributes/value immutable');
    assert.equal(problem(await call('POST', base, { body: doc('custom_field_option', { label: 'Again', value: 'high' }) })), '/data/attributes/value taken');
    assert.equal(problem(await call('POST', base, { body: doc('custom_field_option', { label: 'Comma', value: 'a,b' }) })), '/data/attributes/value invalid');
    assert.equal(problem(await call('POST', base, { body: doc('custom_field_option', { label: '', value: 'x' }) })), '/data/attributes/label blank');
    assert.equal(problem(await call('GET', `${base}/${randomUUID()}`), 404), '- not_found');
    assert.equal(problem(await call('GET', `/v2/custom_field_definitions/${randomUUID()}/options`), 404), '- not_found');
  });

  test('only enum and enum_multi fields take options', async () => {
    const def = await defineField({ data_type: 'number' });
    assert.equal(problem(await call('POST', `/v2/custom_field_definitions/${def.id}/options`, { body: doc('custom_field_option', { label: 'One', value: '1' }) })), '/data options_not_allowed');
  });

  test('DELETE answers 200 with the option; one a value or the default holds is refused (409)', async () => {
    const def = await defineField({ data_type: 'enum_multi' });
    const base = `/v2/custom_field_definitions/${def.id}/options`;
    const a = await addOption(def.id, { label: 'A', value: 'a' });
    const b = await addOption(def.id, { label: 'B', value: 'b' });
    const c = await addOption(def.id, { label: 'C', value: 'c' });
    await ok(await call('POST', `/v2/shipments/${shipmentId}/custom_fields`, { body: doc('custom_field', { api_slug: def.attributes.api_slug, value: ['b'] }) }), 201);
    await ok(await call('PATCH', `/v2/custom_field_definitions/${def.id}`, { body: doc('custom_field_definition', { default_value: ['c'] }) }));
    assert.equal(problem(await call('DELETE', `${base}/${b.id}`), 409), '- option_in_use');
    assert.equal(problem(await call('DELETE', `${base}/${c.id}`), 409), '- option_in_use');
    assert.equal((await ok(await call('DELETE', `${base}/${a.id}`))).id, a.id);
    assert.equal((await call('DELETE', `${base}/${a.id}`)).status, 404);
  });
});

/** A definition of `data_type` (with options for the enums) and a function setting its value on the shipment. */
async function fieldOf(attributes: Record<string, unknown>) {
  const def = await defineField(attributes);
  if (['enum', 'enum_multi'].includes(String(attributes.data_type))) {
    await addOption(def.id, { label: 'Dry van', value: 'dry', position: 1 });
    await addOption(def.id, { label: 'Reefer', value: 'reefer', position: 2 });
  }
  const set = (value: unknown) => call('POST', `/v2/shipments/${shipmentId}/custom_fields`, { body: doc('custom_field', { api_slug: def.attributes.api_slug, value }) });
  return { def, set };
}

describe('value rules', () => {
  const accepted: [Record<string, unknown>, unknown, unknown, string | null][] = [
    // [definition, value sent, value stored, display_value]
    [{ data_type: 'short_text' }, '  PO-77  ', 'PO-77', 'PO-77'],
    [{ data_type: 'short_text', validation: { pattern: '^PO-\\d+$', max_length: 10, min_length: 3 } }, 'PO-1', 'PO-1', 'PO-1'],
    [{ data_type: 'short_text' }, '', null, null],
    [{ data_type: 'number' }, 1234.5, 1234.5, '1234.5'],
    [{ data_type: 'number' }, '0012.500', 12.5, '12.5'],
    [{ data_type: 'number' }, '-0.000001', -0.000001, '-0.000001'],
    [{ data_type: 'number' }, '999999999999.999999', 999999999999.999999, '999999999999.999999'],
    [{ data_type: 'number' }, -0, 0, '0'],
    [{ data_type: 'number', validation: { min: 0, max: 10 } }, 10, 10, '10'],
    [{ data_type: 'date' }, '2026-02-28', '2026-02-28', '2026-02-28'],
    [{ data_type: 'date', default_format: 'MM/DD/YYYY' }, '12/24/2026', '2026-12-24', '2026-12-24'],
    [{ data_type: 'date', default_format: 'D.M.YYYY' }, '5.1.2027', '2027-01-05', '2027-01-05'],
    [{ data_type: 'datetime' }, '2026-11-24T17:05:00Z', '2026-11-24T17:05:00Z', '2026-11-24 17:05:00'],
    [{ data_type: 'datetime' }, '2026-11-24T19:05:00+02:00', '2026-11-24T17:05:00Z', '2026-11-24 17:05:00'],
    [{ data_type: 'datetime' }, '2026-11-24 17:05', '2026-11-24T17:05:00Z', '2026-11-24 17:05:00'],
    [{ data_type: 'boolean' }, true, true, 'Yes'],
    [{ data_type: 'boolean' }, 'false', false, 'No'],
    [{ data_type: 'enum' }, 'reefer', 'reefer', 'Reefer'],
    [{ data_type: 'enum_multi' }, ['reefer', 'dry', 'reefer'], ['reefer', 'dry'], 'Reefer, Dry van'],
    [{ data_type: 'enum_multi' }, 'dry, reefer', ['dry', 'reefer'], 'Dry van, Reefer'],
    [{ data_type: 'enum_multi' }, [], null, null],
    [{ data_type: 'boolean' }, null, null, null],
  ];
  for (const [attributes, sent, stored, display] of accepted) {
    test(`${attributes.data_type} accepts ${JSON.stringify(sent)}${attributes.validation ? ` under ${JSON.stringify(attributes.validation)}` : ''}${attributes.default_format ? ` in ${attributes.default_format}` : ''}`, async () => {
      const { def, set } = await fieldOf(attributes);
      const data = await ok(await set(sent), 201);
      assert.equal(data.type, 'custom_field');
      assert.equal(data.attributes.api_slug, def.attributes.api_slug);
      assert.deepEqual(data.attributes.value, stored);
      assert.equal(data.attributes.display_value, display);
      assert.deepEqual(data.relationships, { entity: { data: { type: 'shipment', id: shipmentId } }, definition: { data: { type: 'custom_field_definition', id: def.id } } });
      // What was stored is what is read back.
      assert.deepEqual((await ok(await call('GET', `/v2/custom_fields/${data.id}`))).attributes, data.attributes);
    });
  }

  test('reference values name a record of the reference type in the account, displayed by its name or number', async () => {
    const { set: party } = await fieldOf({ data_type: 'reference', reference_type: 'party' });
    const data = await ok(await party({ type: 'party', id: partyId.toUpperCase() }), 201);
    assert.deepEqual(data.attributes.value, { type: 'party', id: partyId });
    assert.equal(data.attributes.display_value, 'Acme Importers');
    const { set: container } = await fieldOf({ data_type: 'reference', reference_type: 'container' });
    assert.equal((await ok(await container({ type: 'container', id: containerId }), 201)).attributes.display_value, 'MSCU1234565');
    const { set: shipment } = await fieldOf({ data_type: 'reference', reference_type: 'shipment' });
    assert.equal((await ok(await shipment({ type: 'shipment', id: otherShipmentId }), 201)).attributes.display_value, 'CFBL0002');
    const { set: request } = await fieldOf({ data_type: 'reference', reference_type: 'tracking_request' });
    assert.equal((await ok(await request({ type: 'tracking_request', id: trackingRequestId }), 201)).attributes.display_value, 'CFTR0001');
  });

  const refused: [Record<string, unknown>, unknown, string][] = [
    // [definition, value sent, "pointer code"]
    [{ data_type: 'short_text' }, 42, '/data/attributes/value invalid'],
    [{ data_type: 'short_text' }, 'x'.repeat(1001), '/data/attributes/value too_long'],
    [{ data_type: 'short_text' }, 'lone \ud800 surrogate', '/data/attributes/value invalid'],
    [{ data_type: 'short_text', validation: { max_length: 5 } }, 'PO-123456', '/data/attributes/value too_long'],
    [{ data_type: 'short_text', validation: { min_length: 3 } }, 'ab', '/data/attributes/value too_short'],
    [{ data_type: 'short_text', validation: { pattern: '^PO-\\d+$' } }, 'SO-1', '/data/attributes/value pattern_mismatch'],
    [{ data_type: 'short_text', validation: { required: true } }, '  ', '/data/attributes/value blank'],
    [{ data_type: 'number' }, 'twelve', '/data/attributes/value invalid'],
    [{ data_type: 'number' }, '1.0000001', '/data/attributes/value invalid'],
    [{ data_type: 'number' }, 0.1 + 0.2, '/data/attributes/value invalid'],
    [{ data_type: 'number' }, '1000000000000', '/data/attributes/value invalid'],
    [{ data_type: 'number' }, 1e21, '/data/attributes/value invalid'],
    [{ data_type: 'number' }, '1e3', '/data/attributes/value invalid'],
    [{ data_type: 'number' }, true, '/data/attributes/value invalid'],
    [{ data_type: 'number', validation: { min: 0 } }, -1, '/data/attributes/value too_small'],
    [{ data_type: 'number', validation: { max: 10 } }, 10.5, '/data/attributes/value too_big'],
    [{ data_type: 'date' }, '2026-02-30', '/data/attributes/value invalid'],
    [{ data_type: 'date' }, '24/12/2026', '/data/attributes/value invalid'],
    [{ data_type: 'date', default_format: 'MM/DD/YYYY' }, '24/12/2026', '/data/attributes/value invalid'],
    [{ data_type: 'date' }, 20261224, '/data/attributes/value invalid'],
    [{ data_type: 'datetime' }, '2026-11-24', '/data/attributes/value invalid'],
    [{ data_type: 'datetime' }, '2026-11-24T25:00:00Z', '/data/attributes/value invalid'],
    [{ data_type: 'datetime' }, 'yesterday', '/data/attributes/value invalid'],
    [{ data_type: 'boolean' }, 'yes', '/data/attributes/value invalid'],
    [{ data_type: 'boolean' }, 1, '/data/attributes/value invalid'],
    [{ data_type: 'boolean', validation: { required: true } }, null, '/data/attributes/value blank'],
    [{ data_type: 'enum' }, 'flat', '/data/attributes/value not_an_option'],
    [{ data_type: 'enum' }, ['dry'], '/data/attributes/value invalid'],
    [{ data_type: 'enum' }, 'Reefer', '/data/attributes/value not_an_option'],
    [{ data_type: 'enum_multi' }, ['dry', 'flat'], '/data/attributes/value/1 not_an_option'],
    [{ data_type: 'enum_multi' }, ['dry', 7], '/data/attributes/value/1 invalid'],
    [{ data_type: 'enum_multi' }, 'dry,flat', '/data/attributes/value not_an_option'],
    [{ data_type: 'enum_multi' }, { dry: true }, '/data/attributes/value invalid'],
    [{ data_type: 'enum_multi', validation: { required: true } }, [], '/data/attributes/value blank'],
    [{ data_type: 'reference', reference_type: 'party' }, 'Acme', '/data/attributes/value invalid'],
    [{ data_type: 'reference', reference_type: 'party' }, { type: 'shipment', id: randomUUID() }, '/data/attributes/value/type invalid'],
    [{ data_type: 'reference', reference_type: 'party' }, { type: 'party', id: 'acme' }, '/data/attributes/value/id invalid'],
    [{ data_type: 'reference', reference_type: 'party' }, { type: 'party', id: randomUUID() }, '/data/attributes/value/id not_found'],
  ];
  for (const [attributes, sent, expected] of refused) {
    test(`${attributes.data_type}${attributes.validation ? ` under ${JSON.stringify(attributes.validation)}` : ''} refuses ${JSON.stringify(sent).slice(0, 40)}: ${expected}`, async () => {
      const { def, set } = await fieldOf(attributes);
      assert.equal(problem(await set(sent)), expected);
      const { rows } = await t.db.query('SELECT count(*)::int AS n FROM custom_fields WHERE definition_id = $1', [def.id]);
      assert.equal(rows[0].n, 0, 'nothing was stored');
    });
  }

  test('a value left out takes the default value; without a default it is none', async () => {
    const { def } = await fieldOf({ data_type: 'number', default_value: '42.50' });
    assert.equal(def.attributes.default_value, 42.5);
    const data = await ok(await call('POST', `/v2/shipments/${shipmentId}/custom_fields`, { body: doc('custom_field', { api_slug: def.attributes.api_slug }) }), 201);
    assert.equal(data.attributes.value, 42.5);
    assert.equal(data.attributes.display_value, '42.5');
    const { def: plain } = await fieldOf({ data_type: 'short_text' });
    assert.equal((await ok(await call('POST', `/v2/shipments/${shipmentId}/custom_fields`, { body: doc('custom_field', { api_slug: plain.attributes.api_slug }) }), 201)).attributes.value, null);
  });

  test('a label changed is the display value from then on', async () => {
    const { def, set } = await fieldOf({ data_type: 'enum' });
    const value = await ok(await set('dry'), 201);
    const [dry] = (await call('GET', `/v2/custom_field_definitions/${def.id}/options`)).body.data;
    await ok(await call('PATCH', `/v2/custom_field_definitions/${def.id}/options/${dry.id}`, { body: doc('custom_field_option', { label: 'Dry container' }) }));
    assert.equal((await ok(await call('GET', `/v2/custom_fields/${value.id}`))).attributes.display_value, 'Dry container');
  });
});

describe('values by id (/custom_fields)', () => {
  test('POST needs the entity relationship, answers 201; GET, PATCH and DELETE (200) by id; a second POST for the same field is refused', async () => {
    const { def } = await fieldOf({ entity_type: 'Container', data_type: 'short_text' });
    const slug = def.attributes.api_slug;
    const body = (attributes: Record<string, unknown>, entity: unknown = { data: { type: 'container', id: containerId } }) => doc('custom_field', attributes, entity === null ? {} : { relationships: { entity } });
    const res = await call('POST', '/v2/custom_fields', { body: body({ api_slug: slug, value: 'seal 1' }) });
    const created = await ok(res, 201);
    assert.equal(res.body.links.self, `${t.baseUrl}/v2/custom_fields/${created.id}`);
    assert.equal(created.links.self, `/v2/custom_fields/${created.id}`);
    assert.deepEqual(created.relationships.entity.data, { type: 'container', id: containerId });
    const again = await call('POST', '/v2/custom_fields', { body: body({ api_slug: slug, value: 'seal 2' }) });
    assert.equal(problem(again), '/data/attributes/api_slug taken');
    assert.equal(again.body.errors[0].meta.id, created.id);
    const patched = await ok(await call('PATCH', `/v2/custom_fields/${created.id}`, { body: doc('custom_field', { value: 'seal 3' }) }));
    assert.equal(patched.id, created.id);
    assert.equal(patched.attributes.value, 'seal 3');
    assert.equal(problem(await call('PATCH', `/v2/custom_fields/${created.id}`, { body: doc('custom_field', {}) })), '/data/attributes/value blank');
    assert.equal((await ok(await call('DELETE', `/v2/custom_fields/${created.id}`))).attributes.value, 'seal 3');
    assert.equal((await call('GET', `/v2/custom_fields/${created.id}`)).status, 404);
    assert.equal((await call('PATCH', `/v2/custom_fields/${created.id}`, { body: doc('custom_field', { value: 'x' }) })).status, 404);
    assert.equal((await call('DELETE', `/v2/custom_fields/${created.id}`)).status, 404);

    // What the body must name, each at its pointer.
    const refusals: [Record<string, unknown>, unknown, string][] = [
      [{ api_slug: slug, value: 'x' }, null, '/data/relationships blank'],
      [{ api_slug: slug, value: 'x' }, { data: { type: 'vessel', id: containerId } }, '/data/relationships/entity/data/type invalid'],
      [{ api_slug: slug, value: 'x' }, { data: { type: 'container', id: randomUUID() } }, '/data/relationships/entity/data/id not_found'],
      [{ api_slug: slug, value: 'x' }, { data: { type: 'container', id: 'not-a-uuid' } }, '/data/relationships/entity/data/id not_found'],
      [{ api_slug: 'no_such_field', value: 'x' }, { data: { type: 'container', id: containerId } }, '/data/attributes/api_slug not_found'],
      [{ api_slug: slug, value: 'x' }, { data: { type: 'shipment', id: shipmentId } }, '/data/attributes/api_slug wrong_entity_type'],
      [{ value: 'x' }, { data: { type: 'container', id: containerId } }, '/data/attributes/api_slug blank'],
    ];
    for (const [attributes, entity, expected] of refusals) assert.equal(problem(await call('POST', '/v2/custom_fields', { body: body(attributes, entity) })), expected, JSON.stringify([attributes, entity]));
  });

  test('the list pages 25 at a time and filters by entity type, entity and definition', async () => {
    const { def } = await fieldOf({ data_type: 'short_text' });
    for (const id of [shipmentId, otherShipmentId]) await ok(await call('POST', `/v2/shipments/${id}/custom_fields`, { body: doc('custom_field', { api_slug: def.attributes.api_slug, value: `v-${id}` }) }), 201);
    const list = async (query: string) => (await call('GET', `/v2/custom_fields${query}`)).body;
    const all = await list('');
    assert.equal(all.meta.size, Math.min(25, all.meta.total));
    const ofDefinition = await list(`?filter[definition_id]=${def.id}`);
    assert.equal(ofDefinition.meta.total, 2);
    const ofShipment = await list(`?filter[definition_id]=${def.id}&filter[entity_id]=${otherShipmentId}`);
    assert.deepEqual(ofShipment.data.map((v: any) => v.attributes.value), [`v-${otherShipmentId}`]);
    assert.equal((await list(`?filter[definition_id]=${def.id}&filter[entity_type]=Container`)).meta.total, 0);
    assert.equal((await list(`?filter[definition_id]=${def.id}&filter[entity_type]=shipment`)).meta.total, 2);
    assert.equal((await list('?filter[entity_id]=nope')).meta.total, 0);
    assert.equal(problem(await call('GET', '/v2/custom_fields?filter[entity_type]=Vessel'), 400), 'filter[entity_type] invalid');
  });
});

describe('values by slug under shipments, containers and tracking requests', () => {
  const entities = (): [string, string, string][] => [
    ['shipments', 'Shipment', shipmentId],
    ['containers', 'Container', containerId],
    ['tracking_requests', 'TrackingRequest', trackingRequestId],
  ];
  test('GET lists, POST sets (201, the same value again), PATCH changes (200), DELETE removes (204)', async () => {
    for (const [path, entity_type, id] of entities()) {
      const { def } = await fieldOf({ entity_type, data_type: 'number' });
      const slug = def.attributes.api_slug;
      const base = `/v2/${path}/${id}/custom_fields`;
      const first = await ok(await call('POST', base, { body: doc('custom_field', { api_slug: slug, value: 1 }) }), 201);
      assert.equal(first.relationships.entity.data.id, id);
      const second = await ok(await call('POST', base, { body: doc('custom_field', { api_slug: slug, value: 2 }) }), 201);
      assert.equal(second.id, first.id, 'a POST of a slug the entity has a value of replaces it');
      assert.equal(second.attributes.value, 2);
      const listed = (await call('GET', base)).body;
      assert.ok(listed.data.some((v: any) => v.id === first.id && v.attributes.value === 2), path);
      assert.ok(listed.data.every((v: any) => v.relationships.entity.data.id === id));
      assert.equal(listed.links.self, `${t.baseUrl}${base}`);
      const patched = await ok(await call('PATCH', `${base}/${slug}`, { body: doc('custom_field', { value: '3.25' }) }));
      assert.equal(patched.attributes.value, 3.25);
      assert.equal(problem(await call('PATCH', `${base}/${slug}`, { body: doc('custom_field', { value: 'x' }) })), '/data/attributes/value invalid');
      const deleted = await call('DELETE', `${base}/${slug}`);
      assert.equal(deleted.status, 204, deleted.text);
      assert.equal(deleted.text, '');
      assert.equal(problem(await call('DELETE', `${base}/${slug}`), 404), '- not_found', 'no value left to delete');
      assert.equal(problem(await call('PATCH', `${base}/${slug}`, { body: doc('custom_field', { value: 4 }) }), 404), '- not_found', 'PATCH changes a value that exists');
      assert.equal(problem(await call('PATCH', `${base}/no_such_field`, { body: doc('custom_field', { value: 4 }) }), 404), '- not_found');
      assert.equal(problem(await call('POST', base, { body: doc('custom_field', { api_slug: 'no_such_field', value: 4 }) })), '/data/attributes/api_slug not_found');
      for (const missing of [randomUUID(), 'not-a-uuid']) {
        assert.equal((await call('GET', `/v2/${path}/${missing}/custom_fields`)).status, 404);
        assert.equal((await call('POST', `/v2/${path}/${missing}/custom_fields`, { body: doc('custom_field', { api_slug: slug, value: 1 }) })).status, 404);
        assert.equal((await call('PATCH', `/v2/${path}/${missing}/custom_fields/${slug}`, { body: doc('custom_field', { value: 1 }) })).status, 404);
        assert.equal((await call('DELETE', `/v2/${path}/${missing}/custom_fields/${slug}`)).status, 404);
      }
    }
  });

  test("a slug of another entity type's field is refused under the wrong entity", async () => {
    const { def } = await fieldOf({ entity_type: 'Container', data_type: 'boolean' });
    assert.equal(problem(await call('POST', `/v2/shipments/${shipmentId}/custom_fields`, { body: doc('custom_field', { api_slug: def.attributes.api_slug, value: true }) })), '/data/attributes/api_slug wrong_entity_type');
    assert.equal(problem(await call('PATCH', `/v2/shipments/${shipmentId}/custom_fields/${def.attributes.api_slug}`, { body: doc('custom_field', { value: true }) }), 404), '- wrong_entity_type');
  });
});

describe('filters on the shipment and container lists', () => {
  test('filter[custom_fields][<api_slug>] keeps the records whose value equals the one given, read by the data type', async () => {
    const set = async (path: string, id: string, slug: string, value: unknown) => ok(await call('POST', `/v2/${path}/${id}/custom_fields`, { body: doc('custom_field', { api_slug: slug, value }) }), 201);
    const ids = async (path: string, query: string) => {
      const res = await call('GET', `/v2/${path}?${query}`);
      assert.equal(res.status, 200, res.text);
      return res.body.data.map((r: any) => r.id).sort();
    };
    const text = (await fieldOf({ data_type: 'short_text', api_slug: 'lane' })).def.attributes.api_slug;
    const amount = (await fieldOf({ data_type: 'number', api_slug: 'freight_cost' })).def.attributes.api_slug;
    const ready = (await fieldOf({ data_type: 'date', api_slug: 'ready_on', default_format: 'MM/DD/YYYY' })).def.attributes.api_slug;
    const hazardous = (await fieldOf({ data_type: 'boolean', api_slug: 'hazardous' })).def.attributes.api_slug;
    const kinds = (await fieldOf({ data_type: 'enum_multi', api_slug: 'equipment' })).def.attributes.api_slug;
    const broker = (await fieldOf({ data_type: 'reference', reference_type: 'party', api_slug: 'broker' })).def.attributes.api_slug;
    const sealed = (await fieldOf({ entity_type: 'Container', data_type: 'enum', api_slug: 'seal_kind' })).def.attributes.api_slug;
    await set('shipments', shipmentId, text, 'Asia-EU');
    await set('shipments', otherShipmentId, text, 'Asia-US');
    await set('shipments', shipmentId, amount, '1500.50');
    await set('shipments', otherShipmentId, amount, 99);
    await set('shipments', shipmentId, ready, '2026-12-24');
    await set('shipments', shipmentId, hazardous, true);
    await set('shipments', otherShipmentId, hazardous, false);
    await set('shipments', otherShipmentId, kinds, ['dry', 'reefer']);
    await set('shipments', shipmentId, broker, { type: 'party', id: partyId });
    await set('containers', containerId, sealed, 'reefer');

    const q = (slug: string, value: string) => `filter[custom_fields][${slug}]=${encodeURIComponent(value)}`;
    assert.deepEqual(await ids('shipments', q(text, 'Asia-EU')), [shipmentId]);
    assert.deepEqual(await ids('shipments', q(amount, '1500.5')), [shipmentId], 'numbers compare as decimals');
    assert.deepEqual(await ids('shipments', q(amount, '99.000')), [otherShipmentId]);
    assert.deepEqual(await ids('shipments', q(ready, '12/24/2026')), [shipmentId], 'dates in the default format too');
    assert.deepEqual(await ids('shipments', q(ready, '2026-12-24')), [shipmentId]);
    assert.deepEqual(await ids('shipments', q(hazardous, 'false')), [otherShipmentId]);
    assert.deepEqual(await ids('shipments', q(kinds, 'reefer')), [otherShipmentId], 'an enum_multi matches when it holds the option');
    assert.deepEqual(await ids('shipments', q(broker, partyId)), [shipmentId]);
    assert.deepEqual(await ids('shipments', `${q(text, 'Asia-EU')}&${q(hazardous, 'false')}`), [], 'every filter must hold');
    assert.deepEqual(await ids('shipments', `${q(hazardous, 'true')}&number=CFBL0001`), [shipmentId], 'with the other filters');
    assert.deepEqual(await ids('containers', q(sealed, 'reefer')), [containerId]);
    assert.deepEqual(await ids('containers', q(sealed, 'dry')), []);

    const refusal = async (path: string, query: string) => problem(await call('GET', `/v2/${path}?${query}`), 400);
    assert.equal(await refusal('shipments', q('no_such_field', 'x')), 'filter[custom_fields][no_such_field] not_found');
    assert.equal(await refusal('shipments', q(amount, 'lots')), `filter[custom_fields][${amount}] invalid`);
    assert.equal(await refusal('shipments', q(ready, '2026-02-30')), `filter[custom_fields][${ready}] invalid`);
    assert.equal(await refusal('shipments', q(kinds, 'flatbed')), `filter[custom_fields][${kinds}] not_an_option`);
    assert.equal(await refusal('shipments', q(broker, 'acme')), `filter[custom_fields][${broker}] invalid`);
    assert.equal(await refusal('containers', q(text, 'Asia-EU')), `filter[custom_fields][${text}] wrong_entity_type`);
  });
});

describe('accounts', () => {
  test("every route answers another account as if the first account's records did not exist", async () => {
    const other = await t.newAccount('Account B');
    const key = other.key;
    const { def } = await fieldOf({ data_type: 'enum' });
    const options = (await call('GET', `/v2/custom_field_definitions/${def.id}/options`)).body.data;
    const value = await ok(await call('POST', `/v2/shipments/${shipmentId}/custom_fields`, { body: doc('custom_field', { api_slug: def.attributes.api_slug, value: 'dry' }) }), 201);
    const slug = def.attributes.api_slug;
    const defPath = `/v2/custom_field_definitions/${def.id}`;
    const optionPath = `${defPath}/options/${options[0].id}`;
    const notFound: [string, string, unknown?][] = [
      ['GET', defPath],
      ['PATCH', defPath, doc('custom_field_definition', { display_name: 'Mine' })],
      ['DELETE', defPath],
      ['GET', `${defPath}/options`],
      ['POST', `${defPath}/options`, doc('custom_field_option', { label: 'X', value: 'x' })],
      ['GET', optionPath],
      ['PATCH', optionPath, doc('custom_field_option', { label: 'Mine' })],
      ['DELETE', optionPath],
      ['GET', `/v2/custom_fields/${value.id}`],
      ['PATCH', `/v2/custom_fields/${value.id}`, doc('custom_field', { value: 'reefer' })],
      ['DELETE', `/v2/custom_fields/${value.id}`],
      ...entitiesOf().flatMap(([path, id]): [string, string, unknown?][] => [
        ['GET', `/v2/${path}/${id}/custom_fields`],
        ['POST', `/v2/${path}/${id}/custom_fields`, doc('custom_field', { api_slug: slug, value: 'dry' })],
        ['PATCH', `/v2/${path}/${id}/custom_fields/${slug}`, doc('custom_field', { value: 'dry' })],
        ['DELETE', `/v2/${path}/${id}/custom_fields/${slug}`],
      ]),
    ];
    for (const [method, path, body] of notFound) assert.equal((await call(method, path, { key, body })).status, 404, `${method} ${path}`);
    for (const path of ['/v2/custom_field_definitions', '/v2/custom_fields']) assert.equal((await call('GET', path, { key })).body.meta.total, 0, path);
    // Account B's own shipment: A's slug names nothing there, and A's shipment is not B's to set.
    const theirs = await seedShipment(t.db, other.accountId, t.clock.now(), { number: 'CFBL0100', scac: 'MAEU' });
    assert.equal(problem(await call('POST', `/v2/shipments/${theirs}/custom_fields`, { key, body: doc('custom_field', { api_slug: slug, value: 'dry' }) })), '/data/attributes/api_slug not_found');
    assert.equal(
      problem(await call('POST', '/v2/custom_fields', { key, body: doc('custom_field', { api_slug: slug, value: 'dry' }, { relationships: { entity: { data: { type: 'shipment', id: shipmentId } } } }) })),
      '/data/relationships/entity/data/id not_found',
    );
    assert.equal(problem(await call('GET', `/v2/shipments?filter[custom_fields][${slug}]=dry`, { key }), 400), `filter[custom_fields][${slug}] not_found`);
    // B may use the same slug for its own field; A's stays as it was.
    const mine = await defineField({ api_slug: slug, data_type: 'short_text' }, key);
    assert.equal(mine.attributes.api_slug, slug);
    const referenceToA = await defineField({ data_type: 'reference', reference_type: 'party' }, key);
    assert.equal(
      problem(await call('POST', `/v2/shipments/${theirs}/custom_fields`, { key, body: doc('custom_field', { api_slug: referenceToA.attributes.api_slug, value: { type: 'party', id: partyId } }) })),
      '/data/attributes/value/id not_found',
      "a reference to another account's record",
    );
    assert.equal((await ok(await call('GET', `/v2/custom_fields/${value.id}`))).attributes.value, 'dry');
    assert.equal((await ok(await call('GET', defPath))).attributes.display_name, def.attributes.display_name);
  });
});

const entitiesOf = (): [string, string][] => [
  ['shipments', shipmentId],
  ['containers', containerId],
  ['tracking_requests', trackingRequestId],
];

test('definitions, options and values carry every attribute and relationship the reference documents for them', async () => {
  const reference = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../shared/reference/openapi.json'), 'utf8')).components.schemas;
  const { def } = await fieldOf({ data_type: 'enum' });
  const [option] = (await call('GET', `/v2/custom_field_definitions/${def.id}/options`)).body.data;
  const value = await ok(await call('POST', `/v2/shipments/${shipmentId}/custom_fields`, { body: doc('custom_field', { api_slug: def.attributes.api_slug, value: 'dry' }) }), 201);
  for (const [type, record] of [['custom_field_definition', def], ['custom_field_option', option], ['custom_field', value]] as const) {
    const documented = reference[type].properties;
    assert.equal(record.type, type);
    assert.deepEqual(Object.keys(documented.attributes.properties).filter((k) => !(k in record.attributes)), [], `${type} attributes`);
    assert.deepEqual(Object.keys(documented.relationships?.properties ?? {}).filter((k) => !(k in record.relationships)), [], `${type} relationships`);
  }
});
