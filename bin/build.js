// The compiled program: svc's TypeScript emitted as plain JavaScript by tsc (tsconfig.build.json),
// so a start loads JavaScript instead of transpiling every module at run time (tsx costs about
// 0.4 s and 40 MB). Plain JavaScript itself, as it runs before anything can read TypeScript.
//
// Each build goes to dist/<fingerprint>/, a copy of the runtime layout of the repository: src/ and
// sdk/src/ compiled, with every other file under src/ (migrations, web assets) copied beside the
// modules and refdata/ beside src/, so paths found relative to a module (`../../refdata/`,
// `./migrations/`) resolve inside the build exactly as they do in the checkout. npm packages resolve
// from the project's node_modules by node's upward search, and `"type": "module"` comes from the
// project's package.json. The fingerprint covers the name, size and modification time of every
// input, so an edit, a checkout or a pull gives a new folder; a running svc keeps the folder it
// started from, whose modules it may still load on demand, so older builds are kept a while.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
export const DIST_DIR = path.join(root, 'dist');
/** What the program is made of: TypeScript compiled, the rest copied as it is. */
const SOURCE_DIRS = ['src', 'sdk/src'];
const COPIED_DIRS = ['refdata'];
/** Settings and this file: a change to how the output is made is a change to the output. */
const BUILD_FILES = ['tsconfig.json', 'tsconfig.build.json', 'bin/build.js'];
/** Builds kept, newest first: the one started now and those svc processes started earlier may still read. */
const KEEP_BUILDS = 3;
const ENTRY = 'src/main/cli.js';

const isTypeScript = (file) => /\.tsx?$/.test(file);

/** Every file under a folder, relative to the project root. */
function filesUnder(dir) {
  const found = [];
  const walk = (rel) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  walk(dir);
  return found;
}

/** A digest of every input's name, size and modification time: a few milliseconds, no file read. */
export function fingerprint() {
  const files = [...SOURCE_DIRS, ...COPIED_DIRS].flatMap(filesUnder).concat(BUILD_FILES).sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const s = statSync(path.join(root, file));
    hash.update(`${file}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** tsc's command-line script, or undefined when TypeScript is not installed (`npm ci --omit=dev`). */
function tscScript() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

/** Compiles into a private folder, then renames it into place, so a folder in dist/ is always whole. */
function build(target, tsc, say) {
  const started = performance.now();
  say(`compiling svc into ${path.relative(root, target)}/ (once after each change of the sources)`);
  const work = path.join(DIST_DIR, `.building-${process.pid}-${Date.now()}`);
  mkdirSync(work, { recursive: true });
  try {
    const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', work], { cwd: root, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`tsc failed (exit ${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
    for (const file of SOURCE_DIRS.flatMap(filesUnder)) {
      if (!isTypeScript(file)) cpSync(path.join(root, file), path.join(work, file));
    }
    for (const dir of COPIED_DIRS) cpSync(path.join(root, dir), path.join(work, dir), { recursive: true });
    try {
      renameSync(work, target);
    } catch (err) {
      // Another svc started at the same moment and finished the same build first: use that one.
      if (!existsSync(path.join(target, ENTRY))) throw err;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  say(`compiled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Removes all but the most recently used builds, and work folders of builds that died midway. */
function prune(current) {
  const entries = readdirSync(DIST_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({ dir: path.join(DIST_DIR, e.name), name: e.name, mtime: statSync(path.join(DIST_DIR, e.name)).mtimeMs }));
  const hourAgo = Date.now() - 3_600_000;
  const builds = entries.filter((e) => !e.name.startsWith('.') && e.dir !== current).sort((a, b) => b.mtime - a.mtime);
  for (const old of builds.slice(KEEP_BUILDS - 1)) rmSync(old.dir, { recursive: true, force: true });
  for (const work of entries.filter((e) => e.name.startsWith('.building-') && e.mtime < hourAgo)) rmSync(work.dir, { recursive: true, force: true });
}

/**
 * The URL of the compiled entry module for the sources as they are now, compiling them first when
 * no build of them exists; undefined when there is none and TypeScript is not installed to make one.
 */
export function compiledEntry(say = () => {}) {
  const target = path.join(DIST_DIR, fingerprint());
  if (!existsSync(path.join(target, ENTRY))) {
    const tsc = tscScript();
    if (!tsc) return undefined;
    build(target, tsc, say);
    prune(target);
  } else {
    // Marks it recently used, so pruning keeps the builds of the branches being switched between.
    const now = new Date();
    try {
      utimesSync(target, now, now);
    } catch {
      // A read-only installation: nothing is pruned there either.
    }
  }
  return pathToFileURL(path.join(target, ENTRY)).href;
}

// `npm run build`: make the build of the sources as they are (nothing to do when it exists).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const say = (msg) => process.stderr.write(`${msg}\n`);
  const entry = compiledEntry(say);
  if (!entry) {
    say('TypeScript is not installed: npm install (with dev dependencies) first');
    process.exitCode = 1;
  } else {
    say(`compiled svc: ${path.relative(root, path.dirname(path.dirname(path.dirname(new URL(entry).pathname))))}/`);
  }
}
