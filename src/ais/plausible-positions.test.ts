import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HOUR, MINUTE } from '../domain/time-units.ts';
import { MAX_PLAUSIBLE_KNOTS, plausibility, plausibleTrack, PositionGate, RECOVER_AFTER_MS, type Fix } from './plausible-positions.ts';

// One degree of latitude is 60 nm: a ship at 20 kn covers it in three hours.
const T0 = Date.parse('2026-03-01T00:00:00Z');
const fix = (lat: number, lon: number, atMs: number): Fix => ({ lat, lon, atMs });

describe('plausibility of one position after another', () => {
  test('a container ship at passage speed is accepted, either way round in time', () => {
    assert.equal(plausibility(fix(0, 0, T0), fix(1, 0, T0 + 3 * HOUR)), 'accepted');
    assert.equal(plausibility(fix(1, 0, T0 + 3 * HOUR), fix(0, 0, T0)), 'accepted');
  });

  test('just under the limit passes, just over it is an impossible speed', () => {
    // 60 nm in 1.5 h is 40 kn; GPS noise allows a little more, a quarter hour less is 48 kn.
    assert.equal(plausibility(fix(0, 0, T0), fix(1, 0, T0 + (60 / MAX_PLAUSIBLE_KNOTS) * HOUR)), 'accepted');
    assert.equal(plausibility(fix(0, 0, T0), fix(1, 0, T0 + 1.25 * HOUR)), 'impossible_speed');
  });

  test('reports seconds apart a few hundred metres apart are noise; kilometres apart, two places', () => {
    assert.equal(plausibility(fix(0, 0, T0), fix(0.003, 0, T0 + 5000)), 'accepted');
    assert.equal(plausibility(fix(0, 0, T0), fix(0.5, 0, T0 + 5000)), 'two_places');
    assert.equal(plausibility(fix(0, 0, T0), fix(10, 10, T0)), 'two_places');
  });

  test('a jump across a continent is rejected however long the silence before it was short of days', () => {
    // Rotterdam to Shanghai is ~9,000 km great circle: at 40 kn ~ 5 days.
    assert.equal(plausibility(fix(51.9, 4.48, T0), fix(31.2, 121.5, T0 + 2 * 24 * HOUR)), 'impossible_speed');
  });
});

describe('PositionGate', () => {
  test('a teleport in a track is dropped and the track goes on from the last accepted position', () => {
    const track = [fix(0, 0, T0), fix(0.1, 0, T0 + 20 * MINUTE), fix(40, 40, T0 + 40 * MINUTE), fix(0.3, 0, T0 + HOUR)];
    assert.deepEqual(plausibleTrack(track), [track[0], track[1], track[3]]);
  });

  test('two transmitters under one identity: the one heard first keeps the track, the other is counted as two places or too fast', () => {
    const gate = new PositionGate();
    const verdicts: string[] = [];
    for (let i = 0; i < 40; i++) {
      const at = T0 + i * 3 * MINUTE;
      verdicts.push(gate.judge('ship', i % 2 === 0 ? fix(1 + i * 0.001, 100, at) : fix(-30, 20 + i * 0.001, at)));
    }
    assert.deepEqual(new Set(verdicts.filter((_, i) => i % 2 === 0)), new Set(['accepted']));
    assert.deepEqual(new Set(verdicts.filter((_, i) => i % 2 === 1)), new Set(['impossible_speed']));
  });

  test('vessels are judged apart by their keys', () => {
    const gate = new PositionGate();
    assert.equal(gate.judge('a', fix(0, 0, T0)), 'accepted');
    assert.equal(gate.judge('b', fix(50, 50, T0 + 1000)), 'accepted');
    assert.equal(gate.judge('a', fix(50, 50, T0 + 2000)), 'two_places');
  });

  test('a wrong first position is let go once the real track has run alone for a while', () => {
    const gate = new PositionGate();
    assert.equal(gate.judge('ship', fix(60, -30, T0)), 'accepted');
    const verdicts: string[] = [];
    for (let i = 1; i * 10 * MINUTE <= RECOVER_AFTER_MS + 20 * MINUTE; i++) verdicts.push(gate.judge('ship', fix(1 + i * 0.02, 100, T0 + i * 10 * MINUTE)));
    assert.equal(verdicts[0], 'impossible_speed');
    assert.equal(verdicts.at(-1), 'accepted');
    assert.equal(gate.judge('ship', fix(60, -30, T0 + RECOVER_AFTER_MS + 30 * MINUTE)), 'impossible_speed');
  });

  test('forgetBefore drops old vessels: the next position of one is accepted as a first one', () => {
    const gate = new PositionGate();
    gate.judge('ship', fix(0, 0, T0));
    gate.forgetBefore(T0 + 1);
    assert.equal(gate.judge('ship', fix(50, 50, T0 + 1000)), 'accepted');
  });
});
