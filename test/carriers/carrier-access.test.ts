// Reaching real carriers' gateways, on a loopback one: OAuth2 client-credentials tokens (cached,
// renewed before expiry, renewed once on a 401), a 429's Retry-After, a requests-per-second cap,
// subscriptions in the carrier's own DCSA version, and connectors of another protocol beside DCSA's.
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { ManualClock } from '../../src/clock.ts';
import { carrierAuth } from '../../src/carriers/dcsa/auth.ts';
import { DcsaClient } from '../../src/carriers/dcsa/client.ts';
import { RequestGate, retryAfterMs } from '../../src/carriers/dcsa/request-gate.ts';
import { resolveCarrier, type CarrierEndpoint, type Credentials } from '../../src/carriers/endpoints.ts';
import { dcsaConnector, PROTOCOLS } from '../../src/carriers/protocols.ts';
import { ConnectorRegistry } from '../../src/carriers/registry.ts';
import type { CarrierConnector, LookupOutcome } from '../../src/carriers/types.ts';
import { API_KEY, CLIENT_ID, CLIENT_SECRET, startCarrierGateway, type CarrierGateway } from '../support/carrier-gateway.ts';

let gateway: CarrierGateway;
before(async () => {
  gateway = await startCarrierGateway();
});
after(() => gateway.close());
beforeEach(() => {
  gateway.seen.length = 0;
  gateway.queue.length = 0;
  gateway.unknownReference = 'empty';
  gateway.tokenLifetimeS = 3600;
});

const oauth2 = (secret = CLIENT_SECRET): Credentials => ({ kind: 'oauth2', tokenUrl: `${gateway.origin}/oauth/token`, clientIdHeader: 'Consumer-Key', clientId: CLIENT_ID, clientSecret: secret });
const http = { timeoutMs: 5000 };
const query = { equipmentReference: 'MSKU1234565' };
const bearerOf = (s: { headers: Record<string, unknown> }) => String(s.headers.authorization).replace('Bearer ', '');

test('an OAuth2 token is fetched once, shared until shortly before it expires, then fetched again', async () => {
  let now = Date.parse('2026-03-01T00:00:00Z');
  gateway.tokenLifetimeS = 600;
  const client = new DcsaClient({ baseUrl: `${gateway.origin}/api`, version: '2.2', timeoutMs: 5000, auth: carrierAuth(oauth2(), { http, now: () => now }) });
  await Promise.all([client.getEvents(query), client.getEvents(query)]);
  await client.getEvents(query);
  assert.equal(gateway.tokenRequests().length, 1, 'one token for three queries, two of them at once');
  const form = gateway.tokenRequests()[0].body as Record<string, string>;
  assert.deepEqual({ ...form }, { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
  for (const request of gateway.eventRequests()) {
    assert.equal(request.headers.authorization, 'Bearer token-1');
    assert.equal(request.headers['consumer-key'], CLIENT_ID, 'the client id rides along where the catalogue says the gateway wants it');
  }

  now += 530_000; // 8 min 50 s of 10 min: still good
  await client.getEvents(query);
  assert.equal(gateway.tokenRequests().length, 1);
  now += 15_000; // within the last minute: renewed before the carrier would refuse it
  await client.getEvents(query);
  assert.equal(gateway.tokenRequests().length, 2);
  assert.equal(bearerOf(gateway.eventRequests().at(-1)!), gateway.issued.at(-1));
});

test('a token the carrier refuses (401) is renewed and the request sent once more, once', async () => {
  const client = new DcsaClient({ baseUrl: `${gateway.origin}/api`, version: '2.2', timeoutMs: 5000, auth: carrierAuth(oauth2(), { http }) });
  await client.getEvents(query);
  const first = gateway.issued.at(-1)!;
  gateway.revoked.add(first);
  gateway.seen.length = 0;
  assert.deepEqual(await client.getEvents(query), []);
  assert.deepEqual(
    gateway.seen.map((s) => `${s.method} ${s.url.split('?')[0]} ${s.headers.authorization ?? ''}`.trim()),
    [`GET /api/v2/events Bearer ${first}`, 'POST /oauth/token', `GET /api/v2/events Bearer ${gateway.issued.at(-1)}`],
  );

  // A carrier that refuses every token: one renewal, then the lookup ends data_unavailable (final).
  gateway.seen.length = 0;
  gateway.queue.push(
    (reply) => reply.code(401).send({}),
    (reply) => reply.code(401).send({}),
    (reply) => reply.code(401).send({}),
  );
  await assert.rejects(client.getEvents(query), { name: 'DcsaHttpError', status: 401 });
  assert.equal(gateway.eventRequests().length, 2);
  assert.equal(gateway.tokenRequests().length, 1);
});

test('wrong client credentials end the lookup data_unavailable, naming neither secret', async () => {
  const carrier = { ...resolveCarrier({ scac: 'OAUT', baseUrl: `${gateway.origin}/api`, clientId: CLIENT_ID, clientSecret: 'wrong-secret-123', tokenUrl: `${gateway.origin}/oauth/token` }) };
  const outcome = await dcsaConnector(carrier, { clock: new ManualClock() }).lookup({ scac: 'OAUT', numberType: 'container', number: 'MSKU1234565' });
  assert.equal(outcome.kind, 'failed');
  const failed = outcome as Extract<LookupOutcome, { kind: 'failed' }>;
  assert.equal(failed.reason, 'data_unavailable');
  assert.equal(failed.temporary, false);
  assert.match(failed.detail, /token endpoint .*\/oauth\/token: HTTP 401 \(invalid_client\)/);
  assert.ok(!failed.detail.includes('wrong-secret-123') && !failed.detail.includes(CLIENT_ID), failed.detail);
  assert.equal(gateway.eventRequests().length, 0, 'no events query without a token');
});

test("a 429's Retry-After holds every request to the carrier that long, and the lookup still succeeds", async () => {
  const connector = dcsaConnector(resolveCarrier({ scac: 'KEYS', baseUrl: `${gateway.origin}/api`, apiKey: API_KEY, apiKeyHeader: 'X-API-Key' }), { clock: new ManualClock() });
  gateway.queue.push((reply) => reply.code(429).header('Retry-After', '1').send({ errors: [{ reason: 'slow down' }] }));
  const [outcome] = await Promise.all([
    connector.lookup({ scac: 'KEYS', numberType: 'container', number: 'MSKU1234565', since: new Date() }),
    // Another lookup on the same carrier, sent while the first waits out Retry-After.
    new Promise<LookupOutcome>((resolve) => setTimeout(() => resolve(connector.lookup({ scac: 'KEYS', numberType: 'container', number: 'MSKU7654321', since: new Date() })), 200)),
  ]);
  assert.equal(outcome.kind, 'found');
  const [limited, ...later] = gateway.eventRequests();
  assert.equal(later.length, 2);
  for (const request of later) assert.ok(request.at - limited.at >= 950, `sent ${request.at - limited.at} ms after the 429`);
  assert.equal(limited.headers['x-api-key'], API_KEY);

  // A Retry-After longer than a request may wait: a temporary failure, and nothing sent meanwhile.
  gateway.seen.length = 0;
  gateway.queue.push((reply) => reply.code(429).header('Retry-After', '3600').send({}));
  const held = await connector.lookup({ scac: 'KEYS', numberType: 'container', number: 'MSKU1234565' });
  assert.deepEqual([held.kind, (held as { reason?: string }).reason, (held as { temporary?: boolean }).temporary], ['failed', 'shipping_line_unreachable', true]);
  const again = await connector.lookup({ scac: 'KEYS', numberType: 'container', number: 'MSKU1234565' });
  assert.match((again as { detail: string }).detail, /no requests until .*Retry-After/);
  assert.equal(gateway.eventRequests().length, 1, 'the carrier heard nothing after its 429');
});

test('a requests-per-second cap spaces the requests to one carrier', async () => {
  const gate = new RequestGate({ requestsPerSecond: 4, maxWaitMs: 10_000 });
  const client = new DcsaClient({ baseUrl: `${gateway.origin}/api`, version: '2.2', timeoutMs: 5000, apiKey: API_KEY, apiKeyHeader: 'X-API-Key', gate });
  const started = performance.now();
  await Promise.all([1, 2, 3, 4, 5].map(() => client.getEvents(query)));
  // The fifth may not leave before four intervals of 250 ms have passed (a lower bound only: no load makes it shorter).
  const took = performance.now() - started;
  assert.equal(gateway.eventRequests().length, 5);
  assert.ok(took >= 990, `five requests at 4 a second took ${took} ms`);
});

test('Retry-After in seconds or as a date; a backlog the cap cannot let through in time is refused, not queued', async () => {
  const now = Date.parse('2026-03-01T12:00:00.500Z');
  assert.equal(retryAfterMs('120', now), 120_000);
  assert.equal(retryAfterMs('Sun, 01 Mar 2026 12:00:30 GMT', now), 29_500);
  assert.equal(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now), 0, 'a date past is no wait');
  assert.equal(retryAfterMs(null, now), 1000, 'a 429 without Retry-After still earns a pause');

  const gate = new RequestGate({ requestsPerSecond: 1, maxWaitMs: 500 });
  await gate.turn();
  await assert.rejects(gate.turn(), { name: 'RateLimitedError', message: /more requests queued for this carrier than its requestsPerSecond lets through within 0\.5 s/ });
});

test("subscriptions are made in the carrier's own DCSA version", async () => {
  const secret = Buffer.from('0123456789abcdef0123456789abcdef');
  const request = { scac: 'KEYS', numberType: 'bill_of_lading' as const, number: 'HLCUHAM250100001', callbackUrl: 'https://svc.example/carrier-callbacks/1', secret };
  for (const version of ['2.2', '3.0'] as const) {
    const connector = dcsaConnector(resolveCarrier({ scac: 'KEYS', baseUrl: `${gateway.origin}/api`, version, apiKey: API_KEY, apiKeyHeader: 'X-API-Key' }), { clock: new ManualClock() });
    assert.equal(await connector.subscribe!(request), version === '2.2' ? 'sub-v2' : 'sub-v3');
  }
  const [v2, v3] = gateway.seen.filter((s) => s.url.includes('event-subscriptions'));
  assert.equal(v2.url, '/api/v2/event-subscriptions');
  assert.equal(v2.headers['api-version'], '2');
  assert.deepEqual(v2.body, { callbackUrl: request.callbackUrl, secret: secret.toString('base64'), transportDocumentReference: 'HLCUHAM250100001' });
  assert.equal(v3.url, '/api/v3/event-subscriptions');
  assert.equal(v3.headers['api-version'], '3.0.0');
  assert.deepEqual(v3.body, { callbackUrl: request.callbackUrl, secret: secret.toString('base64'), documentReference: 'HLCUHAM250100001' }, '3.0 names the document reference as 3.0 does');

  // A carrier whose events resource has its own path subscribes next to it.
  const own = dcsaConnector(resolveCarrier({ scac: 'KEYS', eventsUrl: `${gateway.origin}/api/v3/events`, version: '3.0', apiKey: API_KEY, apiKeyHeader: 'X-API-Key' }), { clock: new ManualClock() });
  assert.equal(await own.subscribe!(request), 'sub-v3');
});

test('a connector of another protocol sits beside DCSA, chosen by the protocol of its entry', async () => {
  const answered: LookupOutcome = { kind: 'failed', reason: 'not_found', temporary: true, detail: 'from the other protocol' };
  const other: CarrierConnector = { lookup: async () => answered };
  const endpoints: CarrierEndpoint[] = [
    { scac: 'OTHR', protocol: 'carrier-json', baseUrl: 'http://127.0.0.1:9/' },
    { scac: 'KEYS', baseUrl: `${gateway.origin}/api`, apiKey: API_KEY, apiKeyHeader: 'X-API-Key' },
  ];
  const registry = new ConnectorRegistry(endpoints, new ManualClock(), { ...PROTOCOLS, 'carrier-json': { connector: () => other } });
  assert.equal(registry.get('othr'), other);
  assert.equal(await registry.get('OTHR')!.lookup({ scac: 'OTHR', numberType: 'container', number: 'X' }), answered);
  assert.equal((await registry.get('KEYS')!.lookup({ scac: 'KEYS', numberType: 'container', number: 'MSKU1234565' })).kind, 'failed', 'DCSA as before (no events yet)');
  assert.throws(() => new ConnectorRegistry(endpoints, new ManualClock()), /OTHR: unknown protocol "carrier-json" \(known: dcsa\)/);
});
