import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalisePastedNumber } from './normalise.ts';

test('case, blanks, dashes, dots, slashes and enclosing punctuation go', () => {
  const cases: [string, string][] = [
    ['msku1234565', 'MSKU1234565'],
    ['  MSKU 123456 5 ', 'MSKU1234565'],
    ['MSKU-123456-5', 'MSKU1234565'],
    ['MSKU.123456.5', 'MSKU1234565'],
    ['MSKU\u00A0123456\u20135', 'MSKU1234565'],
    ['MSKU\u200B1234565', 'MSKU1234565'],
    ['"MSKU1234565"', 'MSKU1234565'],
    ['(MSKU1234565),', 'MSKU1234565'],
    ['#MAEU123456789', 'MAEU123456789'],
    ['maeu 123456789', 'MAEU123456789'],
    ['MEDU-AB123456', 'MEDUAB123456'],
    ['HLCU/HAM/2305/12345', 'HLCUHAM230512345'],
    ['ＭＳＫＵ１２３４５６５', 'MSKU1234565'],
  ];
  for (const [raw, number] of cases) assert.deepEqual(normalisePastedNumber(raw), { ok: true, number }, raw);
});

test('a label in front goes when a separator ends it', () => {
  const cases: [string, string][] = [
    ['B/L No.: MAEU123456789', 'MAEU123456789'],
    ['BL# 123456789', '123456789'],
    ['BL NO. 123456789', '123456789'],
    ['Booking: 123456789', '123456789'],
    ['Booking number 12345678', '12345678'],
    ['Container: MSKU1234565', 'MSKU1234565'],
    ['CNTR MSKU 123456 5', 'MSKU1234565'],
    ['Master B/L: ONEYSH9AME650500', 'ONEYSH9AME650500'],
    ['Bill of lading ZIMUSNH1234567', 'ZIMUSNH1234567'],
  ];
  for (const [raw, number] of cases) assert.deepEqual(normalisePastedNumber(raw), { ok: true, number }, raw);
  // Letters that merely start the number stay.
  assert.deepEqual(normalisePastedNumber('BL123456789'), { ok: true, number: 'BL123456789' });
  assert.deepEqual(normalisePastedNumber('BKG12345678'), { ok: true, number: 'BKG12345678' });
});

test('what cannot be a tracking number says why', () => {
  const cases: [string, RegExp][] = [
    ['', /blank/],
    ['  - . ', /blank/],
    ['hello world', /no digits/],
    ['MSKU123456!', /characters other than letters and digits/],
    ['ops@example.com', /characters other than/],
    ['+1 415 555 0134', /characters other than/],
    ['AB12', /shorter than 5/],
    ['1'.repeat(36), /longer than 35/],
  ];
  for (const [raw, reason] of cases) {
    const n = normalisePastedNumber(raw);
    assert.equal(n.ok, false, raw);
    if (!n.ok) assert.match(n.reason, reason, raw);
  }
});
