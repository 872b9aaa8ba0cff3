// The event vocabulary is one table: the catalogue, the examples, the notification includes and
// the store's records must all agree with it, and an event is recorded in the transaction of the
// change it describes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventName } from '../src/domain/events/vocabulary.ts';
import { EVENT_CATEGORIES, EVENT_NAMES, EVENTS } from '../src/domain/events/vocabulary.ts';
import type { NewEstimatedEvent, TransportEventName } from '../src/domain/tracking/types.ts';
import { WEBHOOK_EVENT_CATEGORIES, WEBHOOK_EVENT_NAMES, isWebhookEvent } from '../src/domain/webhooks/events.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { deactivateWebhook, insertWebhook } from '../src/store/webhooks.ts';
import { exampleNotification } from '../src/webhooks/examples.ts';
import { deliveryIncludes } from '../src/webhooks/notification-document.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';

// The diff engine's event names are names of the vocabulary (a compile-time check: tsc runs in npm test).
const fromDiff: EventName[] = [] as (TransportEventName | NewEstimatedEvent['event'])[];

const subscribable = EVENT_NAMES.filter((name) => EVENTS[name].subscribable);

test('the catalogue lists exactly the subscribable events, each in its category', () => {
  assert.equal(fromDiff.length, 0);
  assert.deepEqual([...WEBHOOK_EVENT_NAMES].sort(), [...subscribable].sort());
  assert.deepEqual(WEBHOOK_EVENT_CATEGORIES.map((c) => c.id), EVENT_CATEGORIES.map((c) => c.id));
  for (const category of WEBHOOK_EVENT_CATEGORIES) {
    assert.ok(category.events.length > 0, `${category.id} is not empty`);
    for (const event of category.events) {
      assert.equal(EVENTS[event.name].category, category.id);
      assert.equal(event.description, EVENTS[event.name].description);
    }
  }
  for (const name of EVENT_NAMES) {
    assert.equal(isWebhookEvent(name), EVENTS[name].subscribable, name);
    // An event no webhook can subscribe to has no place in the catalogue.
    assert.equal(EVENTS[name].category === null, !EVENTS[name].subscribable, name);
  }
  assert.ok(!isWebhookEvent('webhook.deactivated'));
});

test('every subscribable event has an example pointing at the reference type and includes of the table', async () => {
  for (const name of subscribable) {
    const { data, included } = await exampleNotification(name);
    assert.equal(data.attributes?.event, name);
    const reference = (data.relationships?.reference_object as { data: { type: string; id: string } }).data;
    assert.equal(reference.type, EVENTS[name].reference, name);
    assert.ok(included.some((r) => r.type === reference.type && r.id === reference.id), `${name}: the reference object is included`);
    assert.deepEqual(deliveryIncludes(name), ['reference_object', ...EVENTS[name].includes.map((p) => `reference_object.${p}`)]);
  }
  for (const name of EVENT_NAMES.filter((n) => !EVENTS[n].subscribable)) {
    await assert.rejects(exampleNotification(name), /not a webhook event/, `${name} has no example`);
  }
});

let database: TestDatabase;
forFile(() => freshDatabase(), (s) => (database = s), (s) => s.drop());

test('webhook.deactivated is recorded in the transaction that deactivates the webhook, once', async () => {
  const { db } = database;
  const at = new Date('2026-03-01T12:00:00Z');
  const account = await insertAccount(db, 'vocabulary');
  const hook = await insertWebhook(db, account.id, { url: 'https://example.com/hook', active: true, events: ['tracking_request.failed'], headers: null, secret: 'x'.repeat(64) }, at);

  assert.equal(await deactivateWebhook(db, hook.id, 'a test', at), true);
  assert.equal(await deactivateWebhook(db, hook.id, 'again', at), false);
  // Rows written by one transaction carry its id as xmin.
  const { rows: webhook } = await db.query<{ xmin: string }>('SELECT xmin FROM webhooks WHERE id = $1', [hook.id]);
  const { rows: events } = await db.query<{ xmin: string; name: string; reference_type: string; account_id: string }>(
    'SELECT xmin, name, reference_type, account_id FROM domain_events WHERE reference_id = $1',
    [hook.id],
  );
  assert.equal(events.length, 1);
  const [{ xmin, ...event }] = events;
  assert.deepEqual(event, { name: 'webhook.deactivated', reference_type: 'webhook', account_id: account.id });
  assert.equal(xmin, webhook[0].xmin);
});
