// Per-account features as an operator switches them with `svc accounts features` (a real svc
// process on the test database): everything is on by default; routing switched off makes the
// vessel position endpoints answer the reference service's 403, for that account only.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { FeatureNotEnabledError, SvcClient } from '../sdk/src/index.ts';
import { FeatureNotEnabled } from '../src/domain/errors.ts';
import { requireFeature, setFeature } from '../src/services/features.ts';
import { findAccount } from '../src/store/accounts.ts';
import { findPort } from '../src/store/reference.ts';
import type { TestApp } from './support/app.ts';
import { checkedAppForFile, type OpenApiChecker } from './support/openapi.ts';

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '../bin/svc.js');

let t: TestApp;
let checker: OpenApiChecker;
checkedAppForFile((app, check) => {
  t = app;
  checker = check;
});

const svc = (...args: string[]) => run(process.execPath, [bin, ...args], { env: { ...process.env, DATABASE_URL: t.database.url } });
const FORBIDDEN = { status: '403', title: 'Forbidden', detail: 'Routing data feature is not enabled for this account' };
/** The error objects without the request id every error carries in its meta. */
const withoutRequestId = (body: any) => body.errors.map(({ meta: { request_id: _id, ...meta }, ...e }: any) => (Object.keys(meta).length ? { ...e, meta } : e));

async function routingPaths() {
  const [rotterdam, hamburg] = [(await findPort(t.db, 'NLRTM'))!.id, (await findPort(t.db, 'DEHAM'))!.id];
  return [
    ['/v2/vessels/9811000?show_positions=true', '/v2/vessels/{id}'],
    ['/v2/vessels/9811000?show_positions[from_timestamp]=not-a-time', '/v2/vessels/{id}'],
    [`/v2/vessels/9811000/future_positions?port_id=${rotterdam}&previous_port_id=${hamburg}`, '/v2/vessels/{id}/future_positions'],
    ['/v2/vessels/9811000/future_positions', '/v2/vessels/{id}/future_positions'],
    [`/v2/vessels/9811000/future_positions_with_coordinates?port_id=${rotterdam}&previous_port_id=${hamburg}&latitude=53&longitude=4`, '/v2/vessels/{id}/future_positions_with_coordinates'],
    // A container's map and route: refused before the container is even looked up.
    [`/v2/containers/${randomUUID()}/map_geojson`, '/v2/containers/{id}/map_geojson'],
    [`/v2/containers/${randomUUID()}/route?include=port,vessel,route_location`, '/v2/containers/{id}/route'],
  ];
}

test('every account has every feature until the operator says otherwise; GET /v2/account shows them', async () => {
  const res = await checker.call('GET', '/v2/account', '/v2/account');
  assert.deepEqual(res.body.data.attributes.features, { routing: true, document_tracking: true });
  const listed = await svc('accounts', 'features', t.accountId);
  assert.match(listed.stdout, /^feature\s+enabled/);
  assert.match(listed.stdout, /\nrouting\s+yes\s/);
});

test('svc accounts features --disable routing: the routing endpoints answer 403 with the reference body; --enable undoes it', async () => {
  const other = await t.newAccount('Account B');
  const disabled = await svc('accounts', 'features', t.accountId, '--disable', 'routing');
  assert.match(disabled.stdout, /\nrouting\s+no\s/);
  assert.equal((await checker.call('GET', '/v2/account', '/v2/account')).body.data.attributes.features.routing, false);

  for (const [url, template] of await routingPaths()) {
    const res = await checker.call('GET', url, template);
    assert.equal(res.status, 403, url);
    assert.match(res.headers.get('content-type') ?? '', /^application\/vnd\.api\+json/);
    // Even a request that is wrong otherwise: without the feature, nothing else is looked at.
    assert.deepEqual(withoutRequestId(res.body), [FORBIDDEN], url);
    // The other account is not affected.
    assert.notEqual((await t.request('GET', url, { key: other.key })).status, 403, url);
  }
  // The SDK tells this 403 from others.
  const client = new SvcClient({ baseUrl: t.baseUrl, token: t.key });
  await assert.rejects(client.vessels.get('9811000', { show_positions: true }), FeatureNotEnabledError);

  // The vessel itself stays readable, without its position.
  const plain = await checker.call('GET', '/v2/vessels/9811000', '/v2/vessels/{id}');
  assert.equal(plain.status, 200);
  assert.equal(plain.body.data.attributes.latitude, null);

  // Twice is the same as once.
  await svc('accounts', 'features', t.accountId, '--disable', 'routing');
  assert.deepEqual((await findAccount(t.db, t.accountId))!.disabled_features, ['routing']);

  const enabled = await svc('accounts', 'features', t.accountId, '--enable', 'routing');
  assert.match(enabled.stdout, /\nrouting\s+yes\s/);
  assert.equal((await t.request('GET', '/v2/vessels/9811000?show_positions=true')).status, 200);
  assert.deepEqual((await findAccount(t.db, t.accountId))!.disabled_features, []);
});

test('svc accounts features refuses unknown features, ids and accounts, and the options elsewhere', async () => {
  const unknownId = '00000000-0000-4000-8000-000000000000';
  await assert.rejects(svc('accounts', 'features', t.accountId, '--disable', 'teleport'), (err: any) => err.code === 2 && /unknown feature: teleport \(features: routing, document_tracking\)/.test(err.stderr));
  await assert.rejects(svc('accounts', 'features', t.accountId, '--disable', 'routing', '--enable', 'routing'), (err: any) => err.code === 2 && /both --enable and --disable/.test(err.stderr));
  await assert.rejects(svc('accounts', 'features'), (err: any) => err.code === 2 && /needs an account id/.test(err.stderr));
  await assert.rejects(svc('accounts', 'features', 'acme'), (err: any) => err.code === 1 && /acme is not an account id/.test(err.stderr));
  await assert.rejects(svc('accounts', 'features', unknownId, '--disable', 'routing'), (err: any) => err.code === 1 && new RegExp(`no account ${unknownId}`).test(err.stderr));
  await assert.rejects(svc('accounts', 'list', '--disable', 'routing'), (err: any) => err.code === 2 && /options of svc accounts features/.test(err.stderr));
  assert.match((await svc('help')).stdout, /accounts features <account-id> \[--enable <feature>\] \[--disable <feature>\]/);
});

test('requireFeature is the check other routes call: FeatureNotEnabled names the feature', async () => {
  assert.doesNotThrow(() => requireFeature({ disabledFeatures: [] }, 'routing'));
  assert.throws(
    () => requireFeature({ disabledFeatures: ['routing'] }, 'routing'),
    (err: unknown) => err instanceof FeatureNotEnabled && err.feature === 'routing' && err.detail === FORBIDDEN.detail,
  );
  // The store answers none for an account that is not there.
  assert.equal(await setFeature(t.db, '00000000-0000-4000-8000-000000000000', 'routing', false), undefined);
});
