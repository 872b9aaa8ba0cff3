import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, describeConfig, loadConfig } from './index.ts';

test('defaults apply when nothing is set', () => {
  const config = loadConfig({});
  assert.equal(config.PORT, 8080);
  assert.equal(config.SVC_DATA_DIR, './data');
  assert.equal(config.DATABASE_URL, undefined);
  assert.equal(config.SVC_TRUST_PROXY, false);
});

test('values are parsed and empty strings count as unset', () => {
  const config = loadConfig({ PORT: '9000', DATABASE_URL: 'postgres://u@h/db', SVC_TRUST_PROXY: 'true', SVC_DATA_DIR: '' });
  assert.equal(config.PORT, 9000);
  assert.equal(config.DATABASE_URL, 'postgres://u@h/db');
  assert.equal(config.SVC_TRUST_PROXY, true);
  assert.equal(config.SVC_DATA_DIR, './data');
});

test('a bad value stops start-up with a message naming the variable', () => {
  for (const [name, value] of [['PORT', 'eighty'], ['PORT', '70000'], ['DATABASE_URL', 'mysql://x'], ['SVC_LOG_LEVEL', 'loud'], ['SVC_BOOTSTRAP_API_KEY', 'short'], ['SVC_PUBLIC_URL', 'not a url']]) {
    assert.throws(() => loadConfig({ [name]: value }), (err: unknown) => err instanceof ConfigError && err.message.includes(name), `${name}=${value}`);
  }
});

test('every variable is documented', () => {
  for (const v of describeConfig()) assert.ok(v.description.length > 10, v.name);
});

/** Asserts that loadConfig refuses the value with a message naming the variable (and `problem`). */
function refuses(name: string, value: string, problem?: RegExp): void {
  assert.throws(
    () => loadConfig({ [name]: value }),
    (err: unknown) => err instanceof ConfigError && err.message.includes(name) && (!problem || problem.test(err.message)),
    `${name}=${JSON.stringify(value)}`,
  );
}

test('ports are plain decimal integers from 0 (any free port) to 65535', () => {
  for (const value of [' ', '0x50', '80.0', '8e3', '-1', '+80', '80 ', '65536', '1_000', 'Infinity']) refuses('PORT', value, /PORT: /);
  refuses('SVC_SANDBOX_PORT', '0x50');
  refuses('SVC_EMBEDDED_PG_PORT', '0', /SVC_EMBEDDED_PG_PORT/);
  assert.equal(loadConfig({ PORT: '0' }).PORT, 0);
  assert.equal(loadConfig({ PORT: '65535' }).PORT, 65535);
  assert.equal(loadConfig({ SVC_SANDBOX_PORT: '0' }).SVC_SANDBOX_PORT, 0);
  assert.equal(loadConfig({ SVC_EMBEDDED_PG_PORT: '5433' }).SVC_EMBEDDED_PG_PORT, 5433);
});

test('the other numbers are written in decimal too', () => {
  for (const name of ['SVC_WORKER_INTERVAL_MS', 'SVC_WEBHOOK_TIMEOUT_MS', 'SVC_WEBHOOK_RETRY_BASE_MS', 'SVC_WEBHOOK_CONCURRENCY', 'SVC_DELIVERY_INTERVAL_MS']) {
    for (const value of [' ', '0x400', '1000.0', '1e3']) refuses(name, value);
  }
  for (const name of ['SVC_SANDBOX_SPEED', 'SVC_WEBHOOK_DEACTIVATE_AFTER_HOURS']) {
    for (const value of [' ', '0x10', '1e3', '.5']) refuses(name, value);
  }
  const config = loadConfig({ SVC_WORKER_INTERVAL_MS: '250', SVC_SANDBOX_SPEED: '1.5', SVC_WEBHOOK_DEACTIVATE_AFTER_HOURS: '0024' });
  assert.equal(config.SVC_WORKER_INTERVAL_MS, 250);
  assert.equal(config.SVC_SANDBOX_SPEED, 1.5);
  assert.equal(config.SVC_WEBHOOK_DEACTIVATE_AFTER_HOURS, 24);
  assert.equal(loadConfig({}).SVC_SANDBOX_SPEED, 3600);
});

test('SVC_CARRIERS is parsed and each endpoint checked at start-up', () => {
  const config = loadConfig({ SVC_CARRIERS: JSON.stringify([{ scac: 'abcd', baseUrl: 'https://dcsa.example.com/v2', apiKey: 'k', terminalBaseUrl: 'http://t.example.com' }]) });
  assert.deepEqual(config.SVC_CARRIERS, [
    { scac: 'ABCD', protocol: 'dcsa', baseUrl: 'https://dcsa.example.com/v2', apiKey: 'k', terminalBaseUrl: 'http://t.example.com', timeoutMs: 15_000 },
  ]);
  const one = (endpoint: Record<string, unknown>) => JSON.stringify([{ scac: 'ABCD', baseUrl: 'https://x.example.com', ...endpoint }]);
  refuses('SVC_CARRIERS', '[{bad', /SVC_CARRIERS: not valid JSON/);
  assert.throws(() => loadConfig({ SVC_CARRIERS: '[{"apiKey":"s3cret"}, ]' }), (err: Error) => err.message.includes('SVC_CARRIERS') && !err.message.includes('s3cret'), 'the value is not echoed');
  refuses('SVC_CARRIERS', '{"scac":"ABCD"}', /SVC_CARRIERS: must be a JSON array/);
  refuses('SVC_CARRIERS', one({ scac: 'ABC' }), /SVC_CARRIERS\.0\.scac/);
  refuses('SVC_CARRIERS', one({ baseUrl: 'ftp://x.example.com' }), /SVC_CARRIERS\.0\.baseUrl/);
  refuses('SVC_CARRIERS', one({ baseUrl: undefined }), /SVC_CARRIERS\.0\.baseUrl/);
  refuses('SVC_CARRIERS', one({ version: '3.1' }), /SVC_CARRIERS\.0\.version/);
  refuses('SVC_CARRIERS', one({ terminalBaseUrl: 'not a url' }), /SVC_CARRIERS\.0\.terminalBaseUrl/);
  refuses('SVC_CARRIERS', one({ timeoutMs: '5000' }), /SVC_CARRIERS\.0\.timeoutMs/);
  refuses('SVC_CARRIERS', one({ apikey: 'misspelt' }), /SVC_CARRIERS\.0: .*apikey/);
  refuses('SVC_CARRIERS', one({ clientId: 'id' }), /SVC_CARRIERS\.0\.clientSecret: clientId and clientSecret go together/);
  refuses('SVC_CARRIERS', one({ clientId: 'id', clientSecret: 'secret' }), /SVC_CARRIERS\.0\.tokenUrl: required with clientId/);
  refuses('SVC_CARRIERS', one({ requestsPerSecond: 0 }), /SVC_CARRIERS\.0\.requestsPerSecond/);
  refuses('SVC_CARRIERS', one({ protocol: 'Not A Name' }), /SVC_CARRIERS\.0\.protocol/);
});

test('a SCAC of the carrier catalogue needs only its credentials; one whose endpoint is unconfirmed needs its URL', () => {
  const config = loadConfig({ SVC_CARRIERS: JSON.stringify([{ scac: 'maeu', clientId: 'id', clientSecret: 'secret' }, { scac: 'CMDU', apiKey: 'k' }]) });
  assert.deepEqual(config.SVC_CARRIERS?.map((c) => c.scac), ['MAEU', 'CMDU']);
  refuses('SVC_CARRIERS', JSON.stringify([{ scac: 'ONEY', apiKey: 'k' }]), /SVC_CARRIERS\.0\.baseUrl: required: give baseUrl or eventsUrl \(the catalogue does not know ONEY's endpoint\)/);
  refuses('SVC_CARRIERS', JSON.stringify([{ scac: 'QQQQ', apiKey: 'k' }]), /SVC_CARRIERS\.0\.baseUrl: required: .*QQQQ is not in the carrier catalogue/);
  assert.equal(loadConfig({ SVC_CARRIERS: JSON.stringify([{ scac: 'ONEY', eventsUrl: 'https://one.example/tnt/events', apiKey: 'k' }]) }).SVC_CARRIERS?.[0].eventsUrl, 'https://one.example/tnt/events');
});
