import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { haversineKm, haversineNm } from './distance.ts';
import { simplifyLine, splitAtAntimeridian } from './simplify.ts';

describe('haversine', () => {
  test('one degree of a meridian is 60 nm on the mean sphere, give or take its radius', () => {
    assert.ok(Math.abs(haversineNm([0, 0], [0, 1]) - 60.04) < 0.01);
    assert.ok(Math.abs(haversineKm([0, 0], [0, 1]) - 111.195) < 0.001);
  });

  test('measures across the antimeridian the short way', () => {
    assert.ok(Math.abs(haversineKm([179.5, 0], [-179.5, 0]) - haversineKm([0, 0], [1, 0])) < 1e-9);
  });
});

describe('splitAtAntimeridian', () => {
  test('leaves a line that stays on one side alone', () => {
    assert.deepEqual(splitAtAntimeridian([[0, 0], [10, 5]]), [[[0, 0], [10, 5]]]);
  });

  test('cuts at ±180 with an interpolated latitude', () => {
    assert.deepEqual(splitAtAntimeridian([[170, 0], [-170, 10], [-160, 10]]), [
      [[170, 0], [180, 5]],
      [[-180, 5], [-170, 10], [-160, 10]],
    ]);
    assert.deepEqual(splitAtAntimeridian([[-170, 10], [170, 0]]), [
      [[-170, 10], [-180, 5]],
      [[180, 5], [170, 0]],
    ]);
  });

  test('handles a vertex exactly on -180, as sea routes produce', () => {
    assert.deepEqual(splitAtAntimeridian([[170, 40], [-180, 40], [-170, 40]]), [
      [[170, 40], [180, 40]],
      [[-180, 40], [-170, 40]],
    ]);
  });
});

describe('simplifyLine', () => {
  test('drops vertices within the tolerance and keeps the rest', () => {
    const line: [number, number][] = [[0, 0], [1, 0.05], [2, -0.05], [3, 2], [4, 0.02], [5, 0]];
    assert.deepEqual(simplifyLine(line, 0.1), [[0, 0], [2, -0.05], [3, 2], [4, 0.02], [5, 0]]);
    assert.deepEqual(simplifyLine(line, 5), [[0, 0], [5, 0]]);
  });

  test('keeps short lines as they are', () => {
    assert.deepEqual(simplifyLine([[1, 2]], 1), [[1, 2]]);
    assert.deepEqual(simplifyLine([[1, 2], [3, 4]], 1), [[1, 2], [3, 4]]);
  });
});
