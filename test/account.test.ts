// GET /v2/account: the account of the key that calls, as a client checks a key (the MCP server
// does for each caller). Any live key answers with its own account; anything else is a 401.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LIMITS } from '../src/http/rate-limit.ts';
import { findAccount, listApiKeys, revokeApiKey } from '../src/store/accounts.ts';
import { createApiKey } from '../src/services/api-keys.ts';
import type { TestApp } from './support/app.ts';
import { checkedAppForFile, type OpenApiChecker } from './support/openapi.ts';

let t: TestApp;
let checker: OpenApiChecker;
checkedAppForFile((app, check) => {
  t = app;
  checker = check;
});

const account = (key?: string | null, headers?: Record<string, string>) => checker.call('GET', '/v2/account', '/v2/account', { key, headers });

test("the key's account: id, name, created_at and its self link, as documented", async () => {
  const res = await account();
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/vnd\.api\+json/);
  const stored = await findAccount(t.db, t.accountId);
  assert.deepEqual(res.body, {
    data: { id: t.accountId, type: 'account', attributes: { name: 'Account A', created_at: stored!.created_at.toISOString(), features: { document_tracking: true, routing: true } }, links: { self: '/v2/account' } },
  });
  // Bearer works as anywhere else.
  assert.equal((await account(null, { authorization: `Bearer ${t.key}` })).body.data.id, t.accountId);
});

test('another account sees its own, whichever of its keys calls', async () => {
  const other = await t.newAccount('Account B');
  const second = await createApiKey(t.db, other.accountId, 'second');
  for (const key of [other.key, second.key]) {
    const res = await account(key);
    assert.equal(res.body.data.id, other.accountId);
    assert.equal(res.body.data.attributes.name, 'Account B');
  }
  assert.notEqual(other.accountId, t.accountId);
});

test('401 without a key, with a malformed, unknown or revoked one', async () => {
  const revoked = await t.newAccount('Revoked');
  const [key] = await listApiKeys(t.db, revoked.accountId);
  await revokeApiKey(t.db, key.id, t.clock.now());
  const refusals = [await account(null), await account(null, { authorization: 'Basic abc' }), await account('svc_not_a_key_of_anyone'), await account(revoked.key)];
  for (const res of refusals) {
    assert.equal(res.status, 401, res.text);
    assert.equal(res.body.errors[0].code, 'unauthorized');
    assert.equal(res.body.data, undefined);
  }
});

test('it counts in the default rate-limit bucket like any request', async () => {
  const { key } = await t.newAccount('Busy');
  const limit = LIMITS.default.limit;
  for (let i = 0; i < limit - 1; i++) assert.equal((await t.request('GET', '/v2/parties', { key })).status, 200);
  assert.equal((await account(key)).status, 200, 'the last request of the minute');
  const over = await account(key);
  assert.equal(over.status, 429);
  assert.ok(Number(over.headers.get('retry-after')) >= 1);
  assert.equal((await t.request('GET', '/v2/parties', { key })).status, 429, 'and it used the budget other requests share');
});
