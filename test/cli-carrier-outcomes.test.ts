// How requests to each carrier have been going, as `svc carriers list` shows it: recorded on the
// one path every DCSA request takes (a tracking lookup's, `svc carriers check`'s), read back from
// PostgreSQL, never with a secret; and the list still prints when the database is not there.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../src/clock.ts';
import { CarrierOutcomeRecorder } from '../src/carriers/outcome-recorder.ts';
import { PROTOCOLS } from '../src/carriers/protocols.ts';
import { ConnectorRegistry } from '../src/carriers/registry.ts';
import { carrierOutcomes } from '../src/store/carrier-request-outcomes.ts';
import { API_KEY, CLIENT_ID, CLIENT_SECRET, startCarrierGateway, type CarrierGateway } from './support/carrier-gateway.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { freePort, runSvcAsync } from './support/svc-process.ts';

const WRONG_SECRET = 'wrong-secret-77c1-outcomes';
const SECRETS = [API_KEY, CLIENT_ID, CLIENT_SECRET, WRONG_SECRET];

let gateway: CarrierGateway;
let database: TestDatabase;
let env: NodeJS.ProcessEnv;
before(async () => {
  [gateway, database] = await Promise.all([startCarrierGateway(), freshDatabase()]);
  const api = `${gateway.origin}/api`;
  env = {
    ...process.env,
    SVC_SANDBOX: 'false',
    DATABASE_URL: database.url,
    SVC_CARRIERS: JSON.stringify([
      { scac: 'GOOD', baseUrl: api, apiKey: API_KEY, apiKeyHeader: 'X-API-Key' },
      { scac: 'BADO', baseUrl: api, clientId: CLIENT_ID, clientSecret: WRONG_SECRET, tokenUrl: `${gateway.origin}/oauth/token` },
    ]),
  };
});
after(() => Promise.all([gateway.close(), database.drop()]));

const svc = runSvcAsync;

const outputs: string[] = [];
/** Runs svc with the test's environment and keeps what it printed, for the secrets check at the end. */
async function svcKept(...args: string[]) {
  const result = await svc(env, ...args);
  outputs.push(result.stdout, result.stderr);
  return result;
}

interface ListedCarrier {
  scac: string;
  state: string;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastFailureReason: string | null;
  failingSince: string | null;
  heldUntil: string | null;
}

async function listed(scac: string): Promise<ListedCarrier> {
  const result = await svcKept('carriers', 'list', '--json');
  assert.equal(result.code, 0, result.stderr);
  const doc = JSON.parse(result.stdout) as { carriers: ListedCarrier[]; outcomes: { available: boolean } };
  assert.deepEqual(doc.outcomes, { available: true });
  return doc.carriers.find((c) => c.scac === scac)!;
}

const between = (at: string | null, from: number, to: number) => at !== null && Date.parse(at) >= from - 1000 && Date.parse(at) <= to + 1000;

test('a carrier answering 200, then 401, then 429 with Retry-After: last success, last failure and the hold, never a secret', async () => {
  const fresh = await listed('GOOD');
  assert.deepEqual([fresh.lastSuccessAt, fresh.lastFailureAt, fresh.heldUntil, fresh.state], [null, null, null, 'configured']);

  gateway.unknownReference = 'empty';
  const t0 = Date.now();
  assert.equal((await svcKept('carriers', 'check', 'GOOD')).code, 0);
  const t1 = Date.now();
  const ok = await listed('GOOD');
  assert.ok(between(ok.lastSuccessAt, t0, t1), `last success ${ok.lastSuccessAt}`);
  assert.equal(ok.lastFailureAt, null);
  assert.equal(ok.state, 'configured');

  // The refusal echoes the key it was sent: what is recorded is the status in words, not the body.
  gateway.queue.push((reply) => reply.code(401).send({ errors: [{ reason: `unknown key ${API_KEY}` }] }));
  const t2 = Date.now();
  assert.equal((await svcKept('carriers', 'check', 'GOOD')).code, 1);
  const t3 = Date.now();
  const refused = await listed('GOOD');
  assert.equal(refused.lastSuccessAt, ok.lastSuccessAt);
  assert.ok(between(refused.lastFailureAt, t2, t3), `last failure ${refused.lastFailureAt}`);
  assert.equal(refused.lastFailureReason, 'unauthorized (HTTP 401)');
  assert.equal(refused.failingSince, refused.lastFailureAt);
  assert.equal(refused.state, `configured · failing since ${refused.failingSince}`);
  assert.equal(refused.heldUntil, null);

  gateway.queue.push((reply) => reply.code(429).header('Retry-After', '120').send({ errors: [{ reason: 'slow down' }] }));
  const t4 = Date.now();
  assert.equal((await svcKept('carriers', 'check', 'GOOD')).code, 1);
  const t5 = Date.now();
  const limited = await listed('GOOD');
  assert.equal(limited.lastSuccessAt, ok.lastSuccessAt);
  assert.ok(between(limited.lastFailureAt, t4, t5), `last failure ${limited.lastFailureAt}`);
  assert.equal(limited.lastFailureReason, 'rate limited (HTTP 429 with Retry-After)');
  assert.ok(between(limited.heldUntil, t4 + 120_000, t5 + 120_000), `held until ${limited.heldUntil}`);
  assert.equal(limited.failingSince, refused.failingSince, 'still failing since the 401');
  assert.equal(limited.state, `configured · rate limited until ${limited.heldUntil}`);

  // The table has the same, in two more columns.
  const shown = await svcKept('carriers', 'list');
  assert.match(shown.stdout, /^scac +name +endpoint +version +auth +credentials +state +catalogue +last success +last failure$/m);
  const row = shown.stdout.split('\n').find((l) => l.startsWith('GOOD '))!;
  assert.ok(row.includes(`configured · rate limited until ${limited.heldUntil}`), row);
  assert.ok(row.endsWith(`${ok.lastSuccessAt}  ${limited.lastFailureAt} rate limited (HTTP 429 with Retry-After)`), row);
  gateway.unknownReference = 'not_found';
});

test('a token endpoint refusing the credentials is recorded as unauthorized, without the credentials', async () => {
  assert.equal((await svcKept('carriers', 'check', 'BADO')).code, 1);
  const refused = await listed('BADO');
  assert.equal(refused.lastFailureReason, 'unauthorized: the token endpoint refused the credentials (HTTP 401)');
  assert.equal(refused.lastSuccessAt, null);
  const stored = await database.db.query(`SELECT row_to_json(o)::text AS row FROM carrier_request_outcomes o`);
  const everything = [...outputs, ...stored.rows.map((r: { row: string }) => r.row)].join('\n');
  for (const secret of SECRETS) assert.ok(!everything.includes(secret), `${secret} was printed or stored`);
});

test('a tracking lookup records its requests through the connector: an answer read, then a server error', async () => {
  const recorder = new CarrierOutcomeRecorder(database.db, (err) => assert.fail(String(err)));
  const registry = new ConnectorRegistry([{ scac: 'LOOK', baseUrl: `${gateway.origin}/api`, apiKey: API_KEY, apiKeyHeader: 'X-API-Key' }], new ManualClock(), PROTOCOLS, recorder);
  const connector = registry.get('LOOK')!;
  gateway.unknownReference = 'empty';
  await connector.lookup({ scac: 'LOOK', numberType: 'container', number: 'MSCU1234566' });
  gateway.queue.push((reply) => reply.code(503).send('down for maintenance'));
  const outcome = await connector.lookup({ scac: 'LOOK', numberType: 'container', number: 'MSCU1234566', since: new Date() });
  gateway.unknownReference = 'not_found';
  assert.equal(outcome.kind === 'failed' && outcome.reason, 'shipping_line_unreachable');
  await recorder.settled();
  const row = (await carrierOutcomes(database.db)).find((r) => r.scac === 'LOOK')!;
  assert.ok(row.lastSuccessAt && row.lastFailureAt && row.lastSuccessAt <= row.lastFailureAt, JSON.stringify(row));
  assert.equal(row.lastFailureReason, 'carrier server error (HTTP 503)');
  assert.equal(row.heldUntil, null);
});

test('without a reachable database the list still prints and says the outcomes are unavailable', async () => {
  const away = { ...env, DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/svc` };
  const table = await svc(away, 'carriers', 'list');
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^GOOD +- +http:\/\/127\.0\.0\.1:\d+\/api\/v2\/events +2\.2 +API key \(X-API-Key\) +set +configured +not listed$/m);
  assert.match(table.stdout, /^request outcomes unavailable: the database is not reachable$/m);
  const json = await svc(away, 'carriers', 'list', '--json');
  assert.equal(json.code, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as { carriers: { scac: string; lastSuccessAt?: unknown }[]; outcomes: unknown };
  assert.deepEqual(doc.outcomes, { available: false, reason: 'request outcomes unavailable: the database is not reachable' });
  assert.ok(doc.carriers.some((c) => c.scac === 'GOOD' && !('lastSuccessAt' in c)));
  assert.equal((await svc(away, 'accounts', 'list', '--json')).code, 2, '--json belongs to carriers list');
});
