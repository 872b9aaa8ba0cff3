// The client commands (svc track, watch, list, show) as real child processes against a test svc:
// run to their end, or started and read while they run (svc watch).
import type { ChildProcess } from 'node:child_process';
import { spawnSvc } from './svc-process.ts';

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningClient {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches `pattern`; rejects when the command exits first or `timeoutMs` passes. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<ClientRun>;
}

/** The environment that points a client command at `baseUrl` with `token` (an empty token: none). */
export const clientEnv = (baseUrl: string, token: string, extra: Record<string, string> = {}) => ({ SVC_API_BASE_URL: baseUrl, SVC_API_TOKEN: token, ...extra });

export function startClient(args: string[], env: Record<string, string>): RunningClient {
  const child = spawnSvc(args, env);
  const output = { out: '', err: '' };
  const waiters = new Set<() => void>();
  const read = (stream: 'out' | 'err') => (d: Buffer) => {
    output[stream] += d;
    for (const check of waiters) check();
  };
  child.stdout!.on('data', read('out'));
  child.stderr!.on('data', read('err'));
  const exited = new Promise<ClientRun>((resolve) => child.on('close', (code) => resolve({ code, stdout: output.out, stderr: output.err })));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const check of waiters) check();
  });
  return {
    child,
    stdout: () => output.out,
    stderr: () => output.err,
    exited,
    waitFor: (pattern, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`timed out waiting for ${pattern}; stdout:\n${output.out}\nstderr:\n${output.err}`)), timeoutMs);
        const finish = (err?: Error) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (err) reject(err);
          else resolve();
        };
        const check = () => {
          if (pattern.test(output.out)) finish();
          else if (done) finish(new Error(`exited before ${pattern}; stdout:\n${output.out}\nstderr:\n${output.err}`));
        };
        waiters.add(check);
        check();
      }),
  };
}

export const runClient = (args: string[], env: Record<string, string>): Promise<ClientRun> => startClient(args, env).exited;
