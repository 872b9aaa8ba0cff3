// The production start: bin/svc.js outside the test runner compiles the sources (bin/build.js) and
// runs the compiled JavaScript, with no TypeScript loader in the process. Each svc below is started
// with a module hook that refuses to load tsx, so a start that still needed it would fail; the same
// hook stops the start from sources, which shows it bites.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { compiledEntry } from '../bin/build.js';
import type { TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';
import { runSvc, serveDatabase, startServe, stopServe } from './support/svc-process.ts';

const hooks = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/[\\\\/]node_modules[\\\\/]tsx[\\\\/]/.test(resolved.url)) throw new Error('tsx was loaded: ' + resolved.url);
  return resolved;
}`;
const guard = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
const NO_TSX = { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(guard)}` };
/** Out of the test runner's sight: bin/svc.js runs the sources under it (NODE_TEST_CONTEXT). */
const PRODUCTION = { ...NO_TSX, NODE_TEST_CONTEXT: '' };

let database: TestDatabase;
forFile(serveDatabase, (d) => (database = d), (d) => d.drop());

// Compiling takes a while on a busy machine: done once here, so svc itself finds the build ready.
test('the build of the sources holds the compiled entry, migrations, web assets and reference data', { timeout: 300_000 }, () => {
  const entry = compiledEntry();
  assert.ok(entry, 'TypeScript is installed (a dev dependency)');
  const build = fileURLToPath(new URL('../../', entry));
  for (const file of ['src/main/cli.js', 'src/main/serve.js', 'src/store/migrations/001_accounts.sql', 'src/web/assets/app.css', 'refdata/ports.csv', 'sdk/src/index.js']) {
    assert.ok(existsSync(build + file), `${file} in ${build}`);
  }
  assert.equal(compiledEntry(), entry, 'the same sources give the same build, found again without compiling');
});

test('the hook that refuses tsx stops svc started from its sources', () => {
  const r = runSvc(['config'], NO_TSX);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /tsx was loaded/);
});

test('compiled svc serve answers /healthz and the REST API without tsx', { timeout: 300_000 }, async () => {
  const svc = await startServe({ ...PRODUCTION, DATABASE_URL: database.url });
  try {
    assert.doesNotMatch(svc.stderr(), /compiling svc/, 'the build was ready');
    assert.equal((await fetch(`${svc.origin}/healthz`)).status, 200);
    const key = /API key \(shown once, keep it\): (\S+)/.exec(svc.stderr())?.[1];
    assert.ok(key, svc.stderr());
    const lines = await fetch(`${svc.base}/shipping_lines/MAEU`, { headers: { authorization: `Token ${key}` } });
    assert.equal(lines.status, 200);
    assert.equal(((await lines.json()) as { data: { attributes: { scac: string } } }).data.attributes.scac, 'MAEU');
  } finally {
    assert.equal(await stopServe(svc), 0);
  }
});

test('compiled client and administration commands run without tsx', () => {
  const r = runSvc(['accounts', 'list'], { ...PRODUCTION, DATABASE_URL: database.url });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^id +name +default/);
});
