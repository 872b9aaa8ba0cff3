// Live updates from "an event is recorded" to "a browser's stream receives it": recordEvents
// notifies the live channel on commit, a LiveEventsHub on another pool (another svc process)
// hands the change to the account's subscribers only, and streamLiveEvents writes it as SSE.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { domainEvent } from '../src/domain/events/domain-event.ts';
import type { EventName } from '../src/domain/events/vocabulary.ts';
import { LiveEventsHub, type LiveHubState, type LiveMessage } from '../src/services/live-events.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool, type Db } from '../src/store/db.ts';
import { recordEvents } from '../src/store/domain-events.ts';
import { endLiveStreamsOnClose, streamLiveEvents } from '../src/web/sse.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { startTrackingHarness } from './support/tracking.ts';

// Generous: a wait that runs out fails the test rather than hanging it.
const WAIT_MS = 10_000;

/** Resolves with the first value `take` accepts among those pushed, now or later. */
class Inbox<T> {
  readonly items: T[] = [];
  #waiters: { take: (item: T) => boolean; resolve: (item: T) => void }[] = [];
  push = (item: T): void => {
    this.items.push(item);
    for (const w of [...this.#waiters]) {
      if (!w.take(item)) continue;
      this.#waiters.splice(this.#waiters.indexOf(w), 1);
      w.resolve(item);
    }
  };
  next(take: (item: T) => boolean, what: string): Promise<T> {
    const found = this.items.find(take);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.items)}`)), WAIT_MS);
      this.#waiters.push({ take, resolve: (item) => (clearTimeout(timer), resolve(item)) });
    });
  }
}

const isChange = (event: EventName, shipmentId?: string) => (m: LiveMessage) => m.kind === 'change' && m.change.event === event && (!shipmentId || m.change.shipmentId === shipmentId);

describe('live events', () => {
  let database: TestDatabase;
  /** The writer's pool (a tracking worker's process); hubs run on pools of their own. */
  let writer: Db;
  const pools: Db[] = [];
  const hubs: LiveEventsHub[] = [];
  let accountA: string;
  let accountB: string;

  before(async () => {
    database = await freshDatabase();
    writer = database.db;
    accountA = (await insertAccount(writer, 'Live A')).id;
    accountB = (await insertAccount(writer, 'Live B')).id;
  });
  after(async () => {
    // A hub left listening by a failed test would keep its pool from ending.
    await Promise.all(hubs.map((h) => h.close()));
    await Promise.all(pools.map((p) => p.end()));
    await database.drop();
  });

  /** A hub in "another process": a pool of its own on the same database. */
  function newHub(states?: Inbox<LiveHubState>): { hub: LiveEventsHub; pool: Db } {
    const pool = createPool(database.url, 2);
    pools.push(pool);
    const hub = new LiveEventsHub(pool, { idleMs: 0, backoffMs: 10, maxBackoffMs: 100, onStateChange: states?.push });
    hubs.push(hub);
    return { pool, hub };
  }

  async function record(accountId: string, name: EventName, ids: { shipment?: string; container?: string; reference?: string } = {}): Promise<void> {
    await recordEvents(writer, [domainEvent(name, { account_id: accountId, reference_id: ids.reference ?? randomUUID(), shipment_id: ids.shipment ?? null, container_id: ids.container ?? null })], new Date());
  }

  test('a recorded event reaches a subscriber of a hub on another pool, with the ids a page needs', async () => {
    const { hub } = newHub();
    const inbox = new Inbox<LiveMessage>();
    const unsubscribe = hub.subscribe(accountA, inbox.push);
    await hub.whenListening();
    const shipment = randomUUID();
    const container = randomUUID();
    const request = randomUUID();
    await record(accountA, 'tracking_request.succeeded', { shipment, reference: request });
    await record(accountA, 'container.transport.vessel_departed', { shipment, container });
    const succeeded = await inbox.next(isChange('tracking_request.succeeded'), 'tracking_request.succeeded');
    assert.deepEqual(succeeded, { kind: 'change', change: { accountId: accountA, event: 'tracking_request.succeeded', shipmentId: shipment, containerId: null, trackingRequestId: request } });
    const departed = await inbox.next(isChange('container.transport.vessel_departed'), 'vessel_departed');
    assert.deepEqual(departed, { kind: 'change', change: { accountId: accountA, event: 'container.transport.vessel_departed', shipmentId: shipment, containerId: container, trackingRequestId: null } });
    unsubscribe();
    await hub.close();
  });

  test('several events in one statement: one notification each; nothing is sent for a rolled-back transaction', async () => {
    const { hub } = newHub();
    const inbox = new Inbox<LiveMessage>();
    hub.subscribe(accountA, inbox.push);
    await hub.whenListening();
    const rolledBack = randomUUID();
    const client = await writer.connect();
    try {
      await client.query('BEGIN');
      await recordEvents(client, [domainEvent('shipment.estimated.arrival', { account_id: accountA, reference_id: randomUUID(), shipment_id: rolledBack })], new Date());
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const shipment = randomUUID();
    const containers = [randomUUID(), randomUUID(), randomUUID()];
    await recordEvents(writer, containers.map((c) => domainEvent('container.updated', { account_id: accountA, reference_id: randomUUID(), shipment_id: shipment, container_id: c })), new Date());
    for (const c of containers) await inbox.next((m) => m.kind === 'change' && m.change.containerId === c, `container.updated of ${c}`);
    // Notifications arrive in commit order: the rolled-back one would have come before these.
    assert.ok(!inbox.items.some((m) => m.kind === 'change' && m.change.shipmentId === rolledBack));
    await hub.close();
  });

  test("account A's subscriber never sees account B's events", async () => {
    const { hub } = newHub();
    const a = new Inbox<LiveMessage>();
    const b = new Inbox<LiveMessage>();
    hub.subscribe(accountA, a.push);
    hub.subscribe(accountB, b.push);
    await hub.whenListening();
    const shipmentB = randomUUID();
    const shipmentA = randomUUID();
    await record(accountB, 'shipment.estimated.arrival', { shipment: shipmentB });
    await record(accountA, 'shipment.estimated.arrival', { shipment: shipmentA });
    await b.next(isChange('shipment.estimated.arrival', shipmentB), "B's event on B");
    // A's own event was committed after B's, so anything of B's sent to A would be here by now.
    await a.next(isChange('shipment.estimated.arrival', shipmentA), "A's event on A");
    assert.ok(a.items.every((m) => m.kind === 'change' && m.change.accountId === accountA), JSON.stringify(a.items));
    assert.ok(b.items.every((m) => m.kind === 'change' && m.change.accountId === accountB), JSON.stringify(b.items));
    await hub.close();
  });

  test('unsubscribe stops delivery; the connection is released when the last subscriber leaves, and made again for the next', async () => {
    const states = new Inbox<LiveHubState>();
    const { hub, pool } = newHub(states);
    const gone = new Inbox<LiveMessage>();
    const staying = new Inbox<LiveMessage>();
    const leave = hub.subscribe(accountA, gone.push);
    const stay = hub.subscribe(accountA, staying.push);
    await hub.whenListening();
    leave();
    const shipment = randomUUID();
    await record(accountA, 'tracking_request.tracking_stopped', { shipment });
    await staying.next(isChange('tracking_request.tracking_stopped', shipment), 'tracking_stopped on the remaining subscriber');
    assert.deepEqual(gone.items, []);

    assert.equal(pool.totalCount - pool.idleCount, 1, 'the hub holds one connection while listening');
    stay();
    await states.next((s) => s === 'released', 'the connection released');
    assert.equal(hub.listening, false);
    assert.equal(pool.totalCount - pool.idleCount, 0, 'no connection is held once no one listens');

    const again = new Inbox<LiveMessage>();
    hub.subscribe(accountA, again.push);
    await hub.whenListening();
    await record(accountA, 'tracking_request.tracking_stopped', { shipment });
    await again.next(isChange('tracking_request.tracking_stopped', shipment), 'tracking_stopped after resubscribing');
    assert.deepEqual(again.items.filter((m) => m.kind === 'resync'), [], 'an idle release is no outage: no resync');
    await hub.close();
    assert.equal(pool.totalCount - pool.idleCount, 0, 'close releases the connection');
    assert.throws(() => hub.subscribe(accountA, () => {}), /closed/);
  });

  test('after the listening connection is terminated, subscribers are told to resync and delivery resumes', async () => {
    const states = new Inbox<LiveHubState>();
    const { hub } = newHub(states);
    const inbox = new Inbox<LiveMessage>();
    hub.subscribe(accountA, inbox.push);
    await hub.whenListening();
    const pid = hub.listenerPid;
    assert.ok(pid);
    const terminated = await writer.query('SELECT pg_terminate_backend($1) AS ok', [pid]);
    assert.equal(terminated.rows[0].ok, true);
    await states.next((s) => s === 'lost', 'the connection lost');
    await inbox.next((m) => m.kind === 'resync', 'a resync');
    assert.notEqual(hub.listenerPid, pid);
    const shipment = randomUUID();
    await record(accountA, 'shipment.estimated.arrival', { shipment });
    await inbox.next(isChange('shipment.estimated.arrival', shipment), 'an event after reconnecting');
    await hub.close();
  });

  test('an SSE stream over HTTP gets `event: change` for its filter, heartbeats, and is cleaned up when the client aborts or the server closes', { timeout: 30_000 }, async () => {
    const states = new Inbox<LiveHubState>();
    const { hub } = newHub(states);
    const watched = randomUUID();
    const app = Fastify();
    endLiveStreamsOnClose(app);
    app.get('/live', (req, reply) => streamLiveEvents(req, reply, hub, accountA, { filter: (c) => c.shipmentId === watched, heartbeatMs: 5 }));
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const open = async (signal?: AbortSignal) => {
        const res = await fetch(`${origin}/live`, { signal });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
        assert.match(res.headers.get('cache-control') ?? '', /no-cache/);
        assert.equal(res.headers.get('x-accel-buffering'), 'no');
        const text = new Inbox<string>();
        let received = '';
        const ended = (async () => {
          const decoder = new TextDecoder();
          for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
            received += decoder.decode(chunk, { stream: true });
            text.push(received);
          }
        })().catch(() => {});
        return { text, ended };
      };

      const aborter = new AbortController();
      const stream = await open(aborter.signal);
      await stream.text.next((t) => t.startsWith('retry: '), 'the retry line');
      await hub.whenListening();
      await record(accountA, 'shipment.estimated.arrival', { shipment: randomUUID() });
      await record(accountB, 'shipment.estimated.arrival', { shipment: watched });
      await record(accountA, 'shipment.estimated.arrival', { shipment: watched });
      const got = await stream.text.next((t) => t.includes('event: change'), 'an event: change');
      const messages = got.split('\n\n').filter((m) => m.startsWith('event: '));
      assert.equal(messages.length, 1, got);
      assert.deepEqual(JSON.parse(messages[0].replace('event: change\ndata: ', '')), { event: 'shipment.estimated.arrival', shipment_id: watched, container_id: null, tracking_request_id: null });
      await stream.text.next((t) => t.includes(': heartbeat\n\n'), 'a heartbeat');
      aborter.abort();
      await states.next((s) => s === 'released', 'the stream unsubscribed when the client left');

      const second = await open();
      await second.text.next((t) => t.startsWith('retry: '), 'the retry line of a second stream');
      // app.close() would wait forever for an open stream; the server ends it instead.
      await app.close();
      await second.ended;
      assert.equal(hub.listening, false);
    } finally {
      await app.close();
      await hub.close();
    }
  });
});

test('tracking TEST-TR-SUCCEEDED: the live change names the request and the shipment it became, already committed', async () => {
  const t = await startTrackingHarness();
  const pool = createPool(t.database.url, 2);
  const hub = new LiveEventsHub(pool, { idleMs: 0 });
  try {
    const inbox = new Inbox<LiveMessage>();
    hub.subscribe(t.accountId, inbox.push);
    await hub.whenListening();
    const requestId = await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
    await t.worker.drain();
    const m = await inbox.next((x) => x.kind === 'change' && x.change.event === 'tracking_request.succeeded', 'tracking_request.succeeded');
    assert.equal(m.kind === 'change' && m.change.trackingRequestId, requestId);
    const shipmentId = m.kind === 'change' ? m.change.shipmentId : null;
    assert.ok(shipmentId);
    // What the page fetches on the change already shows the link (written in the event's transaction).
    const res = await t.request('GET', `/v2/tracking_requests/${requestId}`);
    assert.equal(res.body.data.attributes.status, 'created');
    assert.equal(res.body.data.relationships.tracked_object.data.id, shipmentId);
  } finally {
    await hub.close();
    await pool.end();
    await t.close();
  }
});
