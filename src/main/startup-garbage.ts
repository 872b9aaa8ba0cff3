// One full garbage collection once svc serve is up. Start-up allocates far more than it keeps:
// compiling several hundred modules, reading the reference data, building the sandbox world. V8
// promotes much of that short-lived garbage to the old generation, and an idle server allocates
// too little to trigger the collection that would free it, so the process would hold some 50 MB
// of garbage for minutes (idle RSS 180-200 MB instead of 130-150 MB). A full collection frees it
// and V8 returns the pages to the system.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** Collects garbage now: a few dozen milliseconds, once. */
export function collectStartupGarbage(): void {
  // `gc` is only exposed with --expose-gc; setting the flag now exposes it to new contexts.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as Gc;
  // Node 22 and later: the collection V8 runs when memory is short, which also shrinks the young
  // generation start-up grew to 32 MB. Node 20's V8 ignores the request, so a plain full one follows.
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  gc();
}
