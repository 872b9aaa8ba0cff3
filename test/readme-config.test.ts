// The README's configuration table says what `svc config` prints from the code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { describeConfig } from '../src/config/index.ts';

const readme = readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');

/** The rows of the table under "## Configuration": variable → [default, meaning], as written. */
function configurationTable(): Map<string, [string, string]> {
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const rows = new Map<string, [string, string]>();
  for (const line of section.split('\n')) {
    // Cells are split on | but not on the escaped \| inside a cell.
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    const name = /^`([A-Z_]+)`$/.exec(cells[0] ?? '')?.[1];
    if (name) rows.set(name, [cells[1], cells[2]]);
  }
  return rows;
}

const plain = (cell: string) => cell.replaceAll('`', '').replaceAll('\\|', '|');

test('every variable of `svc config` has a README row with its default and at least its meaning', () => {
  const rows = configurationTable();
  const variables = describeConfig();
  assert.deepEqual([...rows.keys()], variables.map((v) => v.name), 'the same variables, in the same order');
  for (const v of variables) {
    const [defaultCell, meaning] = rows.get(v.name)!;
    const unset = v.default === undefined || (Array.isArray(v.default) && v.default.length === 0);
    if (unset) assert.match(defaultCell, /^\(.+\)$/, `${v.name}: no default, so a word in parentheses`);
    else assert.equal(defaultCell, `\`${String(v.default)}\``, `${v.name}: default`);
    assert.ok(plain(meaning).includes(v.description), `${v.name}: the README says\n  ${plain(meaning)}\nwhich does not contain what svc config says:\n  ${v.description}`);
  }
});
