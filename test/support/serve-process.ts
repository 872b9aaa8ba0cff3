// `svc serve` (and other commands) as real processes, found ready by polling /healthz rather than
// by reading the banner, for tests about the process's life rather than its output.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const bin = path.resolve(import.meta.dirname, '../../bin/svc.js');

export interface SvcProcess {
  child: ChildProcess;
  base: string;
  stderr(): string;
  exited: Promise<number | null>;
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

/** Spawns `svc serve` on a free port; resolves once /healthz answers 200. */
export async function startServe(env: Record<string, string>): Promise<SvcProcess> {
  const port = await freePort();
  const child = spawnSvc(['serve'], { HOST: '127.0.0.1', PORT: String(port), SVC_SANDBOX_PORT: '0', ...env });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (gone) throw new Error(`svc serve exited before it was ready:\n${err}`);
    const status = await fetch(`${base}/healthz`).then((r) => r.status, () => 0);
    if (status === 200) return { child, base, stderr: () => err, exited };
    await delay(50);
  }
}

/** Ctrl-C; resolves with the exit code. */
export async function stopServe(svc: SvcProcess): Promise<number | null> {
  svc.child.kill('SIGINT');
  return svc.exited;
}

/** Starts an svc command and leaves it running. */
export function spawnSvc(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [bin, ...args], { env: { ...process.env, SVC_LOG_LEVEL: 'warn', ...env } });
}

/** Runs an svc command to its end. */
export function runSvc(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, SVC_LOG_LEVEL: 'warn', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
