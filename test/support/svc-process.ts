// svc as real child processes, for tests that need the whole program: `svc serve` started and found
// ready by its banner, stopped with Ctrl-C or killed as a crash would; other commands spawned or run
// to their end.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freshDatabase, type TestDatabase } from './database.ts';

const bin = path.resolve(import.meta.dirname, '../../bin/svc.js');
/** Quiet logs and free ports unless a test says otherwise. */
const DEFAULTS = { PORT: '0', SVC_SANDBOX_PORT: '0', SVC_SANDBOX_AIS_PORT: '0', SVC_LOG_LEVEL: 'warn' };

export interface SvcProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The REST base URL the banner printed (…/v2). */
  base: string;
  /** Its origin, for paths outside /v2 (/healthz). */
  origin: string;
  /** The sandbox carrier network's URL, when the banner names one. */
  sandboxUrl: string | undefined;
  exited: Promise<number | null>;
}

/** Starts `svc serve` (with `options`) and resolves once it prints its banner (stderr; stdout carries log lines). */
export function startServe(env: Record<string, string>, options: string[] = []): Promise<SvcProcess> {
  const child = spawnSvc(['serve', ...options], env);
  const output = { out: '', err: '' };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const read = (stream: 'out' | 'err') => (d: Buffer) => {
      output[stream] += d;
      const banner = /REST API: (\S+)[^]*?\n\n/.exec(output.err);
      if (!banner) return;
      const sandboxUrl = /sandbox at ([^;\s]+)/.exec(banner[0])?.[1];
      resolve({ child, stdout: () => output.out, stderr: () => output.err, base: banner[1], origin: new URL(banner[1]).origin, sandboxUrl, exited });
    };
    child.stdout!.on('data', read('out'));
    child.stderr!.on('data', read('err'));
    void exited.then((code) => reject(new Error(`svc exited with ${code} before it was ready:\n${output.err}`)));
  });
}

/** Ctrl-C; resolves with the exit code, after echoing svc's stderr when it is not 0. */
export async function stopServe(svc: SvcProcess): Promise<number | null> {
  svc.child.kill('SIGINT');
  const code = await svc.exited;
  if (code !== 0) process.stderr.write(`svc exited with ${code}; its stderr:\n${svc.stderr()}\n`);
  return code;
}

/** kill -9: no shutdown code runs. */
export async function crashServe(svc: SvcProcess): Promise<void> {
  svc.child.kill('SIGKILL');
  await svc.exited;
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts an svc command and leaves it running. */
export function spawnSvc(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...DEFAULTS, ...env } });
}

/** Runs an svc command to its end. */
export function runSvc(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, ...DEFAULTS, ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs an svc command to its end in exactly `env`, without blocking: the test's own servers (a
 * carrier on loopback) answer it meanwhile. A non-zero exit is an answer here, not an error.
 */
export async function runSvcAsync(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * A fresh database for a test file's `svc serve` processes, and a data folder of their own (one svc
 * serve per data folder: apart from other files' and `npm start`'s); dropping it removes both.
 */
export async function serveDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-serve-'));
  process.env.SVC_DATA_DIR = dataDir;
  const database = await freshDatabase();
  return {
    ...database,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

export interface McpProcess {
  child: ChildProcess;
  stderr(): string;
  /** The MCP endpoint its banner printed (…/mcp). */
  url: string;
  exited: Promise<number | null>;
}

/** Starts `svc mcp` (streamable HTTP, SVC_MCP_PORT 0 unless given) and resolves once it prints where it listens. */
export function startMcp(env: Record<string, string>): Promise<McpProcess> {
  const child = spawnSvc(['mcp'], { SVC_MCP_PORT: '0', ...env });
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d;
      const url = /MCP server on (\S+\/mcp)/.exec(err)?.[1];
      if (url) resolve({ child, stderr: () => err, url, exited });
    });
    void exited.then((code) => reject(new Error(`svc mcp exited with ${code} before it was ready:\n${err}`)));
  });
}
