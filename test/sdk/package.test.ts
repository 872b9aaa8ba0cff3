// sdk/ as the package users install: compiled by its own tsconfig (what `npm run build` and
// `npm pack` do), laid out as node_modules/@svc/sdk, imported by name through its exports with
// plain node, no tsx, and calling a real svc.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../support/app.ts';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

let app: TestApp;
let dir: string;
before(async () => {
  app = await startTestApp();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-sdk-package-'));
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await app.close();
});

test('the compiled package imports with plain node and lists the shipping lines of a real svc', async () => {
  const pkgDir = path.join(dir, 'node_modules/@svc/sdk');
  mkdirSync(pkgDir, { recursive: true });
  await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'sdk/tsconfig.json'), '--outDir', path.join(pkgDir, 'dist')]);
  cpSync(path.join(root, 'sdk/package.json'), path.join(pkgDir, 'package.json'));
  symlinkSync(path.join(root, 'node_modules/openapi-fetch'), path.join(dir, 'node_modules/openapi-fetch'));

  const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  assert.ok(pkg.files.includes('dist'), 'dist/ is in the published files');
  assert.match(pkg.scripts.prepare ?? pkg.scripts.prepack, /npm run build/, 'packing builds dist/ first');
  for (const file of [pkg.exports['.'].types, pkg.exports['.'].import]) assert.ok(existsSync(path.join(pkgDir, file)), `${file} is built`);
  assert.doesNotMatch(readFileSync(path.join(pkgDir, 'dist/client.js'), 'utf8'), /from '\.\/[a-z]+\.ts'/, 'relative imports point at .js files');

  writeFileSync(
    path.join(dir, 'main.mjs'),
    `import { SvcClient, NotFoundError } from '@svc/sdk';
const svc = new SvcClient({ baseUrl: process.env.SVC_URL, token: process.env.SVC_KEY });
const lines = await svc.shippingLines.list();
const missing = await svc.ports.get('ZZZZZ').catch((e) => e);
console.log(JSON.stringify({ count: lines.length, scacs: lines.map((l) => l.scac), missing: missing instanceof NotFoundError }));
`,
  );
  const { stdout } = await run(process.execPath, ['main.mjs'], { cwd: dir, env: { PATH: process.env.PATH, SVC_URL: app.baseUrl, SVC_KEY: app.key } });
  const result = JSON.parse(stdout);
  const served = (await app.request('GET', '/v2/shipping_lines')).body.data.map((l: { attributes: { scac: string } }) => l.attributes.scac);
  assert.ok(result.count > 10, `${result.count} lines`);
  assert.deepEqual(result.scacs, served);
  assert.equal(result.missing, true, 'the error classes come through the package too');
});
