// The Node.js versions package.json promises are ones every installed package supports, so
// `npm install` warns of no engine mismatch (EBADENGINE) on any of them. The exception: packages
// that only the MCP tools run on Node >= 22.19 need (support/node22.ts NODE22_TOOLS), which never
// load in Node 20.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import Fastify from 'fastify';
import semver from 'semver';
import { NODE22_TOOLS } from './support/node22.ts';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));

type Locked = Record<string, { engines?: { node?: string }; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string> }>;

/** The lock paths of `roots` and of everything they need, found as node finds them (nearest node_modules first). */
function closure(packages: Locked, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (at: string) => {
    if (seen.has(at)) return;
    seen.add(at);
    const p = packages[at];
    for (const name of Object.keys({ ...p.dependencies, ...p.optionalDependencies, ...p.peerDependencies })) {
      for (let dir = at; ; dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
        const found = `${dir ? `${dir}/` : ''}node_modules/${name}`;
        if (found in packages) {
          visit(found);
          break;
        }
        if (!dir) break;
      }
    }
  };
  for (const root of roots) visit(`node_modules/${root}`);
  return seen;
}

test('every package in package-lock.json supports every Node.js version of package.json engines', () => {
  const promised: string = read('package.json').engines.node;
  const lock: { packages: Locked } = read('package-lock.json');
  const { dependencies, devDependencies } = lock.packages[''] as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const others = closure(lock.packages, Object.keys({ ...dependencies, ...devDependencies }).filter((name) => !NODE22_TOOLS.includes(name)));
  const toolsOnly = [...closure(lock.packages, NODE22_TOOLS)].filter((at) => !others.has(at));
  assert.ok(toolsOnly.includes('node_modules/@modelcontextprotocol/inspector'), 'the Node 22 tools are in package-lock.json');
  const narrower = Object.entries(lock.packages)
    .filter(([at, p]) => p.engines?.node && !semver.subset(promised, p.engines.node) && !toolsOnly.includes(at))
    .map(([name, p]) => `${name.replace(/^.*node_modules\//, '')} wants node ${p.engines!.node}`);
  assert.deepEqual(narrower, [], `package.json promises node ${promised}`);
});

test('fastify’s inject (light-my-request, on the cookie version pinned in overrides) still sends cookies', async () => {
  const app = Fastify();
  app.get('/', async (req) => ({ cookie: req.headers.cookie }));
  const res = await app.inject({ method: 'GET', url: '/', cookies: { session: 'a b' } });
  assert.deepEqual(res.json(), { cookie: 'session=a%20b' });
  await app.close();
});
