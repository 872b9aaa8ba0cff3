// The inference rules over a small hand-made catalogue, so each rule is seen alone; the real data
// is scored in test/inference-labelled.test.ts and served in test/infer-number.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildCatalogue, type CarrierRecord, type OwnerPrefixRecord } from './catalogue.ts';
import { checkDigit } from './iso6346.ts';
import { inferNumber, isUnusable } from './infer.ts';
import { documentedShape, type NumberShape } from './shapes.ts';
import type { InferResult } from './types.ts';

const carrier = (key: string, scac: string | null, extra: Partial<CarrierRecord> = {}): CarrierRecord => ({
  key,
  name: `${key} Line`,
  group: key,
  scac,
  altScacs: [],
  blPrefixes: [],
  uncertain: { scac: false, blPrefixes: false },
  ...extra,
});
const owner = (prefix: string, carrierKey: string | null, level: OwnerPrefixRecord['level'], bicOwner: string, brandHint: string | null = null): OwnerPrefixRecord => ({
  prefix,
  carrierKey,
  level,
  bicOwner,
  brandHint,
});
const svcShape = (carrierKey: string, pattern: RegExp): NumberShape => ({ id: `${carrierKey}:svc`, carrierKey, where: 'bare', prefix: null, pattern, kind: 'booking', source: 'svc', description: 'test' });

const catalogue = buildCatalogue({
  carriers: [
    carrier('MAIN', 'MANL', { group: 'Main', blPrefixes: ['MANL', 'MANU', 'MAXU'], altScacs: ['MANX'] }),
    carrier('BRAND', 'BRDL', { group: 'Main' }),
    carrier('DOUBT', 'DBTL', { uncertain: { scac: true, blPrefixes: false } }),
    carrier('NOSCAC', null),
    carrier('SHAPE', 'SHPL', { blPrefixes: ['SHPL', 'SHPU'] }),
  ],
  ownerPrefixes: [
    owner('MANU', 'MAIN', 'high', 'MAIN CO'),
    owner('BRDU', 'BRAND', 'high', 'MAIN CO', 'Brand'),
    owner('BROU', 'BRAND', 'high', 'BRAND CO', 'Brand'),
    owner('LEGU', 'MAIN', 'medium', 'OLD CO'),
    owner('AFFU', 'MAIN', 'low', 'LEASING CO'),
    owner('LSRU', null, 'high', 'LEASING CO'),
    owner('NOSU', 'NOSCAC', 'high', 'NOSCAC CO'),
    owner('SHPU', 'SHAPE', 'high', 'SHAPE CO'),
  ],
  shapes: [documentedShape('SHAPE', null, 9, 'digits'), documentedShape('SHAPE', 'SHPU', 7, 'alphanumerics'), svcShape('MAIN', /^\d{8}$/), svcShape('BRAND', /^\d{8}$/)],
});

function infer(raw: string): InferResult {
  const r = inferNumber(catalogue, raw);
  assert.ok(!isUnusable(r), `${raw}: ${JSON.stringify(r)}`);
  return r;
}
const valid = (prefix: string, serial = '123456') => prefix + serial + checkDigit(prefix + serial);
const invalid = (prefix: string, serial = '123456') => prefix + serial + ((checkDigit(prefix + serial) + 1) % 10);
const lines = (r: InferResult) => r.shipping_line.candidates.map((c) => `${c.scac} ${c.confidence}`);

test('an own box with a valid number is auto-selected', () => {
  const r = infer(valid('MANU'));
  assert.equal(r.number_type, 'container');
  assert.deepEqual(r.validation, { is_valid: true, type: 'container', check_digit_passed: true, parsed_number: valid('MANU'), reason: null });
  assert.equal(r.shipping_line.decision, 'auto_select');
  assert.deepEqual(r.shipping_line.selected, { scac: 'MANL', name: 'MAIN Line', confidence: 0.98 });
});

test('a brand box registered to its group’s main line names the main line first', () => {
  assert.deepEqual(lines(infer(valid('BRDU'))), ['MANL 0.98', 'BRDL 0.02']);
  assert.equal(infer(valid('BRDU')).shipping_line.decision, 'auto_select');
  // Registered to the brand itself: the brand.
  assert.deepEqual(lines(infer(valid('BROU'))), ['BRDL 0.98']);
});

test('legacy boxes ask for confirmation, lessors of a line only suggest, pure lessors name nobody', () => {
  const legacy = infer(valid('LEGU'));
  assert.equal(legacy.shipping_line.decision, 'needs_confirmation');
  assert.equal(legacy.shipping_line.selected?.confidence, 0.85);

  const affiliated = infer(valid('AFFU'));
  assert.equal(affiliated.shipping_line.decision, 'no_prediction');
  assert.equal(affiliated.shipping_line.selected, null);
  assert.deepEqual(lines(affiliated), ['MANL 0.4']);

  for (const prefix of ['LSRU', 'NOSU', 'QQQU']) {
    const r = infer(valid(prefix));
    assert.equal(r.validation.is_valid, true, prefix);
    assert.deepEqual(r.shipping_line, { decision: 'no_prediction', selected: null, candidates: [] }, prefix);
  }
});

test('an invalid container number keeps its prediction, one step less sure', () => {
  const wrong = infer(invalid('MANU'));
  assert.equal(wrong.validation.is_valid, false);
  assert.equal(wrong.validation.check_digit_passed, false);
  assert.match(wrong.validation.reason!, /Invalid check digit/);
  assert.equal(wrong.shipping_line.decision, 'needs_confirmation');
  assert.equal(wrong.shipping_line.selected?.confidence, 0.882);

  const missing = infer('MANU123456');
  assert.equal(missing.number_type, 'container');
  assert.match(missing.validation.reason!, /Missing check digit/);
  assert.equal(missing.shipping_line.selected?.scac, 'MANL');
});

test('J and Z units of a known owner are only candidates', () => {
  for (const prefix of ['MANJ', 'MANZ']) {
    const r = infer(valid(prefix));
    assert.equal(r.validation.is_valid, true);
    assert.equal(r.shipping_line.decision, 'no_prediction');
    assert.deepEqual(lines(r), ['MANL 0.49']);
  }
});

test('a B/L prefix or SCAC in front names its line, as strongly as the data vouches for it', () => {
  const cases: [string, string, string][] = [
    ['MANLABC1234567', 'MANL 0.97', 'auto_select'],
    ['manl 123456789', 'MANL 0.97', 'auto_select'],
    ['MANL-MANL1234567', 'MANL 0.97', 'auto_select'],
    ['MANX1234567890', 'MANL 0.9', 'needs_confirmation'],
    ['DBTL1234567890', 'DBTL 0.75', 'needs_confirmation'],
    ['BRDL1234567890', 'BRDL 0.96', 'auto_select'],
    ['SHPL123456789', 'SHPL 0.99', 'auto_select'],
    ['SHPL1234567890', 'SHPL 0.97', 'auto_select'],
  ];
  for (const [raw, line, decision] of cases) {
    const r = infer(raw);
    assert.equal(r.number_type, 'bill_of_lading', raw);
    assert.deepEqual(r.validation, { is_valid: true, type: 'shipment', check_digit_passed: null, parsed_number: r.validation.parsed_number, reason: null }, raw);
    assert.deepEqual(lines(r), [line], raw);
    assert.equal(r.shipping_line.decision, decision, raw);
  }
  // Too few digits after the prefix: not a prefixed number.
  assert.deepEqual(infer('MANLABCDEF12').shipping_line.candidates, []);
});

test('written like a container number: the valid container wins, else the documented B/L shape or the known owner', () => {
  // SHPU + 7 characters is SHAPE's documented B/L form; a failing check digit makes it a B/L.
  const bl = infer(invalid('SHPU'));
  assert.equal(bl.number_type, 'bill_of_lading');
  assert.deepEqual(lines(bl), ['SHPL 0.99']);
  assert.equal(infer(valid('SHPU')).number_type, 'container');
  // MANU is both an owner and a B/L prefix without documented shape: the owner's typo.
  const typo = infer(invalid('MANU'));
  assert.equal(typo.number_type, 'container');
  // MAXU owns no boxes here: a B/L of MAIN.
  const maxu = infer(invalid('MAXU'));
  assert.equal(maxu.number_type, 'bill_of_lading');
  assert.deepEqual(lines(maxu), ['MANL 0.97']);
  // A fourth letter that is no equipment category: never a container when a prefix reads it.
  assert.equal(infer('MANL1234567').number_type, 'bill_of_lading');
  const notAContainer = infer('QQQX1234567');
  assert.equal(notAContainer.number_type, 'container');
  assert.match(notAContainer.validation.reason!, /equipment category 'X'/);
});

test('bare numbers are weighed against every line sharing their shape and the unknown', () => {
  const nine = infer('123456789');
  assert.equal(nine.number_type, 'bill_of_lading');
  assert.equal(nine.validation.is_valid, true);
  assert.deepEqual(lines(nine), ['SHPL 0.75']);
  assert.equal(nine.shipping_line.decision, 'needs_confirmation');

  const eight = infer('12345678');
  assert.equal(eight.number_type, 'booking');
  assert.deepEqual(lines(eight), ['BRDL 0.4', 'MANL 0.4']);
  assert.equal(eight.shipping_line.decision, 'no_prediction');

  const unknownDigits = infer('12345678901');
  assert.equal(unknownDigits.number_type, 'booking');
  assert.equal(unknownDigits.validation.is_valid, null);
  assert.deepEqual(unknownDigits.shipping_line, { decision: 'no_prediction', selected: null, candidates: [] });
  assert.equal(infer('XY12345ABC').number_type, 'bill_of_lading');
});

test('input that is no tracking number is unusable, with the reason', () => {
  assert.deepEqual(inferNumber(catalogue, 'hello'), { unusable: true, reason: 'it has no digits' });
  assert.ok(isUnusable(inferNumber(catalogue, '12')));
});
