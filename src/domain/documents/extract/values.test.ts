import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findContainerNumbers } from './containers.ts';
import { layoutOf, valuesAfter } from './layout.ts';
import { isLabelCell, LABELS } from './labels.ts';
import { buildPortIndex, resolvePort, type PortRecord } from './ports.ts';
import { amountValue, countValue, dateValue, numberValue, vesselValue, vesselVoyageValue, voyageValue, weightValue } from './values.ts';

test('numbers: a prefix standing apart joins its digits; words, lower case and short values end or refuse it', () => {
  assert.equal(numberValue('MAEU 123456789'), 'MAEU123456789');
  assert.equal(numberValue('EGLV-0849-0004-2045 dated'), 'EGLV084900042045');
  assert.equal(numberValue('867 749 333 738 has been confirmed'), '867749333738');
  assert.equal(numberValue('MAEU123456789 SEAL 12'), 'MAEU123456789');
  assert.equal(numberValue('THREE (3)'), null);
  assert.equal(numberValue('Date: 14/03/2026'), null);
  assert.equal(numberValue('12345'), null);
});

test('dates: ISO, day first with slashes or dots, month names either side', () => {
  for (const written of ['2026-03-14', '14/03/2026', '14.03.2026', '14-Mar-2026', '14 MAR 2026', 'March 14, 2026', '14 March 2026', 'on 14 March 2026.']) {
    assert.equal(dateValue(written), '2026-03-14', written);
  }
  assert.equal(dateValue('31/02/2026'), null);
  assert.equal(dateValue('see below'), null);
});

test('vessels and voyages, apart and combined', () => {
  assert.equal(vesselValue('MAERSK ESSEN, voyage 412W'), 'MAERSK ESSEN');
  assert.equal(vesselValue('CMA CGM JACQUES SAADE V.025E'), 'CMA CGM JACQUES SAADE');
  assert.equal(voyageValue('V.412W'), '412W');
  assert.equal(voyageValue('EXPRESS'), null);
  assert.deepEqual(vesselVoyageValue('MAERSK ESSEN / 412W'), { vessel: 'MAERSK ESSEN', voyage: '412W' });
  assert.deepEqual(vesselVoyageValue('MSC AURORA  NX611R'), { vessel: 'MSC AURORA', voyage: 'NX611R' });
});

test('amounts need a currency; weights kilograms; counts a leading integer', () => {
  assert.deepEqual(amountValue('USD 12,345.67'), { currency: 'USD', amount: 12345.67 });
  assert.deepEqual(amountValue('1,200.00 EUR'), { currency: 'EUR', amount: 1200 });
  assert.equal(amountValue('Packages: 1,200'), null);
  assert.equal(amountValue('12,345 KGS'), null);
  assert.equal(weightValue('17,459.00 KGM'), 17459);
  assert.equal(weightValue('38,000 LBS'), null);
  assert.equal(countValue('1,946 PALLETS'), 1946);
});

test('container numbers: written with blanks, dashes or a bracketed check digit; a wrong check digit is never one', () => {
  const text = 'MSKU 123456-5, MSKU1234565 again, MSKU123456(5)... TGHU 812004 1; typo MSKU 123456 4; ABCD1234567';
  assert.deepEqual(findContainerNumbers(text), ['MSKU1234565', 'TGHU8120041']);
  // OCR's O for 0 in the digits, forgiven only when the check digit then passes.
  assert.deepEqual(findContainerNumbers('TGHU 812OO4 1', true), ['TGHU8120041']);
  assert.deepEqual(findContainerNumbers('TGHU 812OO4 1'), []);
});

test('a label\'s value: same cell, next cell, the cell below, a table column', () => {
  const layout = layoutOf(['B/L No.: MAEU123456789', 'Booking No.\tVessel', '2012345678\tMAERSK ESSEN', 'Port of Loading\tRotterdam'].join('\n'));
  assert.deepEqual(valuesAfter(layout, LABELS.bill_of_lading, isLabelCell), ['MAEU123456789']);
  assert.deepEqual(valuesAfter(layout, LABELS.booking, isLabelCell), ['2012345678']);
  assert.deepEqual(valuesAfter(layout, LABELS.vessel, isLabelCell), ['MAERSK ESSEN']);
  assert.deepEqual(valuesAfter(layout, LABELS.port_of_lading, isLabelCell), ['Rotterdam']);
});

test('ports: code, code in brackets, name with or without country, English name, the carriers\' old code first', () => {
  const port = (locode: string, name: string, extra: Partial<PortRecord> = {}): PortRecord => ({
    locode, name, altNames: [], countryCode: locode.slice(0, 2), isSeaport: true, harborSize: null, aliasOf: null, ...extra,
  });
  const index = buildPortIndex(
    [port('NLRTM', 'Rotterdam', { harborSize: 'Large' }), port('USRTM', 'Rotterdam', { isSeaport: false }), port('BEANR', 'Antwerpen'), port('CNSGH', 'Shanghai'), port('CNSHA', 'Shanghai', { aliasOf: 'CNSGH' }), port('MXZLO', 'Manzanillo', { harborSize: 'Medium' }), port('PAMIT', 'Manzanillo')],
    [['NL', 'Netherlands'], ['US', 'United States'], ['PA', 'Panama'], ['CN', 'China']],
  );
  const locode = (raw: string) => resolvePort(index, raw)?.locode ?? null;
  assert.equal(locode('NLRTM'), 'NLRTM');
  assert.equal(locode('Rotterdam (NLRTM) on 14 March'), 'NLRTM');
  assert.equal(locode('ROTTERDAM'), 'NLRTM');
  assert.equal(locode('Port of Rotterdam'), 'NLRTM');
  assert.equal(locode('Rotterdam, United States'), 'USRTM');
  assert.equal(locode('Antwerp, Belgium'), 'BEANR');
  assert.equal(locode('Shanghai, China'), 'CNSHA');
  assert.equal(locode('Manzanillo, Panama'), 'PAMIT');
  assert.equal(locode('Houston (USHOU) for discharge at Hamburg (NLRTM)'), null);
  assert.equal(locode('Atlantis'), null);
});
