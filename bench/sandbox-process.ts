// The sandbox carrier network in a process of its own, on a manual clock the parent moves: a
// benchmark that compares svc with a bare client measures the client side only, not the
// sandbox sharing its event loop. Started by startSandboxProcess; talks over the IPC channel.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../src/clock.ts';
import { askerOf } from './ipc.ts';

type Ask = { id: number; advance?: number; cpu?: true };
type Answer = { id: number; url?: string; cpuMs?: number };

export interface SandboxProcess {
  url: string;
  /** Moves the sandbox's clock; resolves once it has moved. */
  advance(ms: number): Promise<void>;
  /** The sandbox process's CPU time so far, user + system, in ms. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

export async function startSandboxProcess(start: Date): Promise<SandboxProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [start.toISOString()], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const ask = askerOf<Omit<Ask, 'id'>, Answer>(child);
  const [ready] = (await once(child, 'message')) as [Answer];
  return {
    url: ready.url!,
    advance: async (ms) => void (await ask({ advance: ms })),
    cpuMs: async () => (await ask({ cpu: true })).cpuMs!,
    async close() {
      child.kill();
      await once(child, 'exit');
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  const { buildSandboxServer } = await import('../src/sandbox/index.ts');
  const clock = new ManualClock(process.argv[2]);
  const sandbox = await buildSandboxServer({ clock });
  const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  process.send({ id: 0, url } satisfies Answer);
  process.on('message', (q: Ask) => {
    if (q.advance) clock.advance(q.advance);
    const { user, system } = process.cpuUsage();
    process.send!({ id: q.id, cpuMs: (user + system) / 1000 } satisfies Answer);
  });
  process.on('disconnect', () => process.exit(0));
}
