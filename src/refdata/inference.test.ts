import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inferenceCatalogue, parseShapeNote, parseUncertain, readInferenceCatalogue } from './inference.ts';

test('the uncertain column names the doubted fields', () => {
  assert.deepEqual(parseUncertain(''), { scac: false, blPrefixes: false });
  assert.deepEqual(parseUncertain('scac (sources disagree: TXZJ vs TSTU)'), { scac: true, blPrefixes: false });
  assert.deepEqual(parseUncertain('bl_prefixes (PABV per T49CSV only)'), { scac: false, blPrefixes: true });
  assert.deepEqual(parseUncertain('scac (12PD from NXT only); bl_prefixes unknown; CWFU affiliation'), { scac: true, blPrefixes: true });
  assert.deepEqual(parseUncertain('all fields'), { scac: true, blPrefixes: true });
  assert.deepEqual(parseUncertain('legacy prefixes'), { scac: false, blPrefixes: false });
});

test('number shapes come from the carriers’ notes', () => {
  const msc = parseShapeNote('MSC', 'MSC B/L numbers commonly MEDU + 7 alphanumerics')!;
  assert.equal(msc.prefix, 'MEDU');
  assert.equal(msc.where, 'after_prefix');
  assert.ok(msc.pattern.test('AB12345') && !msc.pattern.test('AB123456'));
  const maersk = parseShapeNote('MAERSK', 'Maersk B/L numbers are usually 9 digits; MAEU is added in US AMS filings.')!;
  assert.equal(maersk.where, 'both');
  assert.ok(maersk.pattern.test('123456789') && !maersk.pattern.test('12345678A'));
  assert.equal(parseShapeNote('X', 'Brand folded into Maersk (2023)'), null);
});

test('the catalogue holds every prefix of the data files, brands folded into their main line', () => {
  const catalogue = readInferenceCatalogue();
  assert.equal(catalogue.owners.size, 406);
  assert.equal([...catalogue.owners.values()].filter((o) => o.lessor).length, 180);
  const operator = (prefix: string) => catalogue.lineOf(catalogue.owners.get(prefix)!.operatorKey)?.scac;
  for (const p of ['APLU', 'ANNU', 'CNCU', 'NOLU']) assert.equal(operator(p), 'CMDU', p);
  for (const p of ['SEAU', 'SUDU', 'MSKU', 'MAEU']) assert.equal(operator(p), 'MAEU', p);
  assert.equal(operator('MCPU'), 'SEAU', 'registered to Sealand itself');
  assert.equal(operator('OOLU'), 'OOLU', 'a line of the COSCO group with its own boxes stays itself');
  assert.equal(operator('KKFU'), 'ONEY');
  // Three shapes documented in the notes: MSC (after MEDU), Maersk and Evergreen.
  assert.deepEqual(
    catalogue.bareShapes.filter((s) => s.source === 'carriers.csv').map((s) => s.id),
    ['MAERSK:9d', 'EVERGREEN:12d'],
  );
  assert.deepEqual(catalogue.prefixes.get('MEDU')!.shapes.map((s) => s.id), ['MSC:MEDU7an']);
  assert.equal(catalogue.prefixes.get('MSCU')!.shapes.length, 0, 'the MSC shape is written after MEDU');
  // Lines without SCAC (Zhonggu, Boluda) are never candidates.
  assert.deepEqual(catalogue.owners.get('ZGHU')!.valid.candidates, []);
});

test('the process shares one catalogue', () => {
  assert.equal(inferenceCatalogue(), inferenceCatalogue());
});
