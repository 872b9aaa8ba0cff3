// `npm test`: type check, then every test file under node's test runner against a real PostgreSQL.
// With DATABASE_URL set (CI runs a server on 127.0.0.1:5432) that server is used; otherwise an
// embedded PostgreSQL is started in .test-pg/, so the same command passes on a bare laptop.
import { spawnSync, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/store/embedded.ts';

const root = path.resolve(import.meta.dirname, '..');

function findTests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return findTests(full);
    return name.endsWith('.test.ts') ? [path.relative(root, full)] : [];
  });
}

const only = process.argv.slice(2);
if (only.length === 0) {
  process.stdout.write('type check (tsc --noEmit)\n');
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', root], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}

let stopEmbedded = async () => {};
let url = process.env.SVC_TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!url) {
  const embedded = await startEmbeddedPostgres(path.join(root, '.test-pg'), 54339, (m) => process.stdout.write(`${m}\n`));
  url = embedded.url;
  stopEmbedded = embedded.stop;
}

const files = only.length > 0 ? only : [...findTests(path.join(root, 'src')), ...findTests(path.join(root, 'test'))];
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=120000', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SVC_TEST_DATABASE_URL: url, SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL ?? 'silent' },
});
const code: number = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
await stopEmbedded();
process.exit(code);
