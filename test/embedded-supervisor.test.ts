// The supervisor's bounds: a server that will not come back ends in one give-up, not endless tries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SupervisedServer } from '../src/store/embedded.ts';
import { superviseEmbedded } from '../src/store/embedded-supervisor.ts';

function server(results: boolean[]) {
  let exit: (how: string) => void = () => {};
  const s: SupervisedServer & { attempts: number; die(): void } = {
    attempts: 0,
    onUnexpectedExit: (listener) => void (exit = listener),
    restart: async () => {
      if (!results[s.attempts++]) throw new Error('embedded PostgreSQL failed to start on port 1: \nFATAL: lock file exists');
    },
    die: () => exit('killed by SIGKILL'),
  };
  return s;
}

test('restarts a dead server, and gives up once after the bounded attempts', async () => {
  const logs: string[] = [];
  const ok = server([false, true]);
  const back = new Promise<void>((resolve) =>
    superviseEmbedded(ok, { log: (m) => (logs.push(m), m.includes('restarted') && resolve()), giveUp: assert.fail, pausesMs: [0, 0, 0] }),
  );
  ok.die();
  ok.die(); // a second report while restarting is the same outage
  await back;
  assert.equal(ok.attempts, 2);
  assert.deepEqual(logs, ['embedded PostgreSQL stopped unexpectedly (killed by SIGKILL); restarting it', 'embedded PostgreSQL restarted (attempt 2)']);

  const dead = server([]);
  const gaveUp = new Promise<string>((resolve) => superviseEmbedded(dead, { log: () => {}, giveUp: resolve, pausesMs: [0, 0, 0] }));
  dead.die();
  assert.equal(await gaveUp, 'embedded PostgreSQL stopped and could not be restarted after 3 attempts: embedded PostgreSQL failed to start on port 1: ');
  assert.equal(dead.attempts, 3);
});
