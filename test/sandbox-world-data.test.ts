// The sandbox keeps what its world is built from (ports, terminals, carriers, vessels as parsed from
// refdata/) in a file between starts of svc serve: the kept copy is what a later start reads, and a
// change of the source files, or a copy that cannot be read, makes it afresh.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { readSources } from '../src/refdata/parse.ts';
import { keptSandboxData, type SandboxData } from '../src/sandbox/world.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'svc-sandbox-world-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'sandbox-world.json');
const kept = () => JSON.parse(readFileSync(file, 'utf8')) as { key: string; data: SandboxData };

test('the parsed data is kept, read back by the next load, and made again when the sources change or the copy is torn', async () => {
  const sources = await readSources();
  const made = await keptSandboxData(sources, file);
  assert.ok(made.ports.some((p) => p.locode === 'NLRTM'), 'Rotterdam is a placeable port');
  assert.deepEqual(kept().data, made, 'the file holds what was made');

  // A marker in the kept copy shows the next load reads the file instead of parsing refdata/.
  const { key, data } = kept();
  writeFileSync(file, JSON.stringify({ key, data: { ...data, vessels: [] } }));
  assert.deepEqual((await keptSandboxData(sources, file)).vessels, [], 'the kept copy was read');

  // Another vessels.csv: the key no longer matches, so the data is made from the sources again.
  const changed = { ...sources, 'vessels.csv': Buffer.concat([sources['vessels.csv'], Buffer.from('\n')]) };
  assert.deepEqual((await keptSandboxData(changed, file)).vessels, made.vessels);
  assert.notEqual(kept().key, key, 'the copy was replaced under the new key');

  writeFileSync(file, readFileSync(file, 'utf8').slice(0, 1000)); // torn: a write cut short
  assert.deepEqual((await keptSandboxData(sources, file)).vessels, made.vessels);
  assert.equal(kept().key, key);
});
