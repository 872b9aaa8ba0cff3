// A carrier's credentials stay secret while svc tracks with them: whether the token endpoint
// refuses them or not, neither the API, the database rows of the tracking requests nor the
// worker's log lines hold the client id, the client secret or a bearer token.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConnectorRegistry } from '../src/carriers/registry.ts';
import { TrackingWorker } from '../src/services/tracking/worker.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { CLIENT_ID, CLIENT_SECRET, startCarrierGateway, type CarrierGateway } from './support/carrier-gateway.ts';

const WRONG_SECRET = 'wrong-secret-4e7d-0a19';

let t: TestApp;
let gateway: CarrierGateway;
before(async () => {
  [t, gateway] = await Promise.all([startTestApp(), startCarrierGateway()]);
});
after(() => Promise.all([t.close(), gateway.close()]));

async function track(scac: string, number: string): Promise<string> {
  const res = await t.request('POST', '/v2/tracking_requests', { body: { data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: number, scac } } } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return (res.body as { data: { id: string } }).data.id;
}

/** Every row svc keeps about the account's tracking, as text. */
async function stored(): Promise<string> {
  const { rows } = await t.db.query(`SELECT row_to_json(r)::text AS row FROM tracking_requests r WHERE account_id = $1`, [t.accountId]);
  return rows.map((r: { row: string }) => r.row).join('\n');
}

test('refused and accepted OAuth2 credentials: the outcome is told, the secrets never', async () => {
  const logs: string[] = [];
  const tokenUrl = `${gateway.origin}/oauth/token`;
  const connectors = new ConnectorRegistry(
    [
      { scac: 'MAEU', baseUrl: `${gateway.origin}/api`, clientId: CLIENT_ID, clientSecret: WRONG_SECRET, tokenUrl },
      { scac: 'HLCU', baseUrl: `${gateway.origin}/api`, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenUrl },
    ],
    t.clock,
  );
  const worker = new TrackingWorker({ db: t.db, clock: t.clock, connectors, log: (message, fields) => logs.push(JSON.stringify([message, fields])) });
  const refused = await track('MAEU', 'MAEU240001234');
  const accepted = await track('HLCU', 'HLCUHAM2401234');
  await worker.drain();

  const shown = async (id: string) => (await t.request('GET', `/v2/tracking_requests/${id}`)).body as { data: { attributes: Record<string, unknown> } };
  const refusedShown = await shown(refused);
  assert.equal(refusedShown.data.attributes.status, 'failed');
  assert.equal(refusedShown.data.attributes.failed_reason, 'data_unavailable');
  assert.ok(gateway.tokenRequests().length >= 2, 'both carriers asked for a token');
  const bearer = gateway.eventRequests().map((s) => s.headers.authorization).find(Boolean);
  assert.match(String(bearer), /^Bearer token-\d+$/, 'the accepted credentials got a token and used it');
  // The gateway knows no such bill of lading: the accepted carrier's lookup ends not_found.
  assert.equal((await shown(accepted)).data.attributes.failed_reason, 'not_found');

  const everything = [JSON.stringify(refusedShown), JSON.stringify(await shown(accepted)), await stored(), ...logs].join('\n');
  for (const secret of [CLIENT_ID, CLIENT_SECRET, WRONG_SECRET, ...gateway.issued]) assert.ok(!everything.includes(secret), `${secret} was kept or logged`);
});
