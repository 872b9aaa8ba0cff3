// Keeps the embedded PostgreSQL running under svc: when it dies on its own (killed, crashed), it
// is started again a few times with growing pauses; if it will not come back, svc gives up loudly
// rather than run on without a database.
import type { SupervisedServer } from './embedded.ts';

export interface SupervisorOptions {
  log: (msg: string) => void;
  /** Called once when every restart failed; the process should exit non-zero. */
  giveUp: (msg: string) => void;
  /** Pause before each restart attempt (their count bounds the attempts). */
  pausesMs?: number[];
}

const PAUSES_MS = [250, 500, 1000, 2000, 4000, 8000];

export function superviseEmbedded(server: SupervisedServer, { log, giveUp, pausesMs = PAUSES_MS }: SupervisorOptions): void {
  let restarting = false;
  server.onUnexpectedExit((how) => {
    if (restarting) return;
    restarting = true;
    log(`embedded PostgreSQL stopped unexpectedly (${how}); restarting it`);
    void (async () => {
      let last: unknown;
      for (const [i, pause] of pausesMs.entries()) {
        await new Promise((resolve) => setTimeout(resolve, pause));
        try {
          await server.restart();
          log(`embedded PostgreSQL restarted (attempt ${i + 1})`);
          restarting = false;
          return;
        } catch (err) {
          last = err;
        }
      }
      const reason = String(last instanceof Error ? last.message : last).split('\n')[0];
      giveUp(`embedded PostgreSQL stopped and could not be restarted after ${pausesMs.length} attempts: ${reason}`);
    })();
  });
}
