// Memory after start-up. Starting allocates far more than it keeps: compiling several hundred
// modules, reading the reference data, building the sandbox world. Left to itself V8 grows its
// young generation to 32 MB for that burst and promotes much of the short-lived garbage to the old
// generation, and an idle server allocates too little to trigger the collections that would give it
// back: svc serve would hold 180-200 MB for minutes instead of about 125 MB.
//
// So bin/svc.js keeps the young generation at its initial size while svc starts (V8 flags set at
// run time, as no command line can be relied on: npm start, npx svc, node bin/svc.js), and once a
// long-running command is up, settle() runs one full collection and lets the young generation grow
// again as load needs.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** V8's default: each growth of the young generation doubles it, up to 16 MB a semi-space. */
const YOUNG_GENERATION_GROWTH = 2;

/** Collects start-up's garbage (a few dozen milliseconds, once) and restores V8's growth of the young generation. */
export function settle(): void {
  // `gc` is only exposed with --expose-gc; setting the flag now exposes it to new contexts.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as Gc;
  // Node 22 and later: the collection V8 runs when memory is short, which also compacts and shrinks
  // the young generation. Node 20's V8 ignores the request, so a plain full one follows.
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  gc();
  setFlagsFromString(`--semi-space-growth-factor=${YOUNG_GENERATION_GROWTH}`);
}
