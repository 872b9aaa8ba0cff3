import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decide, MAX_CANDIDATES, NO_PREDICTION, predict } from './confidence.ts';

test('the decision follows the spec’s thresholds exactly', () => {
  assert.equal(decide(1), 'auto_select');
  assert.equal(decide(0.95), 'auto_select');
  assert.equal(decide(0.9499), 'needs_confirmation');
  assert.equal(decide(0.7), 'needs_confirmation');
  assert.equal(decide(0.6999), 'no_prediction');
  assert.equal(decide(0), 'no_prediction');
  assert.equal(decide(null), 'no_prediction');
  assert.equal(decide(undefined), 'no_prediction');
  assert.equal(decide(Number.NaN), 'no_prediction');
});

const line = (scac: string) => ({ scac, name: `Line ${scac}` });

test('candidates are merged per SCAC, ranked, rounded and limited', () => {
  const p = predict([
    { line: line('BBBB'), p: 0.2 },
    { line: line('AAAA'), p: 0.5 },
    { line: line('BBBB'), p: 0.3 },
    { line: line('CCCC'), p: 0.123456 },
    { line: line('DDDD'), p: 0.01 },
    { line: line('EEEE'), p: 0.01 },
    { line: line('FFFF'), p: 0.001 },
    { line: line('GGGG'), p: 0 },
  ]);
  assert.deepEqual(
    p.candidates.map((c) => [c.scac, c.confidence]),
    [
      ['AAAA', 0.5],
      ['BBBB', 0.3],
      ['CCCC', 0.123],
      ['DDDD', 0.01],
      ['EEEE', 0.01],
    ],
  );
  assert.equal(p.candidates.length, MAX_CANDIDATES);
  assert.equal(p.decision, 'no_prediction');
  assert.equal(p.selected, null, 'no selection without a prediction, though candidates are listed');
});

test('the best candidate is selected when confident enough, and the decision uses the rounded value', () => {
  const sure = predict([{ line: line('MAEU'), p: 0.98 }]);
  assert.equal(sure.decision, 'auto_select');
  assert.deepEqual(sure.selected, { scac: 'MAEU', name: 'Line MAEU', confidence: 0.98 });
  assert.equal(predict([{ line: line('MAEU'), p: 0.94996 }]).decision, 'auto_select');
  const unsure = predict([{ line: line('ONEY'), p: 0.85 }]);
  assert.equal(unsure.decision, 'needs_confirmation');
  assert.equal(unsure.selected?.scac, 'ONEY');
  assert.equal(predict([]), NO_PREDICTION);
  assert.ok(Object.isFrozen(sure) && Object.isFrozen(sure.candidates), 'shared between answers, so frozen');
});
