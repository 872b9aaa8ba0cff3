#!/usr/bin/env node
// Entry point for `npx svc` and `npm start`: runs the compiled program (bin/build.js), compiling the
// TypeScript sources first when they changed since the last build, so a fresh clone needs no build
// step and a start transpiles nothing. Under node's test runner (npm test sets NODE_TEST_CONTEXT in
// every test process, and the svc processes tests start inherit it) svc runs the sources through
// tsx instead: tests exercise the code as it is being edited, and parallel tests never compile.
import module from 'node:module';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { compiledEntry, DIST_DIR } from './build.js';

// The young generation stays at its initial size until svc is up (src/main/start-up-memory.ts):
// start-up's burst of allocations would otherwise grow it to 32 MB for good on Node 20. How large
// it may grow under load is read only as node starts, so it cannot be set here: npm start gives
// node --max-semi-space-size=32 (twice V8's default), which keeps the tracking worker's objects of
// lookups in flight young until they die rather than promoting them for a full collection to find.
setFlagsFromString('--semi-space-growth-factor=1');

const say = (msg) => process.stderr.write(`svc: ${msg}\n`);
let entry;
try {
  entry = process.env.NODE_TEST_CONTEXT ? undefined : await compiledEntry(say);
} catch (err) {
  say(err.message); // esbuild's own report of what it could not compile
  process.exit(1);
}
if (entry) {
  // Node 22.1 and later keep V8's compiled code of each module on disk: later starts skip compiling.
  module.enableCompileCache?.(path.join(DIST_DIR, '.compile-cache'));
  await import(entry);
} else {
  if (!process.env.NODE_TEST_CONTEXT) say('esbuild is not installed, so the sources run through tsx');
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main/cli.ts');
}
