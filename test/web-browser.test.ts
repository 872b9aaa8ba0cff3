// The web app in real headless Chromium: signing in through the form, deep links followed as a
// browser follows them, another account's shipment out of reach, and a tampered form refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { insertShipment, saveShipmentState, upsertContainer } from '../src/store/shipments.ts';
import { browserSkipReason, launchChromium, openPage, type WatchedPage } from './support/browser.ts';
import { startWebTestApp, type WebTestApp } from './support/web.ts';

const skip = browserSkipReason();

describe('the web app in Chromium', { skip }, () => {
  let t: WebTestApp;
  let browser: Browser;
  let user: { email: string; password: string };
  let shipment: { id: string; containers: string[] };

  before(async () => {
    [t, browser] = await Promise.all([startWebTestApp(), launchChromium()]);
    user = await t.newUser();
    const at = new Date('2026-11-01T12:00:00Z');
    const row = await insertShipment(t.db, { account_id: t.accountId, scac: 'MSCU', request_type: 'bill_of_lading', request_number: 'MEDU5550001', ref_numbers: ['PO-88'], customer_id: null, at });
    await saveShipmentState(t.db, row.id, { state: {}, billOfLadingNumber: 'MEDU5550001', bookingNumber: null, at });
    const containers = [];
    for (const number of ['MSCU5550001', 'MSCU5550012']) containers.push((await upsertContainer(t.db, { account_id: t.accountId, shipment_id: row.id, number, ref_numbers: [], state: {}, at })).row.id);
    shipment = { id: row.id, containers };
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(name: string): Promise<WatchedPage> {
    const w = await openPage(browser, name);
    await w.page.goto(`${t.baseUrl}/sign-in`);
    await w.page.getByLabel('E-mail address').fill(user.email);
    await w.page.getByLabel('Password').fill(user.password);
    await w.page.getByRole('button', { name: 'Sign in' }).click();
    await w.page.waitForURL(`${t.baseUrl}/shipments`);
    return w;
  }

  test('a visitor signs in through the form and lands on the shipments list', async () => {
    const w = await openPage(browser, 'sign-in');
    try {
      await w.page.goto(`${t.baseUrl}/`);
      assert.equal(new URL(w.page.url()).pathname, '/sign-in');
      await w.screenshot('form');
      await w.page.getByLabel('E-mail address').fill(user.email);
      await w.page.getByLabel('Password').fill('wrong password!');
      await w.page.getByRole('button', { name: 'Sign in' }).click();
      assert.match(await w.page.getByRole('alert').innerText(), /do not match/);
      await w.page.getByLabel('Password').fill(user.password);
      await w.page.getByRole('button', { name: 'Sign in' }).click();
      await w.page.waitForURL(`${t.baseUrl}/shipments`);
      assert.equal(await w.page.getByRole('heading', { level: 1 }).innerText(), 'Shipments');
      // The wrong password's 422 is the only answer over 400.
      assert.deepEqual(w.problems.filter((p) => !/HTTP 422: .*\/sign-in$|the server responded with a status of 422/.test(p)), []);
    } finally {
      await w.close();
    }
  });

  test('deep links, followed by the browser, open the right page for each outcome', async () => {
    const w = await signedIn('deep-links');
    try {
      const cases: [string, string][] = [
        ['MSCU5550012', `/shipments/${shipment.id}?container=${shipment.containers[1]}`],
        ['mscu 555001-2', `/shipments/${shipment.id}?container=${shipment.containers[1]}`],
        ['Mscu-5550012', `/shipments/${shipment.id}?container=${shipment.containers[1]}`],
        ['medu5550001', `/shipments/${shipment.id}`],
        ['PO-88', `/shipments/${shipment.id}`],
        ['5550001', `/shipments/${shipment.id}?container=${shipment.containers[0]}`],
        ['EDU555', `/shipments/${shipment.id}`],
        ['NOTHING-LIKE-IT', '/shipments?q=NOTHING-LIKE-IT'],
      ];
      for (const [q, expected] of cases) {
        await w.page.goto(`${t.baseUrl}/shipments/find?q=${encodeURIComponent(q)}`);
        const url = new URL(w.page.url());
        assert.equal(url.pathname + url.search, expected, q);
      }
    } finally {
      await w.close();
    }
  });

  test("a signed-out visitor's deep link goes through sign-in to the resolved page", async () => {
    const w = await openPage(browser, 'deep-link-signed-out');
    try {
      await w.page.goto(`${t.baseUrl}/shipments/find?q=MSCU5550012`);
      assert.equal(new URL(w.page.url()).pathname, '/sign-in');
      await w.page.getByLabel('E-mail address').fill(user.email);
      await w.page.getByLabel('Password').fill(user.password);
      await w.page.getByRole('button', { name: 'Sign in' }).click();
      await w.page.waitForURL((u) => u.pathname === `/shipments/${shipment.id}`);
      assert.equal(new URL(w.page.url()).searchParams.get('container'), shipment.containers[1]);
    } finally {
      await w.close();
    }
  });

  test("another account's user cannot reach the shipment, by address or by deep link", async () => {
    const other = await t.newAccount('Other account');
    const stranger = await t.newUser({ accountId: other.accountId });
    const w = await openPage(browser, 'other-account');
    try {
      await w.page.goto(`${t.baseUrl}/sign-in`);
      await w.page.getByLabel('E-mail address').fill(stranger.email);
      await w.page.getByLabel('Password').fill(stranger.password);
      await w.page.getByRole('button', { name: 'Sign in' }).click();
      await w.page.waitForURL(`${t.baseUrl}/shipments`);
      const res = await w.page.goto(`${t.baseUrl}/shipments/${shipment.id}`);
      assert.equal(res?.status(), 404);
      await w.page.goto(`${t.baseUrl}/shipments/find?q=MSCU5550012`);
      assert.equal(new URL(w.page.url()).pathname + new URL(w.page.url()).search, '/shipments?q=MSCU5550012');
    } finally {
      await w.close();
    }
  });

  test('a form whose CSRF token was tampered with is refused, and the session stays', async () => {
    const w = await signedIn('csrf');
    try {
      await w.page.goto(`${t.baseUrl}/settings/password`);
      await w.page.evaluate(() => {
        for (const input of document.querySelectorAll<HTMLInputElement>('input[name="_csrf"]')) input.value = 'forged-token';
      });
      await w.page.getByLabel('Current password').fill(user.password);
      await w.page.getByLabel('New password', { exact: false }).first().fill('a new password 1');
      await w.page.getByLabel('New password again').fill('a new password 1');
      const [response] = await Promise.all([w.page.waitForResponse((r) => r.request().method() === 'POST'), w.page.getByRole('button', { name: 'Save password' }).click()]);
      assert.equal(response.status(), 403);
      assert.match(await w.page.locator('main').innerText(), /expired or did not come from svc/);
      const res = await w.page.goto(`${t.baseUrl}/settings/password`);
      assert.equal(res?.status(), 200);
    } finally {
      await w.close();
    }
  });
});
