// A document worker in a process of its own whose extraction stops the process as a file that
// takes all its memory would: SIGKILL, mid-job. Run with the database URL and the clock's time
// (ISO) as arguments; it claims the due jobs at that time and dies in the first extraction.
import { ManualClock } from '../../src/clock.ts';
import { DocumentWorker } from '../../src/services/documents-worker.ts';
import { createPool } from '../../src/store/db.ts';

const [url, now] = process.argv.slice(2);
const db = createPool(url, 2);
const worker = new DocumentWorker({
  db,
  clock: new ManualClock(now),
  extract: async () => {
    process.kill(process.pid, 'SIGKILL');
    return new Promise(() => {});
  },
});
const taken = await worker.runDue();
// Nothing was due: said on stdout, and the process ends on its own.
process.stdout.write(`took ${taken}\n`);
await db.end();
