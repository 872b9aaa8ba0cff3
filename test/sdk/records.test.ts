// toRecords on documents written here: which member wins a name, the order of members, included
// records nested along the include paths, and records that stay fast-property objects (a record
// of forty attributes that turned into a dictionary made every MCP tool reading it slower).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { toRecords, type ResourceObject } from '../../sdk/src/records.ts';

setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

const attributes = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`attribute_${i}`, i]));
const container: ResourceObject = {
  id: 'c1',
  type: 'container',
  attributes: { ...attributes, number: 'MSCU1234565', terminal: 'an attribute' },
  relationships: {
    shipment: { data: { id: 's1', type: 'shipment' } },
    terminal: { data: { id: 't1', type: 'terminal' } },
    transport_events: { data: [{ id: 'e1', type: 'transport_event' }] },
    pickup_facility: { data: null },
    raw_events: {},
  },
  links: { self: '/v2/containers/c1' },
};
const included: ResourceObject[] = [
  { id: 's1', type: 'shipment', attributes: { bill_of_lading_number: 'BL1' }, relationships: { port_of_lading: { data: { id: 'p1', type: 'port' } } } },
  { id: 'p1', type: 'port', attributes: { name: 'Rotterdam' } },
  { id: 'e1', type: 'transport_event', attributes: { event: 'container.transport.vessel_loaded' } },
];

describe('toRecords', () => {
  test('attributes, then relationships resolved along the include paths, then relationships and links', () => {
    const [record] = toRecords([container], included, ['shipment.port_of_lading']);
    assert.deepEqual(Object.keys(record), ['id', 'type', ...Object.keys(attributes), 'number', 'terminal', 'shipment', 'transport_events', 'pickup_facility', 'relationships', 'links']);
    assert.equal(record.terminal, 'an attribute', 'an attribute wins over a relationship of the same name');
    assert.deepEqual(record.shipment, {
      id: 's1',
      type: 'shipment',
      bill_of_lading_number: 'BL1',
      port_of_lading: { id: 'p1', type: 'port', name: 'Rotterdam' },
      relationships: included[0].relationships,
    });
    assert.deepEqual(record.transport_events, [{ id: 'e1', type: 'transport_event' }], 'not in the include paths: a reference');
    assert.equal(record.pickup_facility, null);
    assert.equal(record.relationships, container.relationships);
    assert.equal(record.links, container.links);
  });

  test('without include, every relationship the document includes is resolved one level deep', () => {
    const [record] = toRecords([container], included);
    assert.equal((record.shipment as Record<string, unknown>).bill_of_lading_number, 'BL1');
    assert.deepEqual((record.shipment as Record<string, unknown>).port_of_lading, { id: 'p1', type: 'port' });
    assert.deepEqual(record.transport_events, [{ id: 'e1', type: 'transport_event', event: 'container.transport.vessel_loaded' }]);
  });

  test('a record without relationships or attributes', () => {
    assert.deepEqual(toRecords([{ id: 'x', type: 'vessel' }]), [{ id: 'x', type: 'vessel' }]);
    assert.deepEqual(Object.keys(toRecords([{ id: 'x', type: 'vessel', links: { self: '/x' } }])[0]), ['id', 'type', 'links']);
  });

  test('records of many attributes and relationships keep fast properties', () => {
    const [record] = toRecords([container], included, ['shipment.port_of_lading']);
    assert.ok(hasFastProperties(record));
    assert.ok(hasFastProperties(record.shipment as object));
  });
});
