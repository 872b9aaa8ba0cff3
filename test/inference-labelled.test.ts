// Carrier inference scored on the labelled set built from the data files
// (scripts/inference-labelled-set.ts → test/fixtures/inference-labelled.csv): auto_select answers
// must name the right line at least 99% of the time. The figures are printed as diagnostics.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { evaluate, formatFigures } from '../src/domain/inference/evaluation.ts';
import { inferNumber } from '../src/domain/inference/infer.ts';
import { inferenceCatalogue } from '../src/refdata/inference.ts';
import { FIXTURE, fromCsv, labelledSetCsv } from '../scripts/inference-labelled-set.ts';

const fixture = readFileSync(FIXTURE, 'utf8');

test('the committed labelled set is what the script builds from the data files now', () => {
  assert.ok(fixture === labelledSetCsv(), 'test/fixtures/inference-labelled.csv is stale: run node --import tsx scripts/inference-labelled-set.ts');
});

test('auto_select is right at least 99% of the time on the labelled set', (t) => {
  const rows = fromCsv(fixture);
  const catalogue = inferenceCatalogue();
  const figures = evaluate(rows, (input) => inferNumber(catalogue, input));
  for (const line of formatFigures(figures)) t.diagnostic(line);

  assert.ok(rows.length > 3000);
  assert.ok(figures.autoPrecision >= 0.99, `auto_select precision ${figures.autoPrecision}`);
  const by = new Map(figures.categories.map((c) => [c.category, c]));
  // Where no line can be named, nothing is ever selected.
  for (const category of ['container_lessor', 'container_unknown_owner', 'container_line_without_scac', 'container_other_equipment', 'garbage']) {
    const c = by.get(category)!;
    assert.equal(c.abstained, c.total, `${category}: ${JSON.stringify(c)}`);
  }
  // A line's own valid boxes and documented B/L prefixes are auto-selected.
  assert.equal(by.get('container_own')!.autoRight, by.get('container_own')!.total);
  assert.equal(by.get('container_brand')!.autoRight, by.get('container_brand')!.total);
  // Bare numbers are never auto-selected: their shapes are shared.
  for (const category of ['bare_documented_shape', 'bare_svc_convention', 'bare_other_lines']) {
    const c = by.get(category)!;
    assert.equal(c.autoRight + c.autoWrong, 0, category);
  }
  // The top candidates above the auto_select threshold are as right as they claim.
  for (const bin of figures.reliability.filter((b) => b.from >= 0.95 && b.count > 0)) assert.ok(bin.accuracy >= bin.from, JSON.stringify(bin));
});
