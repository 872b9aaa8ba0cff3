// The Node.js versions package.json promises are ones every installed package supports, so
// `npm install` warns of no engine mismatch (EBADENGINE) on any of them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import Fastify from 'fastify';
import semver from 'semver';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));

test('every package in package-lock.json supports every Node.js version of package.json engines', () => {
  const promised: string = read('package.json').engines.node;
  const lock: { packages: Record<string, { engines?: { node?: string } }> } = read('package-lock.json');
  const narrower = Object.entries(lock.packages)
    .filter(([, p]) => p.engines?.node && !semver.subset(promised, p.engines.node))
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
