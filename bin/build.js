// The compiled program: svc's TypeScript bundled into plain JavaScript by esbuild, so a start
// loads a few files of JavaScript instead of transpiling every module at run time (tsx costs about
// 0.4 s and 40 MB) or resolving and reading several hundred small modules one by one (about 0.4 s
// of CPU on Node 20). esbuild is what tsx runs the sources through, so the program is made the way
// the tests run it. Plain JavaScript itself, as it runs before anything can read TypeScript.
//
// Each build goes to dist/<fingerprint>/, a copy of the runtime layout of the repository: the
// program in src/main/ (the entry, cli.js, and the chunks it shares with the modules it imports
// lazily, which stay lazy: each `await import()` is a chunk loaded on first use), every other file
// under src/ (migrations, web assets) copied where it lies in the checkout and refdata/ beside src/.
// A module's own location (`import.meta.url`, `import.meta.dirname`) is rewritten to where the
// module would lie in that layout, so paths found relative to a module (`../../refdata/`,
// `./migrations/`) resolve inside the build exactly as they do in the checkout. npm packages stay
// outside the bundle and resolve from the project's node_modules by node's upward search (native
// modules, files read beside a package's own code), and `"type": "module"` comes from the
// project's package.json. The fingerprint covers the name, size and modification time of every
// input, so an edit, a checkout or a pull gives a new folder; a running svc keeps the folder it
// started from, whose chunks it may still load on demand, so older builds are kept a while.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
export const DIST_DIR = path.join(root, 'dist');
/** What the program is made of: TypeScript bundled, the rest copied as it is. */
const SOURCE_DIRS = ['src', 'sdk/src'];
const COPIED_DIRS = ['refdata'];
/** Settings and this file: a change to how the output is made is a change to the output. */
const BUILD_FILES = ['tsconfig.json', 'bin/build.js'];
/** Builds kept, newest first: the one started now and those svc processes started earlier may still read. */
const KEEP_BUILDS = 3;
const ENTRY = 'src/main/cli.js';
/**
 * Modules that run in a thread or process of their own (worker_threads, child_process.fork), each
 * an entry beside the program's in PROGRAM_DIR under the name given here, where the module
 * starting it looks for it; lying beside the program's, the modules bundled into it have the
 * program's locations too.
 */
const SIDE_ENTRIES = {
  'ais-decoding-thread': 'src/ais/decoding-thread-entry.ts',
  'extraction-child': 'src/documents/extraction-child.ts',
};
/** Where the entry and its chunks lie in a build. */
const PROGRAM_DIR = path.dirname(ENTRY);

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
  const hash = createHash('sha256').update(`esbuild ${esbuildVersion()}\n`);
  for (const file of files) {
    const s = statSync(path.join(root, file));
    hash.update(`${file}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

const require = createRequire(import.meta.url);

/** The installed esbuild's version (part of the fingerprint), or none when it is not installed. */
function esbuildVersion() {
  try {
    return JSON.parse(readFileSync(require.resolve('esbuild/package.json'), 'utf8')).version;
  } catch {
    return 'none';
  }
}

/** esbuild's API, or undefined when it is not installed. */
async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch {
    return undefined;
  }
}

/**
 * Rewrites `import.meta.url` and `import.meta.dirname` in each of svc's modules to the location
 * the module would have in the build's layout (src/refdata/parse.ts: <build>/src/refdata/parse.js),
 * worked out from the location of the bundle file it ends up in, which always lies in PROGRAM_DIR.
 */
const moduleLocations = (work) => ({
  name: 'module-locations',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      if (text.includes('import.meta.')) {
        const asBuilt = path.join(work, path.relative(root, args.path)).replace(/\.tsx?$/, '.js');
        const relative = path.relative(path.join(work, PROGRAM_DIR), asBuilt).split(path.sep).join('/');
        text = text
          .replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`)
          .replaceAll('import.meta.dirname', `__svcPath.join(import.meta.dirname, ${JSON.stringify(path.posix.dirname(relative))})`);
        if (text.includes('__svcPath')) text = `import __svcPath from 'node:path';\n${text}`;
      }
      return { contents: text, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
});

/** Bundles into a private folder, then renames it into place, so a folder in dist/ is always whole. */
async function build(target, esbuild, say) {
  const started = performance.now();
  say(`compiling svc into ${path.relative(root, target)}/ (once after each change of the sources)`);
  const work = path.join(DIST_DIR, `.building-${process.pid}-${Date.now()}`);
  mkdirSync(work, { recursive: true });
  try {
    const result = await esbuild
      .build({
        entryPoints: {
          cli: path.join(root, 'src/main/cli.ts'),
          ...Object.fromEntries(Object.entries(SIDE_ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
        },
        outdir: path.join(work, PROGRAM_DIR),
        entryNames: '[name]',
        chunkNames: 'chunk-[hash]',
        bundle: true,
        // Lazy imports stay lazy: each is a chunk of its own, loaded when first imported.
        splitting: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        packages: 'external',
        tsconfig: path.join(root, 'tsconfig.json'),
        // As tsx runs the sources in tests: class and function names survive (error types in logs).
        keepNames: true,
        // Stack traces name chunk lines; node --enable-source-maps maps them back to src/.
        sourcemap: 'linked',
        sourcesContent: false,
        legalComments: 'none',
        logLevel: 'silent',
        plugins: [moduleLocations(work)],
      })
      .catch((err) => {
        throw new Error(`esbuild failed:\n${(err.errors ?? []).map((e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`).join('\n') || err.message}`);
      });
    for (const w of result.warnings) say(`esbuild: ${w.location ? `${w.location.file}:${w.location.line}: ` : ''}${w.text}`);
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
 * no build of them exists; undefined when there is none and esbuild is not installed to make one.
 */
export async function compiledEntry(say = () => {}) {
  const target = path.join(DIST_DIR, fingerprint());
  if (!existsSync(path.join(target, ENTRY))) {
    const esbuild = await loadEsbuild();
    if (!esbuild) return undefined;
    await build(target, esbuild, say);
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
  const entry = await compiledEntry(say).catch((err) => {
    say(err.message);
    process.exit(1);
  });
  if (!entry) {
    say('esbuild is not installed: npm install first');
    process.exitCode = 1;
  } else {
    say(`compiled svc: ${path.relative(root, path.dirname(path.dirname(path.dirname(new URL(entry).pathname))))}/`);
  }
}
