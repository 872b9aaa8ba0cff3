// The shipments list page over real HTTP: what a row shows, each filter, the order, the pages, the
// search by any number (spaces and dashes or not), the empty states, account isolation and escaping.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DAY, seedShipment, type ShipmentSeed } from './support/shipment-seeds.ts';
import { startWebTestApp, type WebClient, type WebTestApp } from './support/web.ts';

describe('web shipments list', () => {
  let t: WebTestApp;
  let now: Date;
  let browser: WebClient;
  const ids: Record<string, string> = {};

  const seed = (accountId: string, s: ShipmentSeed) => seedShipment(t.db, accountId, now, s);

  async function signedIn(accountId: string): Promise<WebClient> {
    const { email, password } = await t.newUser({ accountId });
    const client = t.client();
    await client.signIn(email, password);
    return client;
  }

  /** The shipment ids the page's rows link to, in order. */
  const rowsOf = (html: string) => [...html.matchAll(/<th scope="row"><a href="\/shipments\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
  const list = async (query = '', client = browser) => {
    const page = await client.get(`/shipments${query}`);
    assert.equal(page.status, 200, page.text.slice(0, 500));
    return { html: page.text, rows: rowsOf(page.text) };
  };

  let other: { accountId: string };
  let paged: { accountId: string };

  before(async () => {
    t = await startWebTestApp();
    now = t.clock.now();
    const a = t.accountId;
    // Created in this order: newest first is stopped, held, maersk.
    ids.maersk = await seed(a, {
      number: 'MAEU111111111',
      scac: 'MAEU',
      booking: 'BKG778899',
      pol: ['CNSHA', 'Shanghai'],
      pod: ['USLAX', 'Los Angeles', 'America/Los_Angeles'],
      eta: 3,
      refs: ['PO-1001'],
      containers: [{ number: 'MSKU1234565', status: 'on_ship' }],
      checkedMinutesAgo: 3,
    });
    ids.held = await seed(a, {
      number: 'MEDUAB123456',
      scac: 'MSCU',
      pol: ['DEHAM', 'Hamburg'],
      pod: ['USNYC', 'New York', 'America/New_York'],
      eta: 20,
      refs: ['<script>alert(1)</script>'],
      containers: [
        { number: 'MSCU7654321', status: 'available', holds: ['customs'] },
        { number: 'MSCU7654322', status: 'on_ship' },
      ],
      checkedMinutesAgo: 120,
      failedMinutesAgo: 10,
    });
    ids.stopped = await seed(a, {
      number: 'CMDU333',
      scac: 'CMDU',
      pol: ['USLAX', 'Los Angeles'],
      pod: ['NLRTM', 'Rotterdam', 'Europe/Amsterdam'],
      ata: -2,
      containers: [
        { number: 'CMAU0000004', status: 'grounded' },
        { number: 'CMAU0000005', status: 'grounded' },
      ],
      stopped: true,
    });
    // Another account whose shipment every search and filter above would find.
    other = await t.newAccount('Account B');
    ids.theirs = await seed(other.accountId, {
      number: 'MAEU999999999',
      scac: 'MAEU',
      pol: ['CNSHA', 'Shanghai'],
      pod: ['USLAX', 'Los Angeles', 'America/Los_Angeles'],
      eta: 3,
      refs: ['PO-1001'],
      containers: [{ number: 'MSKU9999999', status: 'on_ship', holds: ['customs'] }],
    });
    // An account with enough shipments for three pages.
    paged = await t.newAccount('Account C');
    for (let i = 1; i <= 60; i++) {
      await seed(paged.accountId, { number: `PAGE${String(i).padStart(3, '0')}`, scac: i % 2 ? 'MAEU' : 'CMDU', containers: [{ number: `MSKU${String(i).padStart(7, '0')}`, status: 'on_ship' }] });
    }
    browser = await signedIn(a);
  });
  after(() => t.close());

  test('the list shows every shipment, newest first, with its route, arrival, containers, badges, refs and freshness', async () => {
    const { html, rows } = await list();
    assert.deepEqual(rows, [ids.stopped, ids.held, ids.maersk]);
    assert.match(html, /3 shipments/);
    assert.match(html, />MAEU111111111<\/a>/);
    assert.match(html, /Booking BKG778899/);
    assert.match(html, /Shanghai<\/span> <span aria-label="to">→<\/span> <span title="USLAX">Los Angeles/);
    // The ETA in the port's own time, with the exact instant in the <time>.
    const eta = new Date(now.getTime() + 3 * DAY).toISOString();
    assert.ok(html.includes(`<time datetime="${eta}" title="2026-11-25 12:00 UTC"><span class="nowrap">25 Nov 04:00 GMT-8</span> (America/Los_Angeles)</time>`), 'ETA at POD in its zone');
    assert.match(html, /Arrived<\/span> <time[^>]*><span class="nowrap">20 Nov 13:00 GMT\+1<\/span> \(Europe\/Amsterdam\)/);
    assert.match(html, /checked 3 min ago/);
    assert.match(html, /checked 2 h ago/);
    assert.match(html, /last try failed <time[^>]*>10 min ago/);
    assert.match(html, /not checked yet/);
    assert.match(html, /<span class="badge bad">On hold: customs<\/span>/);
    assert.match(html, /<span class="badge ok">Available for pickup<\/span>/);
    assert.match(html, /<span class="badge">Discharged ×2<\/span>/);
    assert.match(html, /<span class="badge warn">Tracking stopped<\/span>/);
    assert.match(html, /<td class="num">2<\/td>/);
    assert.match(html, /PO-1001/);
    assert.ok(!html.includes(ids.theirs), "another account's shipment");
  });

  test('each filter narrows the list to what it names, and the form keeps it', async () => {
    const cases: [string, string[]][] = [
      ['status=available', [ids.held]],
      ['status=on_ship', [ids.held, ids.maersk]],
      ['carrier=MAEU', [ids.maersk]],
      ['carrier=medu', [ids.held]],
      ['pol=CNSHA', [ids.maersk]],
      ['pod=usnyc', [ids.held]],
      ['arriving=7', [ids.maersk]],
      ['arriving=30', [ids.held, ids.maersk]],
      ['hold=yes', [ids.held]],
      ['hold=no', [ids.stopped, ids.maersk]],
      ['stopped=yes', [ids.stopped]],
      ['stopped=no', [ids.held, ids.maersk]],
      ['status=on_ship&pod=USLAX', [ids.maersk]],
    ];
    for (const [query, expected] of cases) assert.deepEqual((await list(`?${query}`)).rows, expected, query);
    const { html } = await list('?status=available&hold=yes&carrier=medu&arriving=30');
    assert.match(html, /<option value="available" selected>/);
    assert.match(html, /<select name="hold"[^>]*>.*?<option value="yes" selected>/s);
    assert.match(html, /<option value="30" selected>within 30 days/);
    assert.match(html, /name="carrier" value="medu"/);
  });

  test('no match says what was searched and how to clear it; an unreadable filter is shown at its field', async () => {
    const none = await list('?carrier=MAEU&hold=yes');
    assert.deepEqual(none.rows, []);
    assert.match(none.html, /No shipments match/);
    assert.match(none.html, /<a href="\/shipments">Clear search and filters<\/a>/);
    const bad = await browser.get('/shipments?carrier=TOOLONG');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /name="carrier" value="TOOLONG"[^>]*aria-invalid="true" aria-describedby="carrier-error"/);
    assert.match(bad.text, /id="carrier-error">filter\[line_scac\] must be a SCAC/);
    const days = await browser.get('/shipments?arriving=soon');
    assert.equal(days.status, 400);
    assert.match(days.text, /Arriving within is a number of days/);
  });

  test('column headers sort the list both ways, with aria-sort on the sorted one', async () => {
    assert.deepEqual((await list('?sort=bill_of_lading_number')).rows, [ids.stopped, ids.maersk, ids.held]);
    assert.deepEqual((await list('?sort=-bill_of_lading_number')).rows, [ids.held, ids.maersk, ids.stopped]);
    assert.deepEqual((await list('?sort=pod_arrival_at')).rows, [ids.stopped, ids.maersk, ids.held], 'arrived first, then by ETA');
    assert.deepEqual((await list('?sort=-line_tracking_last_succeeded_at')).rows, [ids.maersk, ids.held, ids.stopped], 'never checked last');
    const { html } = await list('?sort=bill_of_lading_number&hold=no');
    assert.match(html, /<th scope="col" aria-sort="ascending"><a href="\/shipments\?hold=no&amp;sort=-bill_of_lading_number">B\/L/);
    assert.match(html, /<th scope="col"><a href="\/shipments\?hold=no&amp;sort=shipping_line_scac">Carrier/);
    assert.match(html, /<input type="hidden" name="sort" value="bill_of_lading_number"/, 'the form keeps the order');
  });

  test('pages of 25 with their total, page links that keep the filters, and a page past the end', async () => {
    const client = await signedIn(paged.accountId);
    const first = await list('', client);
    assert.equal(first.rows.length, 25);
    assert.match(first.html, /60 shipments, page 1 of 3/);
    assert.match(first.html, /<a href="\/shipments\?page=2" aria-label="Page 2">2<\/a>/);
    assert.match(first.html, /<a href="\/shipments" aria-current="page" aria-label="Page 1">1<\/a>/);
    const third = await list('?page=3', client);
    assert.equal(third.rows.length, 10);
    assert.equal(new Set([...first.rows, ...(await list('?page=2', client)).rows, ...third.rows]).size, 60, 'every shipment once');
    const maersk = await list('?carrier=MAEU&page=2', client);
    assert.equal(maersk.rows.length, 5);
    assert.match(maersk.html, /30 shipments, page 2 of 2/);
    assert.match(maersk.html, /href="\/shipments\?carrier=MAEU" rel="prev"/);
    const past = await list('?page=9', client);
    assert.match(past.html, /Page 9 is past the end: there are 60 shipments/);
    assert.match(past.html, /href="\/shipments\?page=3">Go to the last page/);
  });

  test('search finds a shipment by B/L, booking, container or reference number, with or without spaces and dashes', async () => {
    const cases: [string, string[]][] = [
      ['MAEU111111111', [ids.maersk]],
      ['maeu 1111', [ids.maersk]],
      ['BKG-778899', [ids.maersk]],
      ['MSKU 123456-5', [ids.maersk]],
      ['mscu-7654322', [ids.held]],
      ['MSCU765432', [ids.held]],
      ['PO 1001', [ids.maersk]],
      ['po-1001', [ids.maersk]],
      ['CMAU', [ids.stopped]],
    ];
    for (const [q, expected] of cases) assert.deepEqual((await list(`?q=${encodeURIComponent(q)}`)).rows, expected, q);
    // The deep link's fallback lands here: the box holds what was searched.
    assert.match((await list('?q=MSKU%20123456-5')).html, /<input type="search" name="q" value="MSKU 123456-5"/);
  });

  test("another account's shipments never appear, even by search, and it sees only its own", async () => {
    for (const query of ['', '?q=MAEU999999999', '?q=MSKU9999999', '?q=PO-1001', '?carrier=MAEU', '?hold=yes', '?pol=CNSHA']) {
      const { html, rows } = await list(query);
      assert.ok(!rows.includes(ids.theirs) && !html.includes(ids.theirs), query);
    }
    const nothing = await list('?q=MAEU999999999');
    assert.match(nothing.html, /Nothing matches “MAEU999999999”/);
    const theirs = await signedIn(other.accountId);
    assert.deepEqual((await list('', theirs)).rows, [ids.theirs]);
    assert.deepEqual((await list('?q=PO-1001', theirs)).rows, [ids.theirs]);
  });

  test('reference numbers and searches are escaped, never markup', async () => {
    const { html } = await list('?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    assert.ok(!html.includes('<script>alert(1)</script>'));
    // preact escapes < and & (enough for text and quoted attributes).
    assert.match(html, /<td class="refs">&lt;script>alert\(1\)&lt;\/script><\/td>/);
    assert.match(html, /name="q" value="&lt;script>alert\(1\)&lt;\/script>"/);
    assert.ok(!(await list()).html.includes('<script>alert'));
  });

  test('an account without shipments is sent to track one', async () => {
    const fresh = await t.newAccount('Account D');
    const { html, rows } = await list('', await signedIn(fresh.accountId));
    assert.deepEqual(rows, []);
    assert.match(html, /No shipments yet/);
    assert.match(html, /<a href="\/track">Track a shipment<\/a>/);
  });
});
