// The shipments list in headless Chromium: filters applied through the form and sorting through the
// headers end up in the URL, and on a 375 px phone the page does not scroll sideways (the table
// scrolls in its own frame). Screenshots of the list on a laptop and a phone are saved.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkipReason, launchChromium, openPage, type WatchedPage } from './support/browser.ts';
import { seedShipment } from './support/shipment-seeds.ts';
import { startWebTestApp, type WebTestApp } from './support/web.ts';

const skip = browserSkipReason();

const PORTS: { pol: [string, string]; pod: [string, string, string] }[] = [
  { pol: ['CNSHA', 'Shanghai'], pod: ['USLAX', 'Los Angeles', 'America/Los_Angeles'] },
  { pol: ['SGSIN', 'Singapore'], pod: ['NLRTM', 'Rotterdam', 'Europe/Amsterdam'] },
  { pol: ['DEHAM', 'Hamburg'], pod: ['USNYC', 'New York', 'America/New_York'] },
];
const STATUSES = ['on_ship', 'grounded', 'available', 'not_available', 'picked_up', 'new'];

describe('the shipments list in Chromium', { skip }, () => {
  let t: WebTestApp;
  let browser: Browser;
  let user: { email: string; password: string };

  before(async () => {
    [t, browser] = await Promise.all([startWebTestApp(), launchChromium()]);
    user = await t.newUser();
    const now = t.clock.now();
    for (let i = 1; i <= 32; i++) {
      const digits = String(i).padStart(6, '0');
      await seedShipment(t.db, t.accountId, now, {
        number: `${['MAEU', 'MEDU', 'CMDU'][i % 3]}${digits}`,
        scac: ['MAEU', 'MSCU', 'CMDU'][i % 3],
        ...PORTS[i % 3],
        ...(i % 5 === 0 ? { ata: -(i % 4) - 1 } : { eta: (i % 9) + 1 }),
        refs: i % 4 === 0 ? [`PO-${4400 + i}`] : [],
        containers: Array.from({ length: (i % 3) + 1 }, (_, k) => ({ number: `MSKU${digits}${k}`, status: STATUSES[(i + k) % STATUSES.length], holds: i % 7 === 0 && k === 0 ? ['customs'] : [] })),
        stopped: i % 11 === 0,
        checkedMinutesAgo: i * 7,
      });
    }
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(name: string, viewport?: { width: number; height: number }): Promise<WatchedPage> {
    const w = await openPage(browser, name, viewport);
    await w.page.goto(`${t.baseUrl}/sign-in`);
    await w.page.getByLabel('E-mail address').fill(user.email);
    await w.page.getByLabel('Password').fill(user.password);
    await w.page.getByRole('button', { name: 'Sign in' }).click();
    await w.page.waitForURL(`${t.baseUrl}/shipments`);
    return w;
  }

  const bodyRows = (w: WatchedPage) => w.page.locator('table.shipments tbody tr');

  test('filters from the form and sorting from the headers become the URL', async () => {
    const w = await signedIn('shipments list');
    try {
      assert.equal(await bodyRows(w).count(), 25);
      await w.screenshot('laptop');
      await w.page.getByLabel('On hold').selectOption('yes');
      await w.page.getByRole('button', { name: 'Apply filters' }).click();
      await w.page.waitForURL(/hold=yes/);
      assert.equal(await bodyRows(w).count(), 4, 'shipments 7, 14, 21 and 28 have a hold');
      await w.page.getByRole('link', { name: /^B\/L/ }).click();
      await w.page.waitForURL(/sort=bill_of_lading_number/);
      assert.equal(await w.page.locator('th[aria-sort="ascending"]').textContent(), 'B/L ▲, sort descending');
      const first = await bodyRows(w).first().locator('th').textContent();
      await w.page.getByRole('link', { name: /^B\/L/ }).click();
      await w.page.waitForURL(/sort=-bill_of_lading_number/);
      assert.notEqual(await bodyRows(w).first().locator('th').textContent(), first);
      assert.match(w.page.url(), /hold=yes/, 'the filter stays');
      await w.page.getByLabel('Search').fill('MSKU 000014-0');
      await w.page.getByRole('button', { name: 'Search', exact: true }).click();
      await w.page.waitForURL(/q=MSKU/);
      assert.equal(await bodyRows(w).count(), 1);
      assert.deepEqual(w.problems, []);
    } finally {
      await w.close();
    }
  });

  test('on a 375 px phone the page does not scroll sideways; the table scrolls in its frame', async () => {
    const w = await signedIn('shipments list phone', { width: 375, height: 800 });
    try {
      const { page, wrap } = await w.page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        wrap: document.querySelector('.table-wrap')!.scrollWidth > document.querySelector('.table-wrap')!.clientWidth,
      }));
      assert.ok(page <= 375, `page is ${page} px wide`);
      assert.ok(wrap, 'the table scrolls inside .table-wrap');
      await w.screenshot('phone');
      await w.page.goto(`${t.baseUrl}/shipments?page=2`);
      assert.equal(await bodyRows(w).count(), 7);
      assert.deepEqual(w.problems, []);
    } finally {
      await w.close();
    }
  });
});
