import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkContainerNumber, checkDigit, letterValue, looksLikeContainerNumber } from './iso6346.ts';

test('letter values start at 10 and skip the multiples of 11', () => {
  const expected: Record<string, number> = { A: 10, B: 12, J: 20, K: 21, L: 23, T: 31, U: 32, V: 34, Z: 38 };
  for (const [letter, value] of Object.entries(expected)) assert.equal(letterValue(letter), value, letter);
  const all = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map(letterValue);
  assert.ok(all.every((v) => v % 11 !== 0));
  assert.equal(new Set(all).size, 26);
});

test('check digits of published examples', () => {
  // The standard's worked example, and numbers printed on real boxes.
  assert.equal(checkDigit('CSQU305438'), 3);
  for (const n of ['CSQU3054383', 'MSKU1234565', 'WHLU1234560', 'TGHU1234567']) assert.equal(checkContainerNumber(n).checkDigitPassed, true, n);
});

test('a remainder of 10 is written 0', () => {
  // MSKU100009: the weighted sum leaves 10 when divided by 11.
  assert.equal(checkDigit('MSKU100009'), 0);
  assert.equal(checkContainerNumber('MSKU1000090').reason, null);
  assert.equal(checkContainerNumber('MSKU1000091').checkDigitPassed, false);
});

test('the worked example of the standard: CSQU305438 has check digit 3', () => {
  assert.equal(checkDigit('CSQU305438'), 3);
  assert.equal(checkContainerNumber('CSQU3054383').checkDigitPassed, true);
});

test('what counts as written like a container number', () => {
  assert.ok(looksLikeContainerNumber('MSKU1234565'));
  assert.ok(looksLikeContainerNumber('MSKU123456'), 'without its check digit');
  assert.ok(looksLikeContainerNumber('ONEY1234567'), 'any fourth letter, judged by checkContainerNumber');
  for (const n of ['MSK1234565', 'MSKU12345', 'MSKU12345678', 'MAEU123456789', '1234MSKU565', 'MSKUA234565']) assert.ok(!looksLikeContainerNumber(n), n);
});

test('each broken rule has its reason', () => {
  const valid = checkContainerNumber('MSKU1234565');
  assert.deepEqual(valid, { owner: 'MSK', category: 'U', categoryValid: true, serial: '123456', given: 5, expected: 5, checkDigitPassed: true, reason: null });

  const wrong = checkContainerNumber('MSKU1234567');
  assert.equal(wrong.checkDigitPassed, false);
  assert.match(wrong.reason!, /^Invalid check digit: 7 is written, MSKU123456 gives 5$/);

  const missing = checkContainerNumber('MSKU123456');
  assert.equal(missing.given, null);
  assert.equal(missing.checkDigitPassed, false);
  assert.match(missing.reason!, /Missing check digit.*would end in 5/);

  const category = checkContainerNumber('MSKX1234565');
  assert.equal(category.categoryValid, false);
  assert.match(category.reason!, /equipment category 'X'/);

  for (const n of ['MSKJ1234568', 'MSKZ1234563']) {
    const c = checkContainerNumber(n.slice(0, 10) + checkDigit(n));
    assert.equal(c.reason, null, n);
  }
});
