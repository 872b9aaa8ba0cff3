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
