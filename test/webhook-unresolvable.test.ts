// A webhook whose host name does not resolve right now (an offline host, a DNS hiccup) is accepted:
// the guard at connect time is what keeps deliveries off private addresses, and the delivery says
// the name did not resolve. Names under .invalid (RFC 6761) never resolve and are never sent to a
// DNS server, so this test makes no network traffic although it uses the system resolver.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../src/clock.ts';
import { checkWebhookUrl, systemLookup } from '../src/domain/webhooks/url-policy.ts';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { forFile } from './support/for-file.ts';

let t: TrackingHarness;
forFile(() => startTrackingHarness([], { webhooks: { allowInsecure: false, lookup: undefined } }), (s) => (t = s));

const hook = (attributes: Record<string, unknown>) => ({ data: { type: 'webhook', attributes } });

test('names under .invalid fail at once, without asking a DNS server', async () => {
  await assert.rejects(systemLookup('hooks.svc-test.invalid'), { code: 'ENOTFOUND' });
  await assert.rejects(systemLookup('INVALID.'), { code: 'ENOTFOUND' });
  const check = await checkWebhookUrl('https://hooks.svc-test.invalid/', { allowInsecure: false });
  assert.ok(!check.ok && check.problem === 'unresolvable');
});

test('create and patch accept a name that does not resolve; literal private addresses are still refused', async () => {
  const created = await t.request('POST', '/v2/webhooks', { body: hook({ url: 'https://hooks.svc-test.invalid/svc', events: ['tracking_request.succeeded'] }) });
  assert.equal(created.status, 201, created.text);
  const id = created.body.data.id;
  const patched = await t.request('PATCH', `/v2/webhooks/${id}`, { body: hook({ url: 'https://other.svc-test.invalid/svc' }) });
  assert.equal(patched.status, 200, patched.text);
  for (const url of ['https://10.0.0.1/', 'https://[::1]/', 'https://[64:ff9b::a00:1]/', 'https://localhost/']) {
    const res = await t.request('PATCH', `/v2/webhooks/${id}`, { body: hook({ url }) });
    assert.equal(res.status, 422, `${url}: ${res.text}`);
  }
  await t.request('PATCH', `/v2/webhooks/${id}`, { body: hook({ url: 'https://hooks.svc-test.invalid/svc' }) });
});

test('the delivery to a name that does not resolve fails, and its log says so', async () => {
  await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
  await t.worker.drain();
  const worker = new DeliveryWorker({ db: t.db, clock: new ManualClock(new Date()), allowInsecure: false, random: () => 0.5, policy: { timeoutMs: 2000 } });
  try {
    await worker.drain();
  } finally {
    await worker.stop();
  }
  const list = await t.request('GET', '/v2/webhook_notifications?include=webhook_notification_logs');
  assert.equal(list.status, 200, list.text);
  const logs = list.body.included.filter((r: any) => r.type === 'webhook_notification_log');
  assert.equal(logs.length, 1, list.text);
  assert.equal(logs[0].attributes.succeeded, false);
  assert.equal(logs[0].attributes.url, 'https://hooks.svc-test.invalid/svc');
  assert.match(logs[0].attributes.error, /hooks\.svc-test\.invalid did not resolve/);
});
