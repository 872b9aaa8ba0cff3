// Webhook delivery end to end: tracking records events, each becomes a notification for every
// subscribed webhook, and the delivery worker POSTs it, signed, to a real receiver on loopback;
// failures are retried on the clock, logged, and end as the rules say.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../src/clock.ts';
import { HOUR, MINUTE } from '../src/domain/time-units.ts';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { answerWith, opensslHmac, startReceiver, type Receiver } from './support/receiver.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

let t: TrackingHarness;
let receiver: Receiver;
// Deliveries run on their own clock, near real time, because Standard Webhooks receivers compare
// the signed timestamp with their own clock.
let clock: ManualClock;
let worker: DeliveryWorker;

const newWorker = (policy: ConstructorParameters<typeof DeliveryWorker>[0]['policy'] = {}, extra: Partial<ConstructorParameters<typeof DeliveryWorker>[0]> = {}) =>
  new DeliveryWorker({ db: t.db, clock, allowInsecure: true, random: () => 0.5, policy: { timeoutMs: 2000, ...policy }, ...extra });

async function createWebhook(events: string[], attributes: Record<string, unknown> = {}, key?: string): Promise<{ id: string; secret: string }> {
  const res = await t.request('POST', '/v2/webhooks', { key, body: { data: { type: 'webhook', attributes: { url: receiver.url, events, ...attributes } } } });
  assert.equal(res.status, 201, res.text);
  return { id: res.body.data.id, secret: res.body.data.attributes.secret };
}

const notificationsOf = async (webhookId: string) =>
  (await t.db.query('SELECT * FROM webhook_notifications WHERE webhook_id = $1 ORDER BY created_at, id', [webhookId])).rows;

before(async () => {
  t = await startTrackingHarness([], { webhooks: { allowInsecure: true } });
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(async () => {
  clock = new ManualClock(new Date());
  worker = newWorker();
  receiver.received.length = 0;
  receiver.answer = answerWith(200, 'ok');
  // Each test subscribes afresh.
  await t.db.query('DELETE FROM webhooks');
});

describe('a tracked shipment reaches the receiver', () => {
  test('tracking_request.succeeded arrives signed, with the request, its shipment and containers', async () => {
    const hook = await createWebhook(['tracking_request.succeeded'], { headers: [{ name: 'X-Tenant', value: 'acme' }] });
    const trId = await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
    await t.worker.drain();
    await worker.drain();

    assert.equal(receiver.received.length, 1);
    const got = receiver.received[0];
    assert.equal(got.method, 'POST');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['x-tenant'], 'acme');
    const doc = got.json;
    assert.equal(doc.data.type, 'webhook_notification');
    assert.equal(doc.data.attributes.event, 'tracking_request.succeeded');
    assert.deepEqual(doc.data.relationships.reference_object.data, { type: 'tracking_request', id: trId });
    const types = doc.included.map((r: any) => r.type).sort();
    assert.deepEqual([...new Set(types)], ['container', 'shipment', 'tracking_request']);
    assert.equal(types.filter((x: string) => x === 'container').length, 2);
    assert.ok(!types.includes('webhook'), 'the webhook itself is not included');

    // X-SVC-Webhook-Signature: hex HMAC of the exact bytes, checked with openssl.
    assert.equal(got.headers['x-svc-webhook-signature'], opensslHmac(hook.secret, got.body));
    // Standard Webhooks: a receiver using the standardwebhooks library verifies it…
    const wh = new Webhook(hook.secret);
    const headers = got.headers as Record<string, string>;
    assert.deepEqual(wh.verify(got.body, headers), doc);
    assert.equal(got.headers['webhook-id'], doc.data.id);
    // …and rejects a tampered body, a forged signature, and the same message replayed later.
    assert.throws(() => wh.verify(got.body.replace('succeeded', 'failed'), headers));
    assert.throws(() => wh.verify(got.body, { ...headers, 'webhook-signature': 'v1,' + Buffer.alloc(32).toString('base64') }));
    const stale = String(Math.floor(Date.now() / 1000) - 3600);
    assert.throws(() => wh.verify(got.body, { ...headers, 'webhook-timestamp': stale }));

    // The delivered body is the document GET answers (but for what changed since: status and logs).
    const res = await t.request('GET', `/v2/webhook_notifications/${doc.data.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.data.attributes.delivery_status, 'succeeded');
    assert.equal(res.body.data.relationships.webhook_notification_logs.data.length, 1);
    const strip = (d: any) => ({ ...d, data: { ...d.data, attributes: { ...d.data.attributes, delivery_status: null }, relationships: { ...d.data.relationships, webhook_notification_logs: null } } });
    assert.deepEqual(strip(res.body), strip(doc));
    assert.equal(doc.data.attributes.delivery_status, 'pending');
  });

  test('milestones go out once per container, numbered in order per container', async () => {
    const hook = await createWebhook(['container.transport.empty_out', 'container.transport.full_in', 'container.transport.vessel_loaded', 'container.transport.vessel_departed', 'container.created']);
    const trId = await t.track('bill_of_lading', 'TEST-DIRECT', 'TEST');
    await t.worker.drain();
    await t.advance(20 * 24 * HOUR, 40);
    await worker.drain();
    const shipmentId = (await t.request('GET', `/v2/tracking_requests/${trId}`)).body.data.relationships.tracked_object.data.id;

    const byContainer = new Map<string, { event: string; sequence: number }[]>();
    // Shipments tracked by earlier tests move on too; only this one's containers count here.
    const ofThisShipment = receiver.received.filter((r) => r.json.included.some((x: any) => x.type === 'shipment' && x.id === shipmentId));
    assert.ok(ofThisShipment.length > 0);
    for (const r of ofThisShipment) {
      const d = r.json.data;
      const ref = r.json.included.find((x: any) => x.id === d.relationships.reference_object.data.id);
      // container.created, as the reference announces it: a container_created_event, with the container and shipment included.
      if (d.attributes.event === 'container.created') {
        assert.equal(ref.type, 'container_created_event');
        assert.ok(r.json.included.some((x: any) => x.type === 'container' && x.id === ref.relationships.container.data.id));
      }
      const container = ref.relationships.container.data.id;
      (byContainer.get(container) ?? byContainer.set(container, []).get(container)!).push({ event: d.attributes.event, sequence: d.attributes.sequence });
    }
    assert.ok(byContainer.size >= 1);
    for (const [, events] of byContainer) {
      const names = events.map((e) => e.event);
      assert.equal(names.filter((n) => n === 'container.transport.vessel_departed').length, 1, names.join());
      assert.ok(names.includes('container.created'), names.join());
      // Numbered 1, 2, 3… in the order the events were recorded (the container's creation first).
      const sorted = [...events].sort((a, b) => a.sequence - b.sequence);
      assert.equal(sorted[0].event, 'container.created');
      assert.equal(new Set(sorted.map((e) => e.sequence)).size, sorted.length, 'sequence numbers are unique per container');
      const order = ['container.created', 'container.transport.empty_out', 'container.transport.full_in', 'container.transport.vessel_loaded', 'container.transport.vessel_departed'];
      const seen = sorted.map((e) => order.indexOf(e.event));
      assert.deepEqual(seen, [...seen].sort((a, b) => a - b), `journey order: ${sorted.map((e) => e.event).join()}`);
    }
    const departed = receiver.received.find((r) => r.json.data.attributes.event === 'container.transport.vessel_departed')!;
    const inc = departed.json.included.map((r: any) => r.type);
    for (const type of ['transport_event', 'container', 'shipment', 'port', 'vessel']) assert.ok(inc.includes(type), `${type} in ${inc.join()}`);
    assert.equal((await notificationsOf(hook.id)).every((n) => n.delivery_status === 'succeeded'), true);
  });

  test('a last free day or POD terminal change has its own event, carrying the changeset', async () => {
    await createWebhook(['container.pickup_lfd.changed', 'container.pod_terminal_changed']);
    await t.track('bill_of_lading', 'TEST-HOLDS', 'TEST');
    await t.worker.drain();
    await t.advance(40 * 24 * HOUR, 80);
    await worker.drain();
    const byEvent = (name: string) => receiver.received.filter((r) => r.json.data.attributes.event === name);
    assert.ok(byEvent('container.pickup_lfd.changed').length >= 1, 'the last free day moves on TEST-HOLDS');
    // The sandbox's boxes keep their terminal, so pod_terminal_changed is checked only when it comes.
    for (const [name, attribute] of [['container.pickup_lfd.changed', 'pickup_lfd'], ['container.pod_terminal_changed', 'pod_terminal']]) {
      const got = byEvent(name);
      for (const r of got) {
        const ref = r.json.data.relationships.reference_object.data;
        assert.equal(ref.type, 'container_updated_event');
        const changes = r.json.included.find((x: any) => x.id === ref.id);
        assert.ok(attribute in changes.attributes.changeset, JSON.stringify(changes.attributes.changeset));
      }
    }
  });

  test('an inactive webhook, or one not subscribed to the event, gets no notification', async () => {
    const off = await createWebhook(['tracking_request.failed'], { active: false });
    const other = await createWebhook(['tracking_request.succeeded']);
    await t.track('bill_of_lading', 'TEST-TR-FAILED', 'TEST');
    await t.worker.drain();
    await worker.drain();
    assert.equal(receiver.received.length, 0);
    assert.equal((await notificationsOf(off.id)).length, 0);
    assert.equal((await notificationsOf(other.id)).length, 0);
  });
});

describe('failures, retries and logs', () => {
  async function oneFailedNotification(events = ['tracking_request.failed']) {
    const hook = await createWebhook(events);
    await t.track('bill_of_lading', 'TEST-INVALID', 'TEST');
    await t.worker.drain();
    const [n] = await notificationsOf(hook.id);
    assert.ok(n, 'a notification was recorded');
    return { hook, id: n.id as string };
  }

  test('a failing receiver is retried 12 times with growing waits, every attempt logged, then failed', async () => {
    receiver.answer = answerWith(500, 'x'.repeat(5000));
    const { id } = await oneFailedNotification();
    await worker.drain();
    const waits: number[] = [];
    let last = clock.now().getTime();
    for (let i = 0; i < 30; i++) {
      const [n] = (await t.db.query('SELECT * FROM webhook_notifications WHERE id = $1', [id])).rows;
      if (n.delivery_status !== 'pending') break;
      waits.push(n.next_attempt_at.getTime() - last);
      clock.set(n.next_attempt_at);
      last = n.next_attempt_at.getTime();
      await worker.drain();
    }
    assert.equal(receiver.received.length, 13, 'the first attempt and 12 retries');
    assert.equal(waits.length, 12);
    for (let i = 1; i < waits.length; i++) assert.ok(waits[i] >= waits[i - 1], `waits grow: ${waits.join()}`);
    assert.equal(waits[0], 30_000);
    const total = waits.reduce((a, b) => a + b, 0);
    assert.ok(total > 20 * HOUR && total < 30 * HOUR, `about a day in all: ${total / HOUR} h`);

    const res = await t.request('GET', `/v2/webhook_notifications/${id}?include=webhook_notification_logs`);
    assert.equal(res.body.data.attributes.delivery_status, 'failed');
    const logs = res.body.included.filter((r: any) => r.type === 'webhook_notification_log');
    assert.equal(logs.length, 13);
    assert.deepEqual(logs.map((l: any) => l.attributes.attempt).sort((a: number, b: number) => a - b), Array.from({ length: 13 }, (_, i) => i + 1));
    const first = logs.find((l: any) => l.attributes.attempt === 1).attributes;
    assert.equal(first.status_code, 500);
    assert.equal(first.succeeded, false);
    assert.equal(first.url, receiver.url);
    assert.equal(first.response_body.length, 1024, 'the first KiB of the answer');
    assert.match(first.error, /HTTP 500/);
    assert.equal(typeof first.duration_ms, 'number');
  });

  test('redirects are not followed; refused connections and timeouts are failed attempts', async () => {
    receiver.answer = answerWith(302, '', { location: 'http://127.0.0.1:1/elsewhere' });
    const { id, hook } = await oneFailedNotification();
    await worker.drain();
    assert.equal(receiver.received.length, 1);

    // A receiver that never answers.
    receiver.answer = () => {};
    const slow = newWorker({ timeoutMs: 200 });
    clock.advance(HOUR);
    await slow.drain();
    await slow.stop();

    await t.request('PATCH', `/v2/webhooks/${hook.id}`, { body: { data: { type: 'webhook', attributes: { url: 'http://127.0.0.1:9/closed' } } } });
    clock.advance(HOUR);
    await worker.drain();

    const logs = (await t.db.query('SELECT * FROM webhook_notification_logs WHERE webhook_notification_id = $1 ORDER BY attempt', [id])).rows;
    assert.equal(logs.length, 3);
    assert.equal(logs[0].status_code, 302);
    assert.match(logs[1].error, /timed out after 200 ms/);
    assert.equal(logs[1].status_code, null);
    assert.match(logs[2].error, /ECONNREFUSED/);
    assert.equal(logs[2].url, 'http://127.0.0.1:9/closed');
  });

  test('410 Gone fails the notification and deactivates the webhook, saying why', async () => {
    receiver.answer = answerWith(410);
    const { id, hook } = await oneFailedNotification();
    await worker.drain();
    const [n] = (await t.db.query('SELECT * FROM webhook_notifications WHERE id = $1', [id])).rows;
    assert.equal(n.delivery_status, 'failed');
    const res = await t.request('GET', `/v2/webhooks/${hook.id}`);
    assert.equal(res.body.data.attributes.active, false);
    assert.match(res.body.data.attributes.deactivated_reason, /410 Gone/);
    const events = (await t.db.query(`SELECT * FROM domain_events WHERE name = 'webhook.deactivated' AND reference_id = $1`, [hook.id])).rows;
    assert.equal(events.length, 1);

    // Turned on again by its owner, it is healthy again.
    const on = await t.request('PATCH', `/v2/webhooks/${hook.id}`, { body: { data: { type: 'webhook', attributes: { active: true } } } });
    assert.equal(on.body.data.attributes.active, true);
    assert.equal(on.body.data.attributes.deactivated_reason, null);
  });

  test('a webhook failing without a single success for the configured period is deactivated', async () => {
    receiver.answer = answerWith(503);
    const short = newWorker({ deactivateAfterMs: 2 * HOUR });
    const { hook } = await oneFailedNotification();
    for (let i = 0; i < 12; i++) {
      await short.drain();
      clock.advance(30 * MINUTE);
    }
    await short.stop();
    const res = await t.request('GET', `/v2/webhooks/${hook.id}`);
    assert.equal(res.body.data.attributes.active, false);
    assert.match(res.body.data.attributes.deactivated_reason, /failed \(2 h without a success\)/);
    // Its pending notification is then given up, not sent.
    const before = receiver.received.length;
    clock.advance(7 * HOUR);
    await worker.drain();
    assert.equal(receiver.received.length, before);
  });

  test('redeliver sends any notification again, with a fresh set of retries', async () => {
    receiver.answer = answerWith(200);
    const { id } = await oneFailedNotification();
    await worker.drain();
    assert.equal(receiver.received.length, 1);

    const res = await t.request('POST', `/v2/webhook_notifications/${id}/redeliver`);
    assert.equal(res.status, 202);
    assert.equal(res.body.data.attributes.delivery_status, 'pending');
    await worker.drain();
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[1].json.data.id, id);
    const logs = (await t.db.query('SELECT attempt, succeeded FROM webhook_notification_logs WHERE webhook_notification_id = $1 ORDER BY attempt', [id])).rows;
    assert.deepEqual(logs, [{ attempt: 1, succeeded: true }, { attempt: 2, succeeded: true }]);
  });

  test('targets resolving to private addresses are refused at connect time unless insecure targets are allowed', async () => {
    const { id, hook } = await oneFailedNotification();
    // The API would refuse these URLs, so they are stored directly, as if DNS had changed since.
    await t.db.query('UPDATE webhooks SET url = $2 WHERE id = $1', [hook.id, `https://receiver.test:${receiver.port}/hooks`]);
    const strict = newWorker({}, { allowInsecure: false, lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    await strict.drain();
    await t.db.query('UPDATE webhooks SET url = $2 WHERE id = $1', [hook.id, `https://169.254.169.254/latest/meta-data`]);
    clock.advance(HOUR);
    await strict.drain();
    await strict.stop();
    assert.equal(receiver.received.length, 0);
    const logs = (await t.db.query('SELECT error FROM webhook_notification_logs WHERE webhook_notification_id = $1 ORDER BY attempt', [id])).rows;
    assert.match(logs[0].error, /refused: receiver\.test resolves to 127\.0\.0\.1/);
    assert.match(logs[1].error, /refused: 169\.254\.169\.254 is a non-public, special-purpose address \(linkLocal\)/);
  });
});

describe('a running worker', () => {
  test('delivers a new notification at once: the commit wakes it (LISTEN/NOTIFY), it does not wait for its next poll', async () => {
    await createWebhook(['tracking_request.failed']);
    const running = newWorker();
    running.start(10 * 60_000); // a poll every ten minutes: only the notification can wake it in time
    try {
      // Let the first (empty) look and LISTEN happen, then record an event.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const arrived = new Promise<void>((resolve) => {
        receiver.answer = (req, res) => {
          res.writeHead(204).end();
          resolve();
        };
      });
      await t.track('bill_of_lading', 'TEST-INVALID', 'TEST');
      await t.worker.drain();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('not delivered within 10 s: the worker was not woken')), 10_000);
      });
      await Promise.race([arrived, late]).finally(() => clearTimeout(timer));
      assert.equal(receiver.received[0].json.data.attributes.event, 'tracking_request.failed');
    } finally {
      await running.stop();
    }
  });
});

describe('workers that come and go', () => {
  test('a stopped worker hands its listening connection back to the pool as it took it, however often workers start and stop', async () => {
    // The error listeners on each connection the pool hands out: a worker that left its own on
    // the listening connection would add one more at every start and stop.
    const counts: number[] = [];
    const onAcquire = (client: { listenerCount(event: string): number }) => counts.push(client.listenerCount('error'));
    t.db.on('acquire', onAcquire);
    try {
      for (let i = 0; i < 12; i++) {
        const running = newWorker();
        running.start(60_000);
        await running.stop();
      }
    } finally {
      t.db.off('acquire', onAcquire);
    }
    assert.ok(counts.length >= 12, `${counts.length} connections handed out`);
    assert.deepEqual(new Set(counts).size, 1, `error listeners on the connections handed out: ${counts.join(', ')}`);
  });
});

describe('the notifications API', () => {
  test('lists newest first with pagination, includes on demand, and hides other accounts', async () => {
    await createWebhook(['tracking_request.failed', 'tracking_request.succeeded']);
    await t.track('bill_of_lading', 'TEST-WITHHELD', 'TEST');
    await t.worker.drain();
    const list = await t.request('GET', '/v2/webhook_notifications?page[size]=1&include=webhook,reference_object');
    assert.equal(list.status, 200);
    assert.equal(list.body.data.length, 1);
    assert.ok(list.body.meta.total >= 1);
    assert.ok(list.body.links.first);
    const types = list.body.included.map((r: any) => r.type);
    assert.ok(types.includes('webhook') && types.includes('tracking_request'), types.join());

    const bad = await t.request('GET', '/v2/webhook_notifications?include=nope');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].source.parameter, 'include');

    const other = await t.newAccount('Account B');
    const id = list.body.data[0].id;
    assert.equal((await t.request('GET', `/v2/webhook_notifications/${id}`, { key: other.key })).status, 404);
    assert.equal((await t.request('POST', `/v2/webhook_notifications/${id}/redeliver`, { key: other.key })).status, 404);
    assert.equal((await t.request('GET', '/v2/webhook_notifications', { key: other.key })).body.data.length, 0);
    assert.equal((await t.request('GET', '/v2/webhook_notifications/not-a-uuid')).status, 404);
  });
});
