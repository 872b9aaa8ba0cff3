// The production start: bin/svc.js outside the test runner bundles the sources (bin/build.js) and
// runs the bundled JavaScript, with no TypeScript loader in the process. Each svc below is started
// with a module hook that refuses to load tsx, so a start that still needed it would fail; the same
// hook stops the start from sources, which shows it bites.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { compiledEntry } from '../bin/build.js';
import { vesselTrackOfImo } from '../src/store/vessel-positions.ts';
import { FeedServer, position, voyage } from './support/ais-feed.ts';
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
test('the build of the sources holds the bundled entry, migrations, web assets and reference data', { timeout: 300_000 }, async () => {
  const entry = await compiledEntry();
  assert.ok(entry, 'esbuild is installed');
  const build = fileURLToPath(new URL('../../', entry));
  for (const file of ['src/main/cli.js', 'src/main/extraction-child.js', 'src/store/migrations/001_accounts.sql', 'src/web/assets/app.css', 'refdata/ports.csv']) {
    assert.ok(existsSync(build + file), `${file} in ${build}`);
  }
  // Bundled: svc's modules are in the entry and its chunks, not one file each.
  assert.ok(!existsSync(`${build}src/main/serve.js`), 'src/main/serve.ts is bundled, not emitted on its own');
  assert.equal(await compiledEntry(), entry, 'the same sources give the same build, found again without compiling');
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

test('compiled svc serve decodes an AIS feed in its decoding thread, without tsx', { timeout: 300_000 }, async () => {
  const feed = await FeedServer.start();
  const svc = await startServe({ ...PRODUCTION, DATABASE_URL: database.url, SVC_SANDBOX: 'false', SVC_AIS_FEEDS: `127.0.0.1:${feed.port}` });
  try {
    await feed.send([...voyage(353136000, 9811000, 'EVER GIVEN'), position(353136000, 1.25, 103.8)]);
    // Written within a second of arriving; read until it is there.
    let stored = 0;
    while (stored === 0) stored = (await vesselTrackOfImo(database.db, '9811000', new Date('2000-01-01Z'), new Date('2100-01-01Z'))).length;
    assert.equal(stored, 1);
    assert.doesNotMatch(svc.stderr(), /decoding thread/);
  } finally {
    assert.equal(await stopServe(svc), 0);
    await feed.close();
  }
});

test('compiled svc serve reads an uploaded document in its extraction process, without tsx', { timeout: 300_000 }, async () => {
  const key = 'compiled-start-extraction-0123456789';
  const svc = await startServe({ ...PRODUCTION, DATABASE_URL: database.url, SVC_BOOTSTRAP_API_KEY: key, SVC_WORKER_INTERVAL_MS: '200' });
  try {
    const form = new FormData();
    form.append('file', new Blob(['Container MSKU1234565 arrives Friday.\n'], { type: 'text/plain' }), 'notice.txt');
    const created = await fetch(`${svc.base}/documents`, { method: 'POST', headers: { authorization: `Token ${key}` }, body: form });
    assert.equal(created.status, 201, await created.clone().text());
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    let attributes: { extraction_status: string; classification_notes: string | null } | undefined;
    for (let i = 0; i < 600 && !['extracted', 'failed'].includes(attributes?.extraction_status ?? ''); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const shown = await fetch(`${svc.base}/documents/${id}`, { headers: { authorization: `Token ${key}` } });
      attributes = ((await shown.json()) as { data: { attributes: typeof attributes } }).data.attributes;
    }
    // The extraction process inherits the hook that refuses tsx: it ran the compiled entry.
    assert.equal(attributes?.extraction_status, 'extracted', `${JSON.stringify(attributes)}\n${svc.stderr()}`);
  } finally {
    assert.equal(await stopServe(svc), 0);
  }
});

test('compiled client and administration commands run without tsx', () => {
  const r = runSvc(['accounts', 'list'], { ...PRODUCTION, DATABASE_URL: database.url });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^id +name +default/);
});

test('compiled svc serve loads the MCP SDK, ioredis and the mail and PDF parsers on first use, not at start', { timeout: 300_000 }, async () => {
  // A module hook that writes down every module resolved: what the start loaded, then what a request did.
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-modules-'));
  const list = path.join(dir, 'resolved.txt');
  const record = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(list)}, resolved.url + '\\n');
  return resolved;
}`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(record)}`)});`;
  const key = 'compiled-start-first-use-0123456789';
  const svc = await startServe({ NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(register)}`, NODE_TEST_CONTEXT: '', DATABASE_URL: database.url, SVC_BOOTSTRAP_API_KEY: key });
  const loaded = (name: string) => readFileSync(list, 'utf8').includes(`/node_modules/${name}/`);
  try {
    assert.equal((await fetch(`${svc.origin}/healthz`)).status, 200);
    assert.ok(loaded('fastify'), 'the hook saw the start');
    for (const name of ['@modelcontextprotocol/sdk', 'ioredis', 'postal-mime', 'unpdf']) assert.ok(!loaded(name), `${name} is not loaded at start`);

    const mcp = await fetch(`${svc.origin}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'compiled-start', version: '1' } } }),
    });
    assert.equal(mcp.status, 200, await mcp.clone().text());
    assert.ok(((await mcp.json()) as { result?: { serverInfo?: unknown } }).result?.serverInfo, 'the first MCP request is answered');
    assert.ok(loaded('@modelcontextprotocol/sdk'), 'the MCP SDK was loaded for it');
    const openApi = await fetch(`${svc.base}/openapi.json`);
    assert.equal(openApi.status, 200);
    assert.equal(((await openApi.json()) as { openapi: string }).openapi.slice(0, 3), '3.1');
  } finally {
    assert.equal(await stopServe(svc), 0);
    rmSync(dir, { recursive: true, force: true });
  }
});
