// Example notifications and test deliveries through the real HTTP server: every event's example
// is complete (its reference object and every record the delivery includes) and shaped like real
// records; POST /v2/webhooks/trigger reaches a real receiver on loopback, which checks the body and
// both signatures with code of its own (openssl, the standardwebhooks package), not svc's.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, mock, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_EVENT_NAMES } from '../src/domain/webhooks/events.ts';
import { insertShipment, upsertContainer } from '../src/store/shipments.ts';
import { USER_AGENT } from '../src/webhooks/delivery-request.ts';
import { deliveryIncludes } from '../src/webhooks/notification-document.ts';
import { defaultWebhookSettings } from '../src/webhooks/settings.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { answerWith, opensslHmac, startReceiver, type Received, type Receiver } from './support/receiver.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

/** A request a second later than the last, so the rate limit (100 a minute) never bites. */
function call(method: string, path: string, options?: Parameters<TestApp['request']>[2]) {
  t.clock.advance(1000);
  return t.request(method, path, options);
}

const examplePath = (event: string) => `/v2/webhook_notifications/examples?event=${encodeURIComponent(event)}`;

async function example(event: string): Promise<any> {
  const res = await call('GET', examplePath(event));
  assert.equal(res.status, 200, `${event}: ${res.text}`);
  return res.body;
}

/** The reference object type the reference service documents for each event (digest 1.8), as svc maps it. */
function expectedReferenceType(event: string): string {
  if (event.startsWith('tracking_request.')) return 'tracking_request';
  // svc reports the LFD and POD terminal changes with the changeset that carries them.
  const changeset = ['container.updated', 'container.pickup_lfd.changed', 'container.pod_terminal_changed'];
  if (changeset.includes(event)) return 'container_updated_event';
  if (event.startsWith('document.')) return 'document';
  return { 'shipment.estimated.arrival': 'estimated_event', 'container.created': 'container_created_event' }[event] ?? 'transport_event';
}

const key = (r: { type: string; id: string }) => `${r.type}:${r.id}`;
const identifiers = (data: any): any[] => (Array.isArray(data) ? data : data ? [data] : []);

describe('GET /v2/webhook_notifications/examples', () => {
  test('every event has an example whose reference object and delivery includes are all present', async () => {
    assert.ok(WEBHOOK_EVENT_NAMES.length > 30);
    for (const event of WEBHOOK_EVENT_NAMES) {
      const res = await call('GET', examplePath(event));
      assert.equal(res.status, 200, `${event}: ${res.text}`);
      assert.match(res.headers.get('content-type')!, /^application\/vnd\.api\+json/);
      const { data, included, links } = res.body;
      assert.equal(links.self, t.baseUrl + examplePath(event));

      assert.equal(data.type, 'webhook_notification');
      assert.deepEqual(Object.keys(data.attributes).sort(), ['created_at', 'delivery_status', 'event', 'id', 'sequence']);
      assert.equal(data.attributes.id, data.id);
      assert.equal(data.attributes.event, event);
      assert.equal(data.attributes.delivery_status, 'pending');
      assert.match(data.attributes.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      assert.deepEqual(Object.keys(data.relationships).sort(), ['reference_object', 'webhook', 'webhook_notification_logs']);
      assert.equal(data.relationships.webhook.data.type, 'webhook');
      assert.deepEqual(data.relationships.webhook_notification_logs.data, []);
      assert.equal(data.relationships.reference_object.data.type, expectedReferenceType(event), event);
      if (expectedReferenceType(event) === 'transport_event') {
        const reference = included.find((r: any) => key(r) === key(data.relationships.reference_object.data));
        assert.equal(reference.attributes.event, event, 'a transport event carries the event name');
      }
      const perContainer = !['tracking_request', 'estimated_event', 'document'].includes(expectedReferenceType(event));
      assert.equal(Number.isInteger(data.attributes.sequence), perContainer, `${event}: sequence ${data.attributes.sequence}`);

      // Walk each include path of a delivery: every record it names is in `included`.
      const byKey = new Map<string, any>(included.map((r: any) => [key(r), r]));
      assert.equal(byKey.size, included.length, `${event}: no record is included twice`);
      assert.ok(!byKey.has(key(data)) && !included.some((r: any) => r.type === 'webhook'), `${event}: neither the notification nor its webhook is included`);
      const reached = new Set<string>();
      for (const path of deliveryIncludes(event)) {
        let level = [data];
        for (const segment of path.split('.')) {
          level = level.flatMap((r) => identifiers(r.relationships?.[segment]?.data)).map((ident) => {
            const found = byKey.get(key(ident));
            assert.ok(found, `${event}: ${path} names ${key(ident)}, which is not included`);
            reached.add(key(ident));
            return found;
          });
        }
      }
      assert.ok(reached.has(key(data.relationships.reference_object.data)), `${event}: the reference object is included`);
      assert.deepEqual([...byKey.keys()].filter((k) => !reached.has(k)), [], `${event}: nothing is included that no include path names`);
    }
  });

  test('the included records follow the documented examples for a few events', async () => {
    const types = async (event: string) => (await example(event)).included.map((r: any) => r.type).sort();
    assert.deepEqual(await types('tracking_request.succeeded'), ['container', 'container', 'shipment', 'tracking_request']);
    assert.deepEqual(await types('tracking_request.failed'), ['tracking_request']);
    assert.deepEqual(await types('tracking_request.tracking_stopped'), ['shipment', 'tracking_request']);
    assert.deepEqual(await types('shipment.estimated.arrival'), ['estimated_event', 'port', 'shipment', 'vessel']);
    assert.deepEqual(await types('container.updated'), ['container', 'container_updated_event', 'port', 'shipment', 'terminal']);
    assert.deepEqual(await types('container.transport.vessel_departed'), ['container', 'port', 'shipment', 'transport_event', 'vessel']);
    assert.deepEqual(await types('container.transport.full_out'), ['container', 'port', 'shipment', 'transport_event']);
  });

  test('the same event always gives the same example; different events different notification ids', async () => {
    const a = await example('container.transport.vessel_arrived');
    const b = await example('container.transport.vessel_arrived');
    assert.deepEqual(a, b);
    const c = await example('container.transport.vessel_departed');
    assert.notEqual(c.data.id, a.data.id);
  });

  test('the example shipment and container have exactly the attributes and relationships of real ones', async () => {
    const shipment = await insertShipment(t.db, { account_id: t.accountId, scac: 'COSU', request_type: 'bill_of_lading', request_number: 'COSU1111111111', ref_numbers: [], customer_id: null, at: t.clock.now() });
    const { row: container } = await upsertContainer(t.db, { account_id: t.accountId, shipment_id: shipment.id, number: 'CSNU7301428', ref_numbers: [], state: {}, at: t.clock.now() });
    const realShipment = (await call('GET', `/v2/shipments/${shipment.id}`)).body.data;
    const realContainer = (await call('GET', `/v2/containers/${container.id}`)).body.data;

    const { included } = await example('tracking_request.succeeded');
    const shape = (r: any) => ({ type: r.type, attributes: Object.keys(r.attributes).sort(), relationships: Object.keys(r.relationships).sort(), links: Object.keys(r.links) });
    assert.deepEqual(shape(included.find((r: any) => r.type === 'shipment')), shape(realShipment));
    for (const c of included.filter((r: any) => r.type === 'container')) assert.deepEqual(shape(c), shape(realContainer));
  });

  test('ports, metro areas, terminal and vessel are the reference records svc serves, id for id', async () => {
    const events = ['shipment.estimated.arrival', 'container.updated', 'container.transport.vessel_departed', 'container.transport.transshipment_arrived', 'container.transport.rail_arrived'];
    const records = new Map<string, any>();
    for (const event of events) for (const r of (await example(event)).included) records.set(key(r), r);
    const reference = [...records.values()].filter((r) => ['port', 'metro_area', 'terminal', 'vessel'].includes(r.type));
    // Chicago, where the rail arrives, as a metro area; the seaports as ports.
    assert.deepEqual(reference.map((r) => `${r.type}:${r.attributes.code ?? r.attributes.firms_code ?? r.attributes.imo}`).sort(), [
      'metro_area:USCHI',
      'port:CNSHA',
      'port:KRPUS',
      'port:USLAX',
      'terminal:Y773',
      'vessel:9795610',
    ]);
    for (const record of reference) {
      const res = await call('GET', `/v2/${record.type === 'metro_area' ? 'metro_areas' : `${record.type}s`}/${record.id}`);
      assert.equal(res.status, 200, `${record.type} ${record.id}: ${res.text}`);
      assert.deepEqual(record, res.body.data);
    }
  });

  test('a missing, empty or unknown event is a 400 naming the parameter', async () => {
    for (const query of ['', '?event=', '?event=container.exploded', '?event=a&event=b']) {
      const res = await call('GET', `/v2/webhook_notifications/examples${query}`);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.errors.length, 1);
      assert.equal(res.body.errors[0].status, '400');
      assert.deepEqual(res.body.errors[0].source, { parameter: 'event' });
    }
  });

  test('both routes are described in the OpenAPI document', async () => {
    const { paths } = (await call('GET', '/v2/openapi.json')).body;
    const get = paths['/v2/webhook_notifications/examples'].get;
    assert.ok(get.summary);
    assert.deepEqual(get.parameters.find((p: any) => p.name === 'event').schema.enum, [...WEBHOOK_EVENT_NAMES]);
    assert.ok(get.responses['200'].content['application/vnd.api+json'].schema);
    const post = paths['/v2/webhooks/trigger'].post;
    assert.ok(post.summary);
    assert.deepEqual(post.requestBody.content['application/json'].schema.required.sort(), ['event', 'url']);
    assert.ok(post.responses['200'].content['application/json'].schema.properties.request_body);
  });

  test('an API key is required', async () => {
    const res = await call('GET', examplePath('container.created'), { key: null });
    assert.equal(res.status, 401);
    assert.equal(res.body.errors[0].status, '401');
  });
});

// ---- a receiver -------------------------------------------------------------------------------

const TEXT = { 'content-type': 'text/plain' };
let receiver: Receiver;
let receiverUrl: string;
const received: Received[] = [];

const trigger = (body: unknown, key?: string | null) => call('POST', '/v2/webhooks/trigger', { body, key, headers: { 'content-type': 'application/json' } });

describe('POST /v2/webhooks/trigger', () => {
  before(async () => {
    receiver = await startReceiver();
    receiver.received = received;
    receiverUrl = receiver.url;
    t.webhooks.allowInsecure = true;
  });
  after(async () => {
    await receiver.close();
  });

  function lastDelivery(): Received {
    assert.equal(received.length, 1, 'exactly one request reached the receiver');
    return received.pop()!;
  }

  test('sends the example as a delivery, signed both ways, and reports what happened', async () => {
    receiver.answer = answerWith(200, 'ok', TEXT);
    const secret = 'a1'.repeat(32); // 64 hex characters, like the secrets svc generates
    const event = 'container.transport.vessel_discharged';
    const res = await trigger({ url: receiverUrl, event, secret });
    const signedAt = t.clock.now();
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    const got = lastDelivery();

    // What the receiver got.
    assert.equal(got.method, 'POST');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['user-agent'], USER_AGENT);
    const delivered = JSON.parse(got.body);
    const { links: _links, ...shown } = await example(event);
    assert.deepEqual(delivered, shown, 'the body is the example document, as a delivery carries it (no links)');

    // Both signatures, checked without svc's code.
    assert.equal(got.headers['x-svc-webhook-signature'], opensslHmac(secret, got.body));
    assert.equal(got.headers['webhook-id'], delivered.data.id);
    const standardHeaders = { 'webhook-id': String(got.headers['webhook-id']), 'webhook-timestamp': String(got.headers['webhook-timestamp']), 'webhook-signature': String(got.headers['webhook-signature']) };
    // The library compares the timestamp with Date.now(); svc signed at its (test) clock's time.
    const now = mock.method(Date, 'now', () => signedAt.getTime());
    try {
      assert.deepEqual(new Webhook(secret).verify(got.body, standardHeaders), delivered);
      assert.throws(() => new Webhook(secret).verify(got.body + ' ', standardHeaders), /signature/i);
    } finally {
      now.mock.restore();
    }
    assert.equal(Number(got.headers['webhook-timestamp']), Math.floor(signedAt.getTime() / 1000));

    // What svc reports.
    const result = res.body;
    assert.deepEqual(Object.keys(result).sort(), ['error', 'request_body', 'request_headers', 'response_body', 'response_headers', 'status_code', 'succeeded', 'url']);
    assert.equal(result.url, receiverUrl);
    assert.equal(result.succeeded, true);
    assert.equal(result.error, null);
    assert.equal(result.status_code, 200);
    assert.equal(result.request_body, got.body, 'request_body is exactly the bytes sent');
    for (const [name, value] of Object.entries(result.request_headers)) assert.equal(got.headers[name], value, `request_headers.${name} was sent`);
    for (const name of ['content-type', 'user-agent', 'x-svc-webhook-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) assert.ok(name in result.request_headers, name);
    assert.equal(result.response_headers['content-type'], 'text/plain', "the receiver's answer headers");
    assert.equal(result.response_body, 'ok');
  });

  test('without a secret nothing is signed', async () => {
    receiver.answer = answerWith(204, '', TEXT);
    const res = await trigger({ url: receiverUrl, event: 'tracking_request.succeeded' });
    assert.equal(res.status, 200, res.text);
    const got = lastDelivery();
    for (const name of ['x-svc-webhook-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      assert.equal(got.headers[name], undefined, `${name} is not sent`);
      assert.equal(res.body.request_headers[name], undefined, `${name} is not reported`);
    }
    assert.equal(JSON.parse(got.body).data.attributes.event, 'tracking_request.succeeded');
    assert.equal(res.body.succeeded, true, '204 counts as delivered');
    assert.equal(res.body.status_code, 204);
  });

  test('a receiver answering 500 is a failed attempt, reported with its answer', async () => {
    receiver.answer = answerWith(500, 'receiver exploded', TEXT);
    const res = await trigger({ url: receiverUrl, event: 'container.updated', secret: 'b2'.repeat(32) });
    assert.equal(res.status, 200, res.text);
    lastDelivery();
    assert.equal(res.body.succeeded, false);
    assert.equal(res.body.status_code, 500);
    assert.equal(res.body.response_body, 'receiver exploded');
    assert.match(res.body.error, /500/);
  });

  test('a receiver gets the configured delivery timeout (SVC_WEBHOOK_TIMEOUT_MS) to answer', async () => {
    receiver.answer = () => {};
    t.webhooks.timeoutMs = 150;
    try {
      const res = await trigger({ url: receiverUrl, event: 'container.created' });
      assert.equal(res.status, 200, res.text);
      lastDelivery();
      assert.equal(res.body.succeeded, false);
      assert.equal(res.body.status_code, null);
      assert.match(res.body.error, /timed out after 150 ms/);
    } finally {
      t.webhooks.timeoutMs = defaultWebhookSettings.timeoutMs;
      receiver.answer = answerWith(200, 'ok', TEXT);
    }
  });

  test('a receiver that is not there: no status, an error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const res = await trigger({ url: `http://127.0.0.1:${port}/`, event: 'container.created' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.succeeded, false);
    assert.equal(res.body.status_code, null);
    assert.equal(res.body.response_body, null);
    assert.equal(typeof res.body.error, 'string');
  });

  test('invalid bodies are 422s with a pointer and a code, and send nothing', async () => {
    const cases: [unknown, string[]][] = [
      [{ event: 'container.created' }, ['/url blank']],
      [{ url: '  ', event: 'container.created' }, ['/url blank']],
      [{ url: 'not a url', event: 'container.created' }, ['/url invalid']],
      [{ url: 'ftp://hooks.example.com/', event: 'container.created' }, ['/url invalid']],
      [{ url: receiverUrl }, ['/event blank']],
      [{ url: receiverUrl, event: 'container.exploded' }, ['/event invalid']],
      [{ url: receiverUrl, event: 'container.created', secret: 42 }, ['/secret invalid']],
      [{ url: 7, event: '' }, ['/event blank', '/url invalid']],
    ];
    for (const [body, expected] of cases) {
      const res = await trigger(body);
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.deepEqual(res.body.errors.map((e: any) => `${e.source.pointer} ${e.code}`).sort(), expected, JSON.stringify(body));
      for (const e of res.body.errors) assert.equal(typeof e.detail, 'string');
    }
    const notObject = await trigger(['x']);
    assert.equal(notObject.status, 422);
    assert.equal(received.length, 0);
  });

  test('without insecure targets allowed, an http or loopback URL is refused at /url', async () => {
    t.webhooks.allowInsecure = false;
    try {
      for (const url of [receiverUrl, 'https://127.0.0.1/hooks']) {
        const res = await trigger({ url, event: 'container.created' });
        assert.equal(res.status, 422, res.text);
        assert.equal(res.body.errors[0].source.pointer, '/url');
        assert.equal(res.body.errors[0].code, 'invalid');
      }
    } finally {
      t.webhooks.allowInsecure = true;
    }
    assert.equal(received.length, 0);
  });

  test('an API key is required', async () => {
    const res = await trigger({ url: receiverUrl, event: 'container.created' }, null);
    assert.equal(res.status, 401);
    assert.equal(received.length, 0);
  });
});
