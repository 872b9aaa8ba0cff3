// No value, however odd, is a 500: random JSON (and strings shaped like numbers, dates and ids)
// sent as the value of a field of every data type, as its default, and as a list filter, is
// either stored and read back as stored or refused with a 422 (400 for a filter) naming it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { seedShipment } from './support/shipment-seeds.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

const DATA_TYPES = ['short_text', 'number', 'date', 'datetime', 'boolean', 'enum', 'enum_multi', 'reference'];

const shaped = fc.oneof(
  fc.constantFrom('1.5', '-0', '00', '1e5', '999999999999.9999999', '2026-02-29', '2024-02-29', '12/31/2026', '2026-11-24T25:61:00Z', '2026-11-24 10:00', 'true', 'dry', 'dry,reefer', ',', '\ud800', ''),
  fc.uuid(),
  fc.record({ type: fc.constantFrom('party', 'shipment', 'x'), id: fc.oneof(fc.uuid(), fc.string()) }),
);
const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), shaped, fc.array(shaped, { maxLength: 3 }));

test('random values of every data type: stored as read back, or a 422 at the value', async () => {
  const shipmentId = await seedShipment(t.db, t.accountId, t.clock.now(), { number: 'FUZZCF1', scac: 'MAEU' });
  const request = (method: string, path: string, body?: unknown) => {
    t.clock.advance(1000);
    return t.request(method, path, { body });
  };
  for (const data_type of DATA_TYPES) {
    const created = await request('POST', '/v2/custom_field_definitions', {
      data: { type: 'custom_field_definition', attributes: { entity_type: 'Shipment', api_slug: `fuzz_${data_type}`, display_name: data_type, data_type, ...(data_type === 'reference' ? { reference_type: 'party' } : {}) } },
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.data.id;
    if (data_type.startsWith('enum')) {
      for (const value of ['dry', 'reefer']) assert.equal((await request('POST', `/v2/custom_field_definitions/${id}/options`, { data: { attributes: { label: value, value } } })).status, 201);
    }
    await fc.assert(
      fc.asyncProperty(anyValue, async (value) => {
        const res = await request('POST', `/v2/shipments/${shipmentId}/custom_fields`, { data: { type: 'custom_field', attributes: { api_slug: `fuzz_${data_type}`, value } } });
        assert.ok([201, 422].includes(res.status), `${data_type} ${JSON.stringify(value)} → ${res.status} ${res.text}`);
        if (res.status === 422) assert.match(res.body.errors[0].source.pointer, /^\/data\/attributes\/value/);
        else assert.deepEqual((await request('GET', `/v2/custom_fields/${res.body.data.id}`)).body.data.attributes.value, res.body.data.attributes.value);
        const asDefault = await request('PATCH', `/v2/custom_field_definitions/${id}`, { data: { attributes: { default_value: value } } });
        assert.ok([200, 422].includes(asDefault.status), `default ${data_type} ${JSON.stringify(value)} → ${asDefault.status} ${asDefault.text}`);
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        // A lone surrogate has no percent-encoding: the filter gets a stand-in.
        const filtered = await request('GET', `/v2/shipments?filter[custom_fields][fuzz_${data_type}]=${encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '?'))}`);
        assert.ok([200, 400].includes(filtered.status), `filter ${data_type} ${text} → ${filtered.status} ${filtered.text}`);
      }),
      { numRuns: 30, seed: 15, endOnFailure: true },
    );
  }
});
