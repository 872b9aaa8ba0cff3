// GET /metrics: scraped from real servers after real requests, a real tracking lookup against the
// sandbox carriers and a real webhook delivery, and read with an independent exposition parser.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { PromData, PromHistogramData } from 'prom2javascript';
import { loadConfig } from '../src/config/index.ts';
import { buildApp } from '../src/http/app.ts';
import { metricsOnApiPort, startMetricsServer } from '../src/http/metrics.ts';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { answerWith, startReceiver, type Receiver } from './support/receiver.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { parseExposition, type Exposition } from './support/prometheus.ts';

const TOKEN = 'metrics-token-0123456789-abcdef';

const parse = parseExposition;

/** The series of one metric family whose labels include `labels`. */
function series<T extends PromData | PromHistogramData>(exposition: Exposition, name: string, labels: Record<string, string> = {}): T[] {
  const family = exposition[name];
  assert.ok(family, `${name} is exposed`);
  return (family.data as T[]).filter((d) => Object.entries(labels).every(([k, v]) => d.labels[k] === v));
}
/** Observations of a histogram over every series matching `labels`. */
const count = (exposition: Exposition, name: string, labels: Record<string, string>) => series<PromHistogramData>(exposition, name, labels).reduce((n, s) => n + s.count, 0);
/** The value of the one series matching `labels`. */
const value = (exposition: Exposition, name: string, labels: Record<string, string> = {}) => {
  const [one, ...more] = series<PromData>(exposition, name, labels);
  assert.ok(one && more.length === 0, `one ${name} ${JSON.stringify(labels)}`);
  return one.value;
};

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _enc, done) {
    logLines.push(String(chunk));
    done();
  },
});

let t: TrackingHarness;
let receiver: Receiver;

async function scrape(base = t.baseUrl, token: string | null = TOKEN): Promise<Exposition> {
  const res = await fetch(`${base}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}

before(async () => {
  t = await startTrackingHarness([], { metricsEndpoint: { token: TOKEN }, logger: { level: 'trace', stream: logStream }, webhooks: { allowInsecure: true } });
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
  await t.close();
});

describe('GET /metrics on the API port, behind SVC_METRICS_TOKEN', () => {
  test('no token or a wrong one is a JSON:API 401; the right bearer token gets the exposition; the token is never logged', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, `Token ${TOKEN}`, TOKEN, `Token ${t.key}`]) {
      const res = await fetch(`${t.baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });
      assert.equal(res.status, 401, `authorization: ${authorization}`);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="svc metrics"');
      const body = (await res.json()) as { errors: { status: string; detail: string }[] };
      assert.equal(body.errors[0].status, '401');
    }
    const exposition = await scrape();
    assert.equal(exposition.svc_http_request_duration_seconds?.type, 'histogram');
    assert.ok(logLines.length > 0, 'requests were logged');
    assert.ok(!logLines.join('').includes(TOKEN.slice(4)), 'the metrics token (or most of it) is not in the log');
  });

  test('requests are counted by route pattern and status, unknown paths under one label, with latency buckets', async () => {
    const before = await scrape();
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) assert.equal((await t.request('GET', `/v2/shipments/${id}`)).status, 404);
    assert.equal((await t.request('GET', '/v2/parties')).status, 200);
    for (const path of [`/no/such/${ids[0]}`, `/no/such/${ids[1]}`]) assert.equal((await t.request('GET', path)).status, 404);

    const text = await scrape();
    const metric = 'svc_http_request_duration_seconds';
    const moved = (labels: Record<string, string>) => count(text, metric, labels) - count(before, metric, labels);
    assert.equal(moved({ method: 'GET', route: '/v2/shipments/:id', status: '404' }), 2);
    assert.equal(moved({ method: 'GET', route: '/v2/parties', status: '200' }), 1);
    assert.equal(moved({ method: 'GET', route: 'unmatched', status: '404' }), 2);
    const routes = series<PromHistogramData>(text, metric).map((s) => s.labels.route);
    assert.ok(!routes.some((route) => ids.some((id) => route.includes(id))), 'no raw URL becomes a label');
    const [shipment] = series<PromHistogramData>(text, metric, { route: '/v2/shipments/:id', status: '404' });
    assert.equal(shipment.buckets['+Inf'], shipment.count, 'a histogram with buckets');
    assert.ok((shipment.sum ?? 0) > 0, 'latency recorded');
  });

  test('tracking lookups against the sandbox carriers are counted by SCAC and outcome; the due backlog and its age before the worker runs', async () => {
    await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
    await t.track('bill_of_lading', 'TEST-TR-FAILED', 'TEST');
    t.clock.advance(90_000);
    let text = await scrape();
    assert.equal(value(text, 'svc_due_work', { queue: 'tracking_requests' }), 2);
    assert.equal(value(text, 'svc_due_work_oldest_age_seconds', { queue: 'tracking_requests' }), 90);

    await t.worker.drain();
    text = await scrape();
    assert.equal(count(text, 'svc_tracking_lookup_duration_seconds', { scac: 'TEST', outcome: 'found' }), 1);
    assert.equal(count(text, 'svc_tracking_lookup_duration_seconds', { scac: 'TEST', outcome: 'not_found' }), 1);
    assert.equal(value(text, 'svc_due_work', { queue: 'tracking_requests' }), 0);
    assert.equal(value(text, 'svc_due_work_oldest_age_seconds', { queue: 'tracking_requests' }), 0);
    assert.ok(value(text, 'svc_db_pool_clients') >= 1, 'pool usage');
    assert.ok(value(text, 'svc_db_pool_idle_clients') >= 0);
    assert.ok(value(text, 'svc_db_pool_waiting_clients') >= 0);
  });

  test('webhook deliveries to a real receiver are counted by outcome with their latency; due notifications wait in the backlog until then', async () => {
    const hook = await t.request('POST', '/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url: receiver.url, events: ['tracking_request.succeeded'] } } } });
    assert.equal(hook.status, 201, hook.text);
    await t.track('bill_of_lading', 'TEST-DIRECT', 'TEST');
    await t.track('bill_of_lading', 'TEST-TS1', 'TEST');
    await t.worker.drain();
    t.clock.advance(30_000);
    let text = await scrape();
    assert.equal(value(text, 'svc_due_work', { queue: 'webhook_notifications' }), 2);
    assert.equal(value(text, 'svc_due_work_oldest_age_seconds', { queue: 'webhook_notifications' }), 30);

    const delivery = new DeliveryWorker({ db: t.db, clock: t.clock, allowInsecure: true, random: () => 0.5, policy: { timeoutMs: 2000, concurrency: 1 }, metrics: t.metrics });
    receiver.answer = answerWith(200, 'ok');
    await delivery.runDue(1);
    receiver.answer = answerWith(500, 'no');
    await delivery.runDue(1);
    await delivery.stop();
    assert.equal(receiver.received.length, 2, 'both reached the receiver');

    text = await scrape();
    assert.equal(count(text, 'svc_webhook_delivery_duration_seconds', { outcome: 'succeeded' }), 1);
    assert.equal(count(text, 'svc_webhook_delivery_duration_seconds', { outcome: 'will_retry' }), 1);
    assert.equal(value(text, 'svc_due_work', { queue: 'webhook_notifications' }), 0, 'the retry is not due yet');
  });
});

describe('where metrics are served', () => {
  test('by default nowhere: GET /metrics on the API port is a 404', async () => {
    const config = loadConfig({});
    assert.equal(metricsOnApiPort(config), undefined);
    const app = await buildApp({ db: t.db, clock: t.clock, metricsEndpoint: metricsOnApiPort(config) });
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    await app.close();
    assert.equal(res.statusCode, 404);
  });

  test('SVC_METRICS_PORT: a loopback listener of its own, the API port serves none; with a token there too', async () => {
    const config = loadConfig({ SVC_METRICS_PORT: '0' });
    assert.equal(config.SVC_METRICS_HOST, '127.0.0.1');
    assert.equal(metricsOnApiPort(config), undefined);
    assert.equal(metricsOnApiPort(loadConfig({ SVC_METRICS_PORT: '0', SVC_METRICS_TOKEN: TOKEN })), undefined);

    const open = await startMetricsServer(t.metrics, config);
    const guarded = await startMetricsServer(t.metrics, loadConfig({ SVC_METRICS_PORT: '0', SVC_METRICS_TOKEN: TOKEN }));
    try {
      assert.ok(open && guarded);
      assert.match(open.listeningOrigin, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok((await scrape(open.listeningOrigin, null)).svc_due_work);
      assert.equal((await fetch(`${guarded.listeningOrigin}/metrics`)).status, 401);
      assert.ok((await scrape(guarded.listeningOrigin)).svc_due_work);
      const other = await fetch(`${open.listeningOrigin}/v2/parties`);
      assert.equal(other.status, 404);
      assert.equal(((await other.json()) as { errors: unknown[] }).errors.length, 1, 'a JSON:API error');
    } finally {
      await open?.close();
      await guarded?.close();
    }
  });

  test('each app counts into its own registry, so apps in one process do not mix their counts', async () => {
    const other = await buildApp({ db: t.db, clock: t.clock, metricsEndpoint: {} });
    await other.inject({ method: 'GET', url: '/healthz' });
    const text = await parse((await other.inject({ method: 'GET', url: '/metrics' })).body);
    await other.close();
    assert.equal(count(text, 'svc_http_request_duration_seconds', { route: '/healthz' }), 1);
    assert.equal(series(text, 'svc_http_request_duration_seconds', { route: '/v2/parties' }).length, 0, "the harness app's requests are not here");
  });

  test('a weak SVC_METRICS_TOKEN stops start-up without echoing it', () => {
    assert.throws(
      () => loadConfig({ SVC_METRICS_TOKEN: 'short-secret' }),
      (err: Error) => /SVC_METRICS_TOKEN: must be 16 to 256/.test(err.message) && !err.message.includes('short-secret'),
    );
  });
});
