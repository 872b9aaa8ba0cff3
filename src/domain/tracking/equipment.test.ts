import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeSizeType, kgToLbs } from './equipment.ts';

describe('decodeSizeType', () => {
  test('reads length, height and type group', () => {
    assert.deepEqual(decodeSizeType('45G1'), { equipment_type: 'dry', equipment_length: 40, equipment_height: 'high_cube' });
    assert.deepEqual(decodeSizeType('22G1'), { equipment_type: 'dry', equipment_length: 20, equipment_height: 'standard' });
    assert.deepEqual(decodeSizeType('45R1'), { equipment_type: 'reefer', equipment_length: 40, equipment_height: 'high_cube' });
    assert.deepEqual(decodeSizeType('22U1'), { equipment_type: 'open top', equipment_length: 20, equipment_height: 'standard' });
    assert.deepEqual(decodeSizeType('42P1'), { equipment_type: 'flat rack', equipment_length: 40, equipment_height: 'standard' });
    assert.deepEqual(decodeSizeType('22T1'), { equipment_type: 'tank', equipment_length: 20, equipment_height: 'standard' });
    assert.deepEqual(decodeSizeType('L5G1'), { equipment_type: 'dry', equipment_length: 45, equipment_height: 'high_cube' });
    assert.deepEqual(decodeSizeType(' 22b0 '), { equipment_type: 'bulk', equipment_length: 20, equipment_height: 'standard' });
  });

  test('leaves unknown parts and malformed codes null', () => {
    assert.deepEqual(decodeSizeType('M5G1'), { equipment_type: 'dry', equipment_length: null, equipment_height: 'high_cube' });
    assert.deepEqual(decodeSizeType('9999'), { equipment_type: null, equipment_length: null, equipment_height: null });
    assert.deepEqual(decodeSizeType('22100'), { equipment_type: null, equipment_length: null, equipment_height: null });
    assert.deepEqual(decodeSizeType(null), { equipment_type: null, equipment_length: null, equipment_height: null });
  });
});

test('kgToLbs rounds to whole pounds', () => {
  assert.equal(kgToLbs(4000), 8818);
  assert.equal(kgToLbs(0), 0);
  assert.equal(kgToLbs(null), null);
});
