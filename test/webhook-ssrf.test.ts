// Server-side request forgery: special-purpose addresses, however they are written (IPv6 forms that
// embed IPv4 such as NAT64 and 6to4, IPv4-mapped in hex, decimal, hex and octal IPv4), are refused
// when a webhook is saved, when trigger is asked to send, and at connect time by the sender. Every
// refusal happens before a connection: no test here sends a packet anywhere, loopback included.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HostLookup, ResolvedAddress } from '../src/domain/webhooks/url-policy.ts';
import { WebhookSender } from '../src/webhooks/http-sender.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

const names: Record<string, ResolvedAddress[]> = {
  'nat64.example.com': [{ address: '64:ff9b::7f00:1', family: 6 }],
  'nat64-local.example.com': [{ address: '64:ff9b:1::a9fe:a9fe', family: 6 }],
  'sixtofour.example.com': [{ address: '2002:a9fe:a9fe::1', family: 6 }],
  'teredo.example.com': [{ address: '2001:0:4136:e378:8000:63bf:3fff:fdd2', family: 6 }],
  'mapped-hex.example.com': [{ address: '::ffff:7f00:1', family: 6 }],
  'documentation.example.com': [{ address: '192.0.2.10', family: 4 }],
  'cgnat.example.com': [{ address: '100.64.1.1', family: 4 }],
};
const lookup: HostLookup = async (hostname) => {
  const found = names[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};

const REFUSED = [
  'https://[64:ff9b::7f00:1]/',
  'https://[64:ff9b::127.0.0.1]:8443/hook',
  'https://[64:ff9b:1::a00:1]/',
  'https://[2002:7f00:1::]/',
  'https://[2002:a9fe:a9fe::1]/',
  'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  'https://[::ffff:7f00:1]/',
  'https://[0:0:0:0:0:ffff:7f00:0001]/',
  'https://[::ffff:0:7f00:1]/',
  'https://[::127.0.0.1]/',
  'https://[2001:db8::1]/',
  'https://[100::1]/',
  'https://0177.0.0.1/',
  'https://0x7f000001/',
  'https://2130706433/',
  'https://127.1/',
  'https://192.0.2.1/',
  'https://198.18.0.1/',
  'https://100.64.0.1/',
  'https://255.255.255.255/',
  ...Object.keys(names).map((name) => `https://${name}/hook`),
];

let t: TestApp;
forFile(() => startTestApp({ webhooks: { lookup, allowInsecure: false } }), (s) => (t = s));

function call(method: string, path: string, body: unknown) {
  t.clock.advance(1000); // under the rate limit
  return t.request(method, path, { body, headers: { 'content-type': 'application/json' } });
}

describe('special-purpose targets', () => {
  test('are refused when a webhook is created or patched', async () => {
    const ok = await call('POST', '/v2/webhooks', { data: { type: 'webhook', attributes: { url: 'https://[2606:4700::1111]/', events: ['tracking_request.succeeded'] } } });
    assert.equal(ok.status, 201, ok.text);
    for (const url of REFUSED) {
      const created = await call('POST', '/v2/webhooks', { data: { type: 'webhook', attributes: { url, events: ['tracking_request.succeeded'] } } });
      assert.equal(created.status, 422, `${url}: ${created.text}`);
      assert.equal(created.body.errors[0].source.pointer, '/data/attributes/url');
      const patched = await call('PATCH', `/v2/webhooks/${ok.body.data.id}`, { data: { type: 'webhook', id: ok.body.data.id, attributes: { url } } });
      assert.equal(patched.status, 422, `${url}: ${patched.text}`);
    }
  });

  test('are refused by trigger before anything is sent', async () => {
    for (const url of REFUSED) {
      const res = await call('POST', '/v2/webhooks/trigger', { url, event: 'tracking_request.succeeded' });
      assert.equal(res.status, 422, `${url}: ${res.text}`);
      assert.match(res.body.errors[0].detail, /non-public|special-purpose/, url);
    }
  });

  test('are refused by the sender at connect time, literal or resolved', async () => {
    const sender = new WebhookSender({ allowInsecure: false, timeoutMs: 2000, lookup });
    try {
      for (const url of REFUSED) {
        const result = await sender.send(url, { 'content-type': 'application/json' }, '{}');
        assert.equal(result.statusCode, null, url);
        assert.match(result.error ?? '', /^refused: /, url);
      }
    } finally {
      await sender.close();
    }
  });
});
