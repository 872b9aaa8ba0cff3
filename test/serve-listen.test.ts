// `svc serve` when it cannot listen (port taken, no such host): one line that names the variable,
// a non-zero exit, and nothing it started left running; it used to print a stack and hang.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';
import { serveDatabase, spawnSvc } from './support/svc-process.ts';

/** Runs `svc serve` to its exit; fails (and kills it) if it is still running after `limitMs`. */
function serveUntilExit(env: Record<string, string>, limitMs: number): Promise<{ code: number | null; stderr: string }> {
  const child = spawnSvc(['serve'], env);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc serve still running after ${limitMs} ms:\n${stderr}`));
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** A port held open by this process for the duration of the test. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

function assertOneLine(stderr: string, line: string): void {
  assert.ok(stderr.includes(`svc: ${line}\n`), stderr);
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
}

let database: TestDatabase;
forFile(serveDatabase, (s) => (database = s), (s) => s.drop());

test('PORT taken: one line naming PORT, exit 1, no hang', async () => {
  const held = await holdPort();
  try {
    const { code, stderr } = await serveUntilExit({ DATABASE_URL: database.url, PORT: String(held.port), HOST: '127.0.0.1' }, 30_000);
    assert.equal(code, 1);
    assertOneLine(stderr, `cannot listen on 127.0.0.1:${held.port}: address already in use (set PORT)`);
  } finally {
    held.server.close();
  }
});

test('HOST that is no address: one line naming HOST, exit 1', async () => {
  const { code, stderr } = await serveUntilExit({ DATABASE_URL: database.url, HOST: '999.1.1.1', PORT: '8080' }, 30_000);
  assert.equal(code, 1);
  assertOneLine(stderr, 'cannot listen on 999.1.1.1:8080: no such host (set HOST)');
});

test('SVC_SANDBOX_PORT taken: one line naming it, exit 1', async () => {
  const held = await holdPort();
  try {
    const { code, stderr } = await serveUntilExit({ DATABASE_URL: database.url, SVC_SANDBOX_PORT: String(held.port) }, 30_000);
    assert.equal(code, 1);
    assertOneLine(stderr, `cannot listen on 127.0.0.1:${held.port}: address already in use (set SVC_SANDBOX_PORT)`);
  } finally {
    held.server.close();
  }
});

test('with the embedded PostgreSQL: the server it started is stopped before svc exits', async () => {
  const held = await holdPort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-data-'));
  const pgPort = await holdPort();
  pgPort.server.close();
  try {
    const env = { DATABASE_URL: '', SVC_DATA_DIR: dataDir, SVC_EMBEDDED_PG_PORT: String(pgPort.port), PORT: String(held.port), HOST: '127.0.0.1' };
    const { code, stderr } = await serveUntilExit(env, 90_000);
    assert.equal(code, 1);
    assertOneLine(stderr, `cannot listen on 127.0.0.1:${held.port}: address already in use (set PORT)`);
    assert.ok(!existsSync(path.join(dataDir, 'pg', 'postmaster.pid')), 'PostgreSQL was stopped');
  } finally {
    held.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
