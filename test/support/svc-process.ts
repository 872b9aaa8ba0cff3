// `svc serve` as a real child process, for tests that need the whole program: start it, wait for
// its banner, stop it with Ctrl-C or kill it as a crash would.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const bin = path.resolve(import.meta.dirname, '../../bin/svc.js');

export interface RunningSvc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** The REST base URL the banner printed. */
  base: string;
  /** The sandbox carrier network's URL, when the banner names one. */
  sandboxUrl: string | undefined;
}

/** Starts `svc serve` on free ports and resolves once it prints its banner (on stdout or stderr). */
export function startSvc(env: Record<string, string>): Promise<RunningSvc> {
  const child = spawn(process.execPath, [bin, 'serve'], { env: { ...process.env, PORT: '0', SVC_SANDBOX_PORT: '0', SVC_LOG_LEVEL: 'warn', ...env } });
  const output = { out: '', err: '' };
  return new Promise((resolve, reject) => {
    const read = (stream: 'out' | 'err') => (d: Buffer) => {
      output[stream] += d;
      const banner = /REST API: (\S+)[^]*?\n\n/.exec(output.out) ?? /REST API: (\S+)[^]*?\n\n/.exec(output.err);
      if (!banner) return;
      const sandboxUrl = /sandbox at ([^;\s]+)/.exec(banner[0])?.[1];
      resolve({ child, stdout: () => output.out, stderr: () => output.err, base: banner[1], sandboxUrl });
    };
    child.stdout!.on('data', read('out'));
    child.stderr!.on('data', read('err'));
    child.on('exit', (code) => reject(new Error(`svc exited with ${code} before it was ready:\n${output.err}`)));
  });
}

/** Ctrl-C; resolves with the exit code. */
export function stopSvc(r: RunningSvc): Promise<number | null> {
  return new Promise((resolve) => {
    r.child.on('exit', (code) => resolve(code));
    r.child.kill('SIGINT');
  });
}

/** kill -9: no shutdown code runs. */
export function crashSvc(r: RunningSvc): Promise<void> {
  return new Promise((resolve) => {
    r.child.on('exit', () => resolve());
    r.child.kill('SIGKILL');
  });
}
