// The SDK's custom field methods against a real svc: a definition with options, values set by
// slug under a shipment and by id, the records they answer with, and the typed errors of refusals.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NotFoundError, SvcClient, SvcError, ValidationError } from '../sdk/src/index.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { seedShipment } from './support/shipment-seeds.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

test('definitions, options and values through the SDK', async () => {
  const svc = new SvcClient({ baseUrl: t.baseUrl, token: t.key });
  const shipmentId = await seedShipment(t.db, t.accountId, t.clock.now(), { number: 'SDKCF0001', scac: 'MAEU' });

  const def = await svc.customFieldDefinitions.create({ entity_type: 'Shipment', api_slug: 'priority', display_name: 'Priority', data_type: 'enum' });
  assert.equal(def.api_slug, 'priority');
  const high = await svc.customFieldDefinitions.options.create(def.id, { label: 'High', value: 'high', position: 1 });
  await svc.customFieldDefinitions.options.update(def.id, high.id, { label: 'Urgent' });
  assert.deepEqual((await svc.customFieldDefinitions.options.list(def.id)).items.map((o) => o.label), ['Urgent']);
  assert.equal((await svc.customFieldDefinitions.update(def.id, { description: 'How soon' })).description, 'How soon');
  assert.equal((await svc.customFieldDefinitions.list({ 'filter[data_type]': 'enum' })).total, 1);

  const value = await svc.customFields.shipments.set(shipmentId, { api_slug: 'priority', value: 'high' });
  assert.equal(value.display_value, 'Urgent');
  assert.deepEqual(value.entity, { id: shipmentId, type: 'shipment' });
  assert.equal((await svc.customFields.shipments.list(shipmentId)).total, 1);
  assert.equal((await svc.customFields.get(value.id)).value, 'high');
  assert.equal((await svc.customFields.list({ 'filter[entity_id]': shipmentId })).items[0].id, value.id);
  // The filter's name holds the slug, so it is not one of the query's typed keys.
  assert.equal((await svc.shipments.list({ 'filter[custom_fields][priority]': 'high' } as never)).total, 1);

  await assert.rejects(svc.customFields.shipments.update(shipmentId, 'priority', 'low'), (err: unknown) => err instanceof ValidationError && err.errors[0].source?.pointer === '/data/attributes/value');
  await assert.rejects(svc.customFieldDefinitions.options.delete(def.id, high.id), (err: unknown) => err instanceof SvcError && err.status === 409, 'an option in use stays');
  await svc.customFields.shipments.delete(shipmentId, 'priority');
  await assert.rejects(svc.customFields.get(value.id), NotFoundError);
  const again = await svc.customFields.create({ api_slug: 'priority', value: 'high' }, { type: 'shipment', id: shipmentId });
  await svc.customFields.update(again.id, null);
  await svc.customFields.delete(again.id);
  await svc.customFieldDefinitions.options.delete(def.id, high.id);
  await svc.customFieldDefinitions.delete(def.id);
  await assert.rejects(svc.customFieldDefinitions.get(def.id), NotFoundError);
});
