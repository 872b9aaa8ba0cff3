// `svc carriers list` and `svc carriers check` as an operator runs them, against a carrier gateway
// on loopback: a good key, a bad key, OAuth2 credentials good and bad, a host that is not there,
// and never a secret in what they print (nor in `svc config`).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { API_KEY, CLIENT_ID, CLIENT_SECRET, startCarrierGateway, type CarrierGateway } from './support/carrier-gateway.ts';
import { freePort, runSvcAsync } from './support/svc-process.ts';

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '../bin/svc.js');
const SECRETS = [API_KEY, CLIENT_ID, CLIENT_SECRET, 'wrong-key-0042', 'wrong-secret-0042'];

let gateway: CarrierGateway;
let deadPort: number;
let env: NodeJS.ProcessEnv;
/** A DCSA endpoint over TLS whose self-signed certificate only a process told to trust it accepts. */
let tls: { server: Server; origin: string; cert: string; dir: string };
before(async () => {
  gateway = await startCarrierGateway();
  deadPort = await freePort();
  tls = await startTlsEndpoint();
  const api = `${gateway.origin}/api`;
  const tokenUrl = `${gateway.origin}/oauth/token`;
  env = {
    ...process.env,
    SVC_SANDBOX: 'false',
    SVC_CARRIERS: JSON.stringify([
      { scac: 'GOOD', baseUrl: api, apiKey: API_KEY, apiKeyHeader: 'X-API-Key' },
      { scac: 'BADK', baseUrl: api, apiKey: 'wrong-key-0042', apiKeyHeader: 'X-API-Key' },
      { scac: 'OAUT', baseUrl: api, version: '3.0', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenUrl },
      { scac: 'BADO', baseUrl: api, clientId: CLIENT_ID, clientSecret: 'wrong-secret-0042', tokenUrl },
      { scac: 'DEAD', baseUrl: `http://127.0.0.1:${deadPort}/api`, apiKey: API_KEY, apiKeyHeader: 'X-API-Key', timeoutMs: 2000 },
      { scac: 'TLSX', baseUrl: `${tls.origin}/api`, apiKey: API_KEY, apiKeyHeader: 'X-API-Key', timeoutMs: 2000 },
      // A catalogue carrier configured without its credentials: nothing to send yet.
      { scac: 'HLCU' },
      { scac: 'MAEU', baseUrl: api, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    ]),
  };
});
after(async () => {
  await gateway.close();
  await new Promise((resolve) => tls.server.close(resolve));
  rmSync(tls.dir, { recursive: true, force: true });
});

/** Runs svc; its exit code, stdout and stderr (a non-zero exit is an answer here, not an error). */
async function svc(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return svcWith(env, ...args);
}

const svcWith = runSvcAsync;

function assertNoSecret(result: { stdout: string; stderr: string }): void {
  for (const secret of SECRETS) assert.ok(!result.stdout.includes(secret) && !result.stderr.includes(secret), `${secret} was printed`);
}

const row = (stdout: string, scac: string) => stdout.split('\n').find((l) => l.startsWith(`${scac} `)) ?? '';

test('carriers list: each carrier with its endpoint, version, scheme, credentials and state, never a secret', async () => {
  const listed = await svc('carriers', 'list');
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^scac +name +endpoint +version +auth +credentials +state +catalogue/);
  assert.match(row(listed.stdout, 'GOOD'), new RegExp(`^GOOD +- +${gateway.origin}/api/v2/events +2\\.2 +API key \\(X-API-Key\\) +set +configured +not listed$`));
  assert.match(row(listed.stdout, 'OAUT'), /\/api\/v3\/events +3\.0 +OAuth2 client credentials \(http:\/\/127\.0\.0\.1:\d+\/oauth\/token\) +set +configured/);
  assert.match(row(listed.stdout, 'HLCU'), /^HLCU +Hapag-Lloyd +https:\/\/api\.hlag\.com\/hlag\/external\/v2\/events +2\.2 +client id and secret \(X-IBM-Client-Id, X-IBM-Client-Secret\) +missing clientId, clientSecret +missing credentials +corroborated$/);
  // Configured with the catalogue's scheme (a token URL and the Consumer-Key header) at an endpoint of the user's.
  assert.match(row(listed.stdout, 'MAEU'), /^MAEU +Maersk +http:\/\/127\.0\.0\.1:\d+\/api\/v2\/events +2\.2 +OAuth2 client credentials \(https:\/\/api\.maersk\.com\/customer-identity\/oauth\/v2\/access_token\) +set +configured/);
  // The rest of the catalogue, not configured.
  assert.match(row(listed.stdout, 'CMDU'), /^CMDU +CMA CGM +https:\/\/apis\.cma-cgm\.net\/operation\/trackandtrace\/v1\/events +2\.2 +API key \(KeyId\) +not set +not configured/);
  assert.match(row(listed.stdout, 'ONEY'), /^ONEY +Ocean Network Express \(ONE\) +unconfirmed +unconfirmed +unconfirmed +not set +not configured \(endpoint unconfirmed\) +unconfirmed$/);
  assertNoSecret(listed);

  const sandboxed = await run(process.execPath, [bin, 'carriers', 'list'], { env: { ...env, SVC_CARRIERS: '', SVC_SANDBOX: 'true', SVC_SANDBOX_PORT: '18090' } });
  assert.match(row(sandboxed.stdout, 'TEST'), /^TEST +- +http:\/\/127\.0\.0\.1:18090\/carriers\/TEST\/v2\/events +2\.2 +none \(sandbox\) +none needed +sandbox/);
});

test('carriers check with a good API key: reached, accepted, 404 for a made-up container, exit 0', async () => {
  const checked = await svc('carriers', 'check', 'good');
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  assert.deepEqual(checked.stdout.trimEnd().split('\n'), [
    'GOOD, from SVC_CARRIERS',
    `-     endpoint: ${gateway.origin}/api/v2/events (DCSA 2.2)`,
    `ok    connect: ${new URL(gateway.origin).host} answered`,
    'ok    authentication: accepted',
    'ok    events query for the made-up container SVCU0000000: HTTP 404 (no such container), as expected',
    'ok    API-Version header: 2.2.0, as configured (2.2)',
    'GOOD: the carrier answered as expected',
  ]);
  const sent = gateway.eventRequests().at(-1)!;
  assert.equal(sent.url, '/api/v2/events?equipmentReference=SVCU0000000');
  assert.equal(sent.headers['x-api-key'], API_KEY);
});

test('carriers check with a bad API key says authentication was refused, exit 1', async () => {
  const checked = await svc('carriers', 'check', 'BADK');
  assert.equal(checked.code, 1);
  assert.match(checked.stdout, /^ok {4}connect: 127\.0\.0\.1:\d+ answered$/m);
  assert.match(checked.stdout, /^FAIL {2}authentication: refused \(HTTP 401\); check the configured credentials$/m);
  assert.match(checked.stdout, /^BADK: check failed$/m);
  assertNoSecret(checked);
});

test('carriers check with OAuth2: the token first, then the query in the carrier\'s version; a refused secret stops at the token', async () => {
  gateway.unknownReference = 'empty';
  const good = await svc('carriers', 'check', 'OAUT');
  assert.equal(good.code, 0, good.stdout);
  assert.match(good.stdout, /^ok {4}token: http:\/\/127\.0\.0\.1:\d+\/oauth\/token gave a bearer token$/m);
  assert.match(good.stdout, /^ok {4}events query for the made-up container SVCU0000000: HTTP 200, 0 events, in DCSA 3\.0's shape$/m);
  assert.match(good.stdout, /^ok {4}API-Version header: 3\.0\.0, as configured \(3\.0\)$/m);
  assert.match(gateway.eventRequests().at(-1)!.headers.authorization ?? '', /^Bearer token-\d+$/);

  const requestsBefore = gateway.eventRequests().length;
  const bad = await svc('carriers', 'check', 'BADO');
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /^FAIL {2}token: token endpoint http:\/\/127\.0\.0\.1:\d+\/oauth\/token: HTTP 401 \(invalid_client\): the token endpoint refused clientId\/clientSecret$/m);
  assert.equal(gateway.eventRequests().length, requestsBefore, 'no events query without a token');
  assertNoSecret(good);
  assertNoSecret(bad);
  gateway.unknownReference = 'not_found';
});

test('carriers check says which step failed: a host that does not answer, missing credentials, an unknown SCAC', async () => {
  const dead = await svc('carriers', 'check', 'DEAD');
  assert.equal(dead.code, 1);
  assert.match(dead.stdout, new RegExp(`^FAIL  connect: 127\\.0\\.0\\.1:${deadPort} refused or dropped the connection \\(ECONNREFUSED\\)$`, 'm'));

  const missing = await svc('carriers', 'check', 'HLCU');
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /^FAIL {2}credentials: clientId and clientSecret not set in SVC_CARRIERS$/m);

  const notConfigured = await svc('carriers', 'check', 'CMDU');
  assert.equal(notConfigured.code, 1);
  assert.match(notConfigured.stderr, /CMDU \(CMA CGM\) is not configured: add \{"scac": "CMDU", …credentials\} to SVC_CARRIERS/);
  const unknown = await svc('carriers', 'check', 'QQQQ');
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no carrier QQQQ in SVC_CARRIERS, the sandbox or the carrier catalogue/);
  assert.equal((await svc('carriers', 'check')).code, 2, 'a usage error');
  for (const result of [dead, missing, notConfigured, unknown]) assertNoSecret(result);
});

test('carriers check over TLS: a certificate svc does not trust is named as the failing step; a trusted one passes', async () => {
  const untrusted = await svc('carriers', 'check', 'TLSX');
  assert.equal(untrusted.code, 1);
  assert.match(untrusted.stdout, /^FAIL {2}TLS: 127\.0\.0\.1:\d+'s certificate or handshake was refused \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/m);

  const trusted = await svcWith({ ...env, NODE_EXTRA_CA_CERTS: tls.cert }, 'carriers', 'check', 'TLSX');
  assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
  assert.match(trusted.stdout, /^ok {4}connect: 127\.0\.0\.1:\d+ answered over TLS \(certificate accepted\)$/m);
  assert.match(trusted.stdout, /^ok {4}events query for the made-up container SVCU0000000: HTTP 404 \(no such container\), as expected$/m);
});

test('svc config masks every carrier credential', async () => {
  const shown = await svc('config');
  assert.equal(shown.code, 0, shown.stderr);
  const line = row(shown.stdout, 'SVC_CARRIERS');
  assert.match(line, /"clientId":"\*\*\*","clientSecret":"\*\*\*"/);
  assert.match(line, /"apiKey":"\*\*\*","apiKeyHeader":"X-API-Key"/);
  assertNoSecret(shown);
});

async function startTlsEndpoint(): Promise<typeof tls> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-carrier-tls-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=svc test carrier', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    const authorised = request.headers['x-api-key'] === API_KEY;
    response.writeHead(authorised ? 404 : 401, { 'content-type': 'application/json', 'API-Version': '2.2.0' }).end('{"errors":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, cert, dir };
}
