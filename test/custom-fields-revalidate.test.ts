// A definition's validation changed by PATCH must hold for the values stored under the old one:
// a change some stored value would break is refused (422 at /data/attributes/validation, with how
// many break and the first few by id), the definition left as it was; once the values are fixed,
// the same change goes through. Values of none (null) break no rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { doc, spacedRequests } from './support/spaced-requests.ts';
import { seedShipment } from './support/shipment-seeds.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

const call = spacedRequests(() => t);


let shipments = 0;
const newShipment = () => seedShipment(t.db, t.accountId, t.clock.now(), { number: `CFREV${String(++shipments).padStart(4, '0')}`, scac: 'MAEU' });

let slugs = 0;
/** A Shipment field of `data_type` with one shipment per value; the definition and the values' ids. */
async function fieldWith(data_type: string, values: unknown[], extra: Record<string, unknown> = {}): Promise<{ id: string; slug: string; valueIds: string[] }> {
  const slug = `rev${++slugs}`;
  const res = await call('POST', '/v2/custom_field_definitions', { body: doc('custom_field_definition', { entity_type: 'Shipment', api_slug: slug, display_name: slug, data_type, ...extra }) });
  assert.equal(res.status, 201, res.text);
  const valueIds: string[] = [];
  for (const value of values) {
    const set = await call('POST', `/v2/shipments/${await newShipment()}/custom_fields`, { body: doc('custom_field', { api_slug: slug, value }) });
    assert.equal(set.status, 201, set.text);
    valueIds.push(set.body.data.id);
  }
  return { id: res.body.data.id, slug, valueIds };
}

const patchValidation = (id: string, validation: unknown) => call('PATCH', `/v2/custom_field_definitions/${id}`, { body: doc('custom_field_definition', { validation }) });

function refused(res: { status: number; body: any; text: string }): any {
  assert.equal(res.status, 422, res.text);
  const [error] = res.body.errors;
  assert.equal(error.source.pointer, '/data/attributes/validation');
  assert.equal(error.code, 'values_break_validation');
  return error;
}

test('a shorter max_length some value exceeds is refused, naming it; the definition stays; a length they all fit goes through', async () => {
  const field = await fieldWith('short_text', ['abc', 'abcdefgh', null]);
  const error = refused(await patchValidation(field.id, { max_length: 5 }));
  assert.equal(error.meta.values, 1);
  assert.deepEqual(error.meta.examples.map((e: any) => e.id), [field.valueIds[1]]);
  assert.equal(error.meta.examples[0].entity_type, 'Shipment');
  assert.match(error.meta.examples[0].problem, /8 characters long; at most 5/);
  assert.match(error.detail, new RegExp(`1 stored value\\(s\\) of ${field.slug}.*${field.valueIds[1]}`));
  assert.equal((await call('GET', `/v2/custom_field_definitions/${field.id}`)).body.data.attributes.validation, null, 'unchanged');
  assert.equal((await patchValidation(field.id, { max_length: 8 })).status, 200);
});

test('a pattern goes through once the values that break it are fixed', async () => {
  const field = await fieldWith('short_text', ['PO-1', 'po 2', 'PO-3']);
  refused(await patchValidation(field.id, { pattern: '^PO-\\d+$' }));
  assert.equal((await call('PATCH', `/v2/custom_fields/${field.valueIds[1]}`, { body: doc('custom_field', { value: 'PO-2' }) })).status, 200);
  const res = await patchValidation(field.id, { pattern: '^PO-\\d+$' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.attributes.validation, { pattern: '^PO-\\d+$' });
});

test('number bounds are checked against the exact decimal stored', async () => {
  const field = await fieldWith('number', ['10.5', '123456789012.000001', -3]);
  assert.equal((await patchValidation(field.id, { min: -3, max: 123456789013 })).status, 200);
  const error = refused(await patchValidation(field.id, { min: 0, max: 123456789013 }));
  assert.deepEqual(error.meta.examples.map((e: any) => e.id), [field.valueIds[2]]);
  refused(await patchValidation(field.id, { max: 10 }));
});

test('required binds writes: values of none do not stop it', async () => {
  const field = await fieldWith('short_text', [null, 'x']);
  const res = await patchValidation(field.id, { required: true });
  assert.equal(res.status, 200, res.text);
  const blank = await call('PATCH', `/v2/custom_fields/${field.valueIds[1]}`, { body: doc('custom_field', { value: null }) });
  assert.equal(blank.status, 422, blank.text);
});

test('many broken values: the count is exact and the examples are the first five', async () => {
  const field = await fieldWith('short_text', ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'ggggggg', 'hhhhhhhh']);
  const error = refused(await patchValidation(field.id, { min_length: 2, max_length: 3 }));
  assert.equal(error.meta.values, 6);
  assert.equal(error.meta.examples.length, 5);
  // Clearing the validation again (or leaving it unchanged) needs no check.
  assert.equal((await patchValidation(field.id, null)).status, 200);
  assert.equal((await call('PATCH', `/v2/custom_field_definitions/${field.id}`, { body: doc('custom_field_definition', { display_name: 'Renamed' }) })).status, 200);
});
