// The developer settings of the web app over real HTTP: API keys (shown once, working against
// /v2, revoked at once), webhooks (created, refused with the API's words next to the field,
// paused, changed, deleted, tested against a real receiver) and their notifications, delivered
// by the real delivery worker and redelivered from the page.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../src/clock.ts';
import { mountWeb } from '../src/main/web.ts';
import { maskApiKey } from '../src/services/api-keys.ts';
import { createUser } from '../src/services/users.ts';
import { listApiKeys } from '../src/store/accounts.ts';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import type { Browser } from 'playwright-core';
import { browserSkipReason, launchChromium, openPage, type WatchedPage } from './support/browser.ts';
import { answerWith, startReceiver, type Receiver } from './support/receiver.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { csrfTokenIn, WebClient, type Page } from './support/web.ts';

let t: TrackingHarness;
let receiver: Receiver;
let browser: WebClient;
let users = 0;

/** A signed-in browser of a user of `accountId`. */
async function signedIn(accountId: string): Promise<WebClient> {
  const email = `settings${++users}@example.com`;
  const password = 'correct horse battery';
  await createUser(t.db, t.clock, { accountId, email, password });
  const client = new WebClient(t.baseUrl);
  await client.signIn(email, password);
  return client;
}

/**
 * Posts a form whose fields may repeat (checkboxes) with the CSRF token of `formPage`. WebClient
 * hands `form` to URLSearchParams, which takes a list of pairs as well as a record.
 */
async function postForm(client: WebClient, formPage: string, action: string, fields: [string, string][]): Promise<Page> {
  const token = csrfTokenIn((await client.get(formPage)).text);
  return client.request('POST', action, { form: [['_csrf', token], ...fields] as unknown as Record<string, string> });
}

const apiWith = (key: string, path = '/v2/account') => fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Token ${key}` } });

/** The text of the message next to a field (FieldError's span). */
function fieldError(html: string, field: string): string | undefined {
  return new RegExp(`<span class="field-error" id="${field}-error">([^<]*)</span>`).exec(html)?.[1];
}

async function createWebhookOnPage(client: WebClient, url: string, events: string[], extra: [string, string][] = []): Promise<{ page: Page; id?: string }> {
  const page = await postForm(client, '/settings/webhooks/new', '/settings/webhooks', [['url', url], ...events.map((e): [string, string] => ['events', e]), ...extra]);
  return { page, id: /href="\/settings\/webhooks\/([0-9a-f-]{36})"/.exec(page.text)?.[1] };
}

const apiWebhook = async (id: string) => (await t.request('GET', `/v2/webhooks/${id}`)).body.data.attributes;

before(async () => {
  t = await startTrackingHarness([], { webhooks: { allowInsecure: true }, beforeListen: (app, _baseUrl, services) => mountWeb(app, services) });
  receiver = await startReceiver();
  browser = await signedIn(t.accountId);
});
after(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer = answerWith(200, 'ok');
});

describe('API keys', () => {
  test('a new key is shown once, works against /v2, and stops working as soon as it is revoked', async () => {
    const created = await browser.submit('/settings/api-keys', '/settings/api-keys', { name: 'ERP import' });
    assert.equal(created.status, 201);
    assert.equal(created.location, null, 'the key is answered, not redirected to');
    const key = /id="created-key"[^>]*value="(svc_[^"]+)"/.exec(created.text)?.[1];
    assert.ok(key, 'the page shows the new key');
    assert.equal((await apiWith(key)).status, 200);

    const again = await browser.get('/settings/api-keys');
    assert.equal(again.status, 200);
    assert.ok(!again.text.includes(key), 'a second load does not show the key');
    const masked = `${key.slice(0, 8)}…${key.slice(-4)}`;
    assert.ok(again.text.includes(masked), 'the list shows it masked');
    assert.match(again.text, /ERP import/);

    const id = (await listApiKeys(t.db, t.accountId)).find((k) => k.name === 'ERP import')!.id;
    const confirm = await browser.get(`/settings/api-keys/${id}/revoke`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /Revoke this key\?/);
    assert.equal((await apiWith(key)).status, 200, 'showing the confirmation revokes nothing');
    const revoked = await browser.submit(`/settings/api-keys/${id}/revoke`, `/settings/api-keys/${id}/revoke`, {});
    assert.equal(revoked.status, 303);
    assert.equal((await apiWith(key)).status, 401);
    const list = await browser.get(revoked.location!);
    assert.match(list.text, /is revoked: requests with it are refused/);
    assert.match(list.text, /badge bad">revoked/);
  });

  test("another account's key cannot be seen or revoked", async () => {
    const other = await t.newAccount('Account B');
    const theirs = (await listApiKeys(t.db, other.accountId))[0];
    assert.equal((await browser.get(`/settings/api-keys/${theirs.id}/revoke`)).status, 404);
    const token = csrfTokenIn((await browser.get('/settings/api-keys')).text);
    assert.equal((await browser.request('POST', `/settings/api-keys/${theirs.id}/revoke`, { form: { _csrf: token } })).status, 404);
    assert.equal((await browser.request('POST', '/settings/api-keys/not-an-id/revoke', { form: { _csrf: token } })).status, 404);
    assert.equal((await apiWith(other.key)).status, 200, 'their key still works');
    assert.ok(!(await browser.get('/settings/api-keys')).text.includes(maskApiKey(theirs)), 'their key is not listed');
  });

  test('an overlong name is refused next to the field; a form without its CSRF token creates nothing', async () => {
    const before = (await listApiKeys(t.db, t.accountId)).length;
    const long = await browser.submit('/settings/api-keys', '/settings/api-keys', { name: 'x'.repeat(101) });
    assert.equal(long.status, 422);
    assert.match(fieldError(long.text, 'name') ?? '', /too long: at most 100 characters/);
    assert.match(long.text, /aria-invalid="true"/);
    const forged = await browser.request('POST', '/settings/api-keys', { form: { name: 'sneaky' } });
    assert.equal(forged.status, 403);
    assert.equal((await listApiKeys(t.db, t.accountId)).length, before);
  });
});

describe('webhooks', () => {
  test("the API's refusals appear next to the field at fault, the values kept", async () => {
    const badUrl = await createWebhookOnPage(browser, 'not a url', ['tracking_request.succeeded']);
    assert.equal(badUrl.page.status, 422);
    assert.ok(fieldError(badUrl.page.text, 'url'), 'a message next to the URL');
    assert.equal(fieldError(badUrl.page.text, 'events'), undefined);
    assert.match(badUrl.page.text, /value="not a url"/);
    assert.match(badUrl.page.text, /value="tracking_request.succeeded" checked/);

    const noEvents = await createWebhookOnPage(browser, receiver.url, []);
    assert.equal(noEvents.page.status, 422);
    assert.match(fieldError(noEvents.page.text, 'events') ?? '', /at least one event/);

    const badHeader = await createWebhookOnPage(browser, receiver.url, ['tracking_request.succeeded'], [
      ['header_name_0', ''],
      ['header_value_0', ''],
      ['header_name_1', 'Content-Type'],
      ['header_value_1', 'text/plain'],
    ]);
    assert.equal(badHeader.page.status, 422);
    assert.ok(fieldError(badHeader.page.text, 'header_name_1'), 'the message is at the row the header was typed in');
    assert.equal((await t.request('GET', '/v2/webhooks')).body.data.length, 0, 'nothing was created');
  });

  test('the secret is shown once; pause, resume, change and delete act on the webhook', async () => {
    const { page, id } = await createWebhookOnPage(browser, receiver.url, ['tracking_request.succeeded', 'container.transport.vessel_arrived'], [
      ['header_name_0', 'X-Tenant'],
      ['header_value_0', 'acme'],
    ]);
    assert.equal(page.status, 201);
    assert.ok(id);
    const secret = /id="webhook-secret"[^>]*value="([0-9a-f]+)"/.exec(page.text)?.[1];
    const stored = await apiWebhook(id);
    assert.equal(secret, stored.secret);
    assert.deepEqual(stored.headers, [{ name: 'X-Tenant', value: 'acme' }]);
    const shown = await browser.get(`/settings/webhooks/${id}`);
    assert.equal(shown.status, 200);
    assert.ok(!shown.text.includes(stored.secret), 'the secret is not shown again');
    assert.match((await browser.get('/settings/webhooks')).text, new RegExp(`href="/settings/webhooks/${id}">${receiver.url.replace(/[.]/g, '[.]')}<`));

    const paused = await browser.submit(`/settings/webhooks/${id}`, `/settings/webhooks/${id}/active`, { active: 'false' });
    assert.equal(paused.status, 303);
    assert.equal((await apiWebhook(id)).active, false);
    assert.match((await browser.get(paused.location!)).text, /badge warn">paused/);
    await browser.submit(`/settings/webhooks/${id}`, `/settings/webhooks/${id}/active`, { active: 'true' });
    assert.equal((await apiWebhook(id)).active, true);

    const edited = await postForm(browser, `/settings/webhooks/${id}`, `/settings/webhooks/${id}`, [
      ['url', receiver.url],
      ['events', 'shipment.estimated.arrival'],
      ['header_name_0', ''],
      ['header_value_0', ''],
      ['header_name_1', 'X-Token'],
      ['header_value_1', 's3cret'],
    ]);
    assert.equal(edited.status, 303);
    const changed = await apiWebhook(id);
    assert.deepEqual(changed.events, ['shipment.estimated.arrival']);
    assert.deepEqual(changed.headers, [{ name: 'X-Token', value: 's3cret' }]);

    const refused = await postForm(browser, `/settings/webhooks/${id}`, `/settings/webhooks/${id}`, [['url', 'ftp://example.com/x'], ['events', 'shipment.estimated.arrival']]);
    assert.equal(refused.status, 422);
    assert.ok(fieldError(refused.text, 'url'));
    assert.equal((await apiWebhook(id)).url, receiver.url, 'a refused change changes nothing');

    assert.match((await browser.get(`/settings/webhooks/${id}/delete`)).text, /Delete this webhook\?/);
    const deleted = await browser.submit(`/settings/webhooks/${id}/delete`, `/settings/webhooks/${id}/delete`, {});
    assert.equal(deleted.status, 303);
    assert.equal((await browser.get(`/settings/webhooks/${id}`)).status, 404);
  });

  test("a test delivery reaches the receiver and the page shows the receiver's answer", async () => {
    const { id } = await createWebhookOnPage(browser, receiver.url, ['tracking_request.succeeded']);
    const sent = await browser.submit(`/settings/webhooks/${id}`, `/settings/webhooks/${id}/test`, { event: 'tracking_request.succeeded' });
    assert.equal(sent.status, 200);
    assert.equal(receiver.received.length, 1);
    assert.equal(receiver.received[0].json.data.attributes.event, 'tracking_request.succeeded');
    assert.match(sent.text, /Delivered\./);
    assert.match(sent.text, /HTTP 200/);

    receiver.answer = answerWith(503, 'down for maintenance');
    const failed = await browser.submit(`/settings/webhooks/${id}`, `/settings/webhooks/${id}/test`, { event: 'tracking_request.succeeded' });
    assert.match(failed.text, /Not delivered\./);
    assert.match(failed.text, /HTTP 503/);
    assert.match(failed.text, /down for maintenance/);

    const unknown = await browser.submit(`/settings/webhooks/${id}`, `/settings/webhooks/${id}/test`, { event: 'no.such.event' });
    assert.equal(unknown.status, 422);
    assert.match(unknown.text, /&quot;no.such.event&quot; is not a webhook event/);
    await browser.submit(`/settings/webhooks/${id}/delete`, `/settings/webhooks/${id}/delete`, {});
  });

  test("another account's webhook is not found", async () => {
    const other = await t.newAccount('Account C');
    const res = await t.request('POST', '/v2/webhooks', { key: other.key, body: { data: { type: 'webhook', attributes: { url: receiver.url, events: ['tracking_request.succeeded'] } } } });
    const theirs = res.body.data.id;
    assert.equal((await browser.get(`/settings/webhooks/${theirs}`)).status, 404);
    assert.equal((await browser.get(`/settings/webhooks/${theirs}/delete`)).status, 404);
    const token = csrfTokenIn((await browser.get('/settings/webhooks')).text);
    for (const action of ['', '/active', '/test', '/delete']) {
      const page = await browser.request('POST', `/settings/webhooks/${theirs}${action}`, { form: { _csrf: token, active: 'false', event: 'tracking_request.succeeded', url: 'https://example.com/', events: 'tracking_request.succeeded' } });
      assert.equal(page.status, 404, `POST ${action || '(edit)'}`);
    }
    assert.equal(receiver.received.length, 0);
    const still = await t.request('GET', `/v2/webhooks/${theirs}`, { key: other.key });
    assert.equal(still.body.data.attributes.active, true);
  });
});

describe('notifications', () => {
  test('a delivered notification shows its attempts, and Redeliver sends it again', async () => {
    const { id: webhookId } = await createWebhookOnPage(browser, receiver.url, ['tracking_request.succeeded']);
    await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
    await t.worker.drain();
    // Deliveries on a clock near real time: receivers compare the signed timestamp with their own.
    const delivery = new DeliveryWorker({ db: t.db, clock: new ManualClock(new Date()), allowInsecure: true, random: () => 0.5, policy: { timeoutMs: 2000 } });
    await delivery.drain();
    assert.equal(receiver.received.length, 1);
    const notificationId = receiver.received[0].json.data.id;

    const list = await browser.get('/settings/notifications');
    assert.equal(list.status, 200);
    assert.match(list.text, new RegExp(`href="/settings/notifications/${notificationId}"><code>tracking_request.succeeded</code>`));
    assert.match(list.text, /badge ok">succeeded/);
    assert.match(list.text, /1 attempt, last HTTP 200/);
    assert.match((await browser.get('/settings/notifications?status=succeeded')).text, /1 attempt, last HTTP 200/);
    assert.match((await browser.get(`/settings/notifications?webhook=${webhookId}`)).text, /1 attempt, last HTTP 200/);
    assert.match((await browser.get('/settings/notifications?status=failed')).text, /No notification matches these filters/);

    const detail = await browser.get(`/settings/notifications/${notificationId}`);
    assert.equal(detail.status, 200);
    assert.match(detail.text, /<h2>Delivery attempts<\/h2>/);
    assert.match(detail.text, /badge ok">delivered/);
    assert.match(detail.text, /<td>200<\/td><td>\d+ ms<\/td>/);

    receiver.answer = answerWith(500, 'try later');
    const redelivered = await browser.submit(`/settings/notifications/${notificationId}`, `/settings/notifications/${notificationId}/redeliver`, {});
    assert.equal(redelivered.status, 303);
    assert.match((await browser.get(redelivered.location!)).text, /Queued for delivery again/);
    assert.equal((await t.request('GET', `/v2/webhook_notifications/${notificationId}?include=webhook`)).body.data.attributes.delivery_status, 'pending');
    await delivery.drain();
    assert.equal(receiver.received.length, 2, 'the redelivery reached the receiver');
    const after = await browser.get(`/settings/notifications/${notificationId}`);
    assert.match(after.text, /<td>500<\/td>/);
    assert.match(after.text, /try later/);
    assert.match((await browser.get('/settings/notifications')).text, /2 attempts, last HTTP 500/);
  });

  test("another account's notification is not found", async () => {
    const other = await signedIn((await t.newAccount('Account D')).accountId);
    const list = await browser.get('/settings/notifications');
    const mine = /href="\/settings\/notifications\/([0-9a-f-]{36})"/.exec(list.text)?.[1];
    assert.ok(mine);
    assert.equal((await other.get(`/settings/notifications/${mine}`)).status, 404);
    const token = csrfTokenIn((await other.get('/settings/notifications')).text);
    assert.equal((await other.request('POST', `/settings/notifications/${mine}/redeliver`, { form: { _csrf: token } })).status, 404);
    assert.match((await other.get('/settings/notifications')).text, /No notifications yet/);
  });
});

describe('in Chromium', { skip: browserSkipReason() }, () => {
  let chromium: Browser;
  let user: { email: string; password: string };
  before(async () => {
    chromium = await launchChromium();
    user = { email: 'chromium@example.com', password: 'correct horse battery' };
    await createUser(t.db, t.clock, { accountId: t.accountId, ...user });
  });
  after(() => chromium?.close());

  async function signedInPage(name: string, viewport?: { width: number; height: number }): Promise<WatchedPage> {
    const w = await openPage(chromium, name, viewport);
    await w.page.goto(`${t.baseUrl}/sign-in?next=%2Fsettings%2Fapi-keys`);
    await w.page.getByLabel('E-mail address').fill(user.email);
    await w.page.getByLabel('Password').fill(user.password);
    await w.page.getByRole('button', { name: 'Sign in' }).click();
    await w.page.waitForURL(`${t.baseUrl}/settings/api-keys`);
    return w;
  }

  test('a key is created, copied with the button, and the settings pages draw without a fault', async () => {
    const w = await signedInPage('settings');
    try {
      await w.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
      await w.page.getByLabel(/^Name/).fill('Browser key');
      await w.page.getByRole('button', { name: 'Create key' }).click();
      const key = await w.page.getByLabel('API key', { exact: true }).inputValue();
      assert.match(key, /^svc_/);
      await w.page.getByRole('button', { name: 'Copy' }).click();
      await w.page.getByText('Copied.').waitFor();
      assert.equal(await w.page.evaluate(() => navigator.clipboard.readText()), key);
      await w.screenshot('api-key-created');

      await w.page.getByRole('navigation', { name: 'Developer settings' }).getByRole('link', { name: 'Webhooks' }).click();
      await w.page.getByRole('link', { name: 'Add a webhook' }).click();
      await w.page.getByLabel(/^URL/).fill(receiver.url);
      await w.page.getByLabel(/^tracking_request\.succeeded/).check();
      await w.screenshot('webhook-form');
      await w.page.getByRole('button', { name: 'Add webhook' }).click();
      assert.match(await w.page.getByLabel('Signing secret', { exact: true }).inputValue(), /^[0-9a-f]{64}$/);
      await w.screenshot('webhook-created');
      await w.page.getByRole('link', { name: 'Open the webhook' }).click();
      await w.page.getByRole('button', { name: 'Send test' }).click();
      await w.page.getByText('Delivered.').waitFor();
      await w.screenshot('webhook-tested');

      await w.page.getByRole('navigation', { name: 'Developer settings' }).getByRole('link', { name: 'Notifications' }).click();
      assert.equal(await w.page.getByRole('heading', { level: 1 }).innerText(), 'Webhook notifications');
      const attempts = w.page.locator('table.notifications details').first();
      if ((await attempts.count()) > 0) await attempts.locator('summary').click();
      await w.screenshot('notifications');
      assert.deepEqual(w.problems, []);
    } finally {
      await w.close();
    }
  });

  test('on a 375 px phone the pages fit the screen', async () => {
    const w = await signedInPage('settings-phone', { width: 375, height: 740 });
    try {
      for (const path of ['/settings/api-keys', '/settings/webhooks/new', '/settings/notifications']) {
        await w.page.goto(`${t.baseUrl}${path}`);
        const overflow = await w.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${path} is ${overflow} px wider than the screen`);
        await w.screenshot(path.split('/').pop());
      }
      assert.deepEqual(w.problems, []);
    } finally {
      await w.close();
    }
  });
});
