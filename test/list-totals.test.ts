// A list's total is exact up to COUNT_AHEAD records past the start of the page; beyond that it is
// that bound, flagged meta.total_is_lower_bound, with next links that still lead on to the end,
// and every answer is the one the served OpenAPI document describes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SvcClient } from '../sdk/src/index.ts';
import { COUNT_AHEAD } from '../src/store/account-rows.ts';
import { openApiChecker, type OpenApiChecker } from './support/openapi.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
let checker: OpenApiChecker;
const PARTIES = COUNT_AHEAD + 30;

forFile(async () => {
  t = await startTestApp();
  checker = await openApiChecker(t);
  await t.db.query(
    "INSERT INTO parties (account_id, company_name, created_at, updated_at) SELECT $1, 'Party ' || k, now(), now() FROM generate_series(1, $2::int) k",
    [t.accountId, PARTIES],
  );
  return t;
}, () => {});

const page = async (number: number) => (await checker.call('GET', `/v2/parties?page[number]=${number}&page[size]=25`, '/v2/parties')).body;

test('past the bound, the total is the bound and says so; next leads on', async () => {
  const first = await page(1);
  assert.equal(first.data.length, 25);
  assert.deepEqual(first.meta, { size: 25, total: COUNT_AHEAD, total_is_lower_bound: true, pagination: { current: 1, next: 2, last: COUNT_AHEAD / 25, records: COUNT_AHEAD } });
  assert.ok(first.links.next);
});

test('a page whose bound reaches the end counts exactly', async () => {
  const deep = await page(COUNT_AHEAD / 25);
  assert.equal(deep.meta.total, PARTIES);
  assert.equal(deep.meta.total_is_lower_bound, undefined);
  const last = Math.ceil(PARTIES / 25);
  assert.equal(deep.meta.pagination.last, last);
  const end = await page(last);
  assert.equal(end.data.length, PARTIES % 25);
  assert.equal(end.links.next, undefined);
});

test('an account with fewer records than the bound gets its exact total, without the flag', async () => {
  const other = await t.newAccount('Few parties');
  await t.db.query("INSERT INTO parties (account_id, company_name, created_at, updated_at) SELECT $1, 'P' || k, now(), now() FROM generate_series(1, 3) k", [other.accountId]);
  const res = await checker.call('GET', '/v2/parties', '/v2/parties', { key: other.key });
  assert.deepEqual(res.body.meta, { size: 3, total: 3, pagination: { current: 1, last: 1, records: 3 } });
});

test('the SDK tells a bounded total from an exact one', async () => {
  const client = new SvcClient({ baseUrl: t.baseUrl, token: t.key });
  const bounded = await client.parties.list();
  assert.deepEqual([bounded.total, bounded.totalIsLowerBound], [COUNT_AHEAD, true]);
  const other = await t.newAccount('Two parties');
  await t.db.query("INSERT INTO parties (account_id, company_name, created_at, updated_at) SELECT $1, 'P' || k, now(), now() FROM generate_series(1, 2) k", [other.accountId]);
  const exact = await new SvcClient({ baseUrl: t.baseUrl, token: other.key }).parties.list();
  assert.deepEqual([exact.total, exact.totalIsLowerBound], [2, false]);
});
