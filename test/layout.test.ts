// The tree's seams, read from the import statements: the domain and sea routing are pure, and the
// sandbox (a separate program that svc reaches over HTTP) shares only pure code with svc.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** The files a file imports by relative path (static or dynamic), as paths from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)].map((m) => path.join(path.dirname(file), m[1]));
}

const within = (file: string, places: readonly string[]) => places.some((p) => file === p || file.startsWith(p + path.sep));

/** Every import from `dir`'s files, and on through the files they import, to a file `within` one of `places`. */
function reachingInto(dir: string, places: readonly string[]): { from: string; to: string }[] {
  const seen = new Set<string>();
  const queue = sources(dir);
  const found: { from: string; to: string }[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const target of importsOf(file)) {
      if (within(target, places)) found.push({ from: file, to: target });
      else if (target.endsWith('.ts')) queue.push(target);
    }
  }
  return found;
}

const outside = (dir: string) => sources(dir).flatMap((from) => importsOf(from).filter((to) => !within(to, [dir])).map((to) => ({ from, to })));

test('src/domain imports nothing outside src/domain', () => {
  assert.deepEqual(outside('src/domain'), []);
});

test('src/geo imports nothing outside src/geo', () => {
  assert.deepEqual(outside('src/geo'), []);
});

test('the sandbox reaches none of svc services, store, HTTP, webhooks, roles or DCSA client, even indirectly', () => {
  const svcOnly = ['src/services', 'src/store', 'src/http', 'src/jsonapi', 'src/webhooks', 'src/main', 'src/metrics', 'src/config', 'src/carriers/dcsa', 'src/refdata/seed.ts'];
  assert.deepEqual(reachingInto('src/sandbox', svcOnly), []);
});
