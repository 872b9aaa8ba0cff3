// The track form, the line suggestion behind it and the tracking requests list, over real HTTP
// against the sandbox carriers: the web app is a face over the API, so what it shows is what the
// API and the tracking worker decided.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FailedReason } from '../src/carriers/types.ts';
import { failedReasonText } from '../src/web/pages/tracking-requests.tsx';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { webMount, withWebUsers, type WebClient } from './support/web.ts';

/** The text of an HTML page without tags, entities decoded as far as these tests need. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&amp;', '&')
    .replaceAll('&#39;', "'")
    .replaceAll('&quot;', '"')
    .replace(/\s+/g, ' ');

/** The table row of a tracking request number on the list page. */
function rowOf(html: string, number: string): string {
  const rows = html.split('<tr').filter((r) => r.includes(`>${number}</th>`));
  assert.equal(rows.length, 1, `one row for ${number}`);
  return rows[0];
}

describe('web: track a number and follow the request', () => {
  let t: TrackingHarness & ReturnType<typeof withWebUsers<TrackingHarness>>;
  let browser: WebClient;

  before(async () => {
    t = withWebUsers(await startTrackingHarness([], { beforeListen: webMount().beforeListen }));
    const user = await t.newUser();
    browser = t.client();
    await browser.signIn(user.email, user.password);
  });
  after(() => t.close());

  test('the form lists the lines svc can track here and works without JavaScript', async () => {
    const page = await browser.get('/track');
    assert.equal(page.status, 200);
    assert.match(page.text, /<option value="TEST"[^>]*>TEST – /);
    assert.match(page.text, /<option value="MAEU"/);
    // Known lines without a connector in this harness are not offered.
    assert.doesNotMatch(page.text, /<option value="WHLC"/);
    assert.match(page.text, /<label for="track-number">/);
    assert.match(page.text, /src="\/assets\/track.js\?v=/);
  });

  test('tracking TEST-TR-SUCCEEDED goes to the list, where it becomes a shipment', async () => {
    const sent = await browser.submit('/track', '/track', { number: 'TEST-TR-SUCCEEDED', scac: 'TEST', type: 'bill_of_lading', ref_numbers: 'PO-1, PO-2\nPO-3' });
    assert.equal(sent.status, 303, sent.text.slice(0, 500));
    assert.match(sent.location!, /^\/tracking-requests\?new=/);
    const pending = await browser.get(sent.location!);
    const row = rowOf(pending.text, 'TEST-TR-SUCCEEDED');
    assert.match(row, /pending/);
    assert.match(textOf(row), /Ref\. PO-1, PO-2, PO-3/);
    assert.match(pending.text, /data-live="tracking-requests"/);
    assert.match(pending.text, /data-live-region="tracking-requests-list"/);

    await t.worker.drain();
    const created = rowOf((await browser.get('/tracking-requests')).text, 'TEST-TR-SUCCEEDED');
    assert.match(created, />created</);
    const shipmentId = /href="\/shipments\/([^"]+)"/.exec(created)?.[1];
    assert.ok(shipmentId, 'a link to the shipment');
    const { body } = await t.request('GET', `/v2/shipments/${shipmentId}`);
    assert.equal(body.data.attributes.bill_of_lading_number, 'TEST-TR-SUCCEEDED');

    // Tracking it again leads to the shipment it already is.
    const again = await browser.submit('/track', '/track', { number: 'TEST-TR-SUCCEEDED', scac: 'TEST', type: 'bill_of_lading' });
    assert.equal(again.status, 303);
    assert.equal(again.location, `/shipments/${shipmentId}`);
  });

  test("the API's refusals appear next to the field they are about", async () => {
    const badChars = await browser.submit('/track', '/track', { number: 'ABC\u200b123', scac: 'TEST', type: 'bill_of_lading' });
    assert.equal(badChars.status, 422);
    const numberError = /<p id="number-error" class="field-error">([^<]+)<\/p>/.exec(badChars.text)?.[1];
    assert.match(numberError ?? '', /U\+200B, an invisible formatting character/);
    assert.match(badChars.text, /id="track-number"[^>]*aria-invalid="true"/);
    assert.ok(badChars.text.includes('value="ABC\u200b123"'), 'the value is kept');

    const unknownLine = await browser.submit('/track', '/track', { number: 'ABCD12345678', scac: 'ZZZZ', type: 'bill_of_lading' });
    assert.equal(unknownLine.status, 422);
    assert.match(unknownLine.text, /<p id="scac-error" class="field-error">Scac 'ZZZZ' is not recognized<\/p>/);
    assert.doesNotMatch(unknownLine.text, /id="number-error"/);

    // No line given and none can be detected: the API's auto-detect refusal, at the line.
    const undetectable = await browser.submit('/track', '/track', { number: 'XYZ-NOT-A-LINE-42', type: 'bill_of_lading' });
    assert.equal(undetectable.status, 422);
    assert.match(undetectable.text, /<p id="scac-error" class="field-error">[^<]*Send scac/);
  });

  test('a failed request says why in plain words', async () => {
    const sent = await browser.submit('/track', '/track', { number: 'TEST-TR-FAILED', scac: 'TEST', type: 'bill_of_lading' });
    assert.equal(sent.status, 303);
    await t.worker.drain();
    const row = rowOf((await browser.get('/tracking-requests')).text, 'TEST-TR-FAILED');
    assert.match(row, />failed</);
    assert.match(textOf(row), /The carrier does not know this number\. Check it and the carrier\./);
    const onlyFailed = await browser.get('/tracking-requests?status=failed');
    assert.match(onlyFailed.text, />TEST-TR-FAILED<\/th>/);
    assert.doesNotMatch(onlyFailed.text, />TEST-TR-SUCCEEDED<\/th>/);
    assert.match(onlyFailed.text, /<option value="failed" selected/);
  });

  test('every failed_reason has its own sentence', () => {
    // A Record over the type: a reason added to FailedReason does not compile here until listed.
    const reasons: Record<FailedReason, true> = {
      booking_cancelled: true,
      duplicate: true,
      expired: true,
      internal_processing_error: true,
      invalid_number: true,
      not_found: true,
      retries_exhausted: true,
      shipping_line_unreachable: true,
      unrecognized_response: true,
      data_unavailable: true,
    };
    const sentences = Object.keys(reasons).map((r) => failedReasonText(r));
    for (const sentence of sentences) assert.match(sentence, /^[A-Zs].*\.$/);
    assert.doesNotMatch(sentences.join(' '), /_|answer: /, 'no code shown as it is');
    assert.equal(new Set(sentences).size, sentences.length);
  });

  test('/track/infer suggests the line and kind of a number with its confidence', async () => {
    const res = await fetch(`${t.baseUrl}/track/infer?number=${encodeURIComponent('MAEU 123456789')}`, { headers: { cookie: cookieOf(browser) } });
    assert.equal(res.status, 200);
    const answer = await res.json();
    assert.equal(answer.number_type, 'bill_of_lading');
    assert.equal(answer.suggestions[0].scac, 'MAEU');
    assert.match(answer.suggestions[0].text, /^MAEU – .+, bill of lading, \d+ %$/);

    const unreadable = await fetch(`${t.baseUrl}/track/infer?number=TEST-TR-SUCCEEDED`, { headers: { cookie: cookieOf(browser) } });
    assert.equal(unreadable.status, 200);
    assert.match((await unreadable.json()).error, /not valid/);

    const blank = await fetch(`${t.baseUrl}/track/infer?number=%20`, { headers: { cookie: cookieOf(browser) } });
    assert.equal(blank.status, 400);
    const signedOut = await fetch(`${t.baseUrl}/track/infer?number=MAEU123456789`, { redirect: 'manual' });
    assert.equal(signedOut.status, 303);
  });

  test('the form detects the kind of number when it is left empty', async () => {
    const sent = await browser.submit('/track', '/track', { number: 'SBXU0004040', scac: 'TEST', type: '' });
    assert.equal(sent.status, 303, sent.text.slice(0, 500));
    const row = rowOf((await browser.get('/tracking-requests')).text, 'SBXU0004040');
    assert.match(row, /<td>container<\/td>/);
  });

  test("an account sees only its own tracking requests", async () => {
    const other = await t.newAccount('Account B');
    const stranger = await t.newUser({ accountId: other.accountId });
    const theirs = t.client();
    await theirs.signIn(stranger.email, stranger.password);
    const page = await theirs.get('/tracking-requests');
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /TEST-TR-SUCCEEDED|TEST-TR-FAILED/);
    assert.match(textOf(page.text), /No tracking requests yet/);
    // Their own number of the same name is theirs alone, and not a duplicate of ours.
    const sent = await theirs.submit('/track', '/track', { number: 'TEST-TR-SUCCEEDED', scac: 'TEST', type: 'bill_of_lading' });
    assert.match(sent.location!, /^\/tracking-requests\?new=/);
  });

  test('pages of 30, newest first', async () => {
    const other = await t.newAccount('Account C');
    const user = await t.newUser({ accountId: other.accountId });
    const client = t.client();
    await client.signIn(user.email, user.password);
    for (let i = 0; i < 31; i++) {
      await t.request('POST', '/v2/tracking_requests', {
        key: other.key,
        body: { data: { attributes: { request_type: 'bill_of_lading', request_number: `TEST-PAGE-${i}`, scac: 'TEST' } } },
      });
      t.clock.advance(1000);
    }
    const first = await client.get('/tracking-requests');
    assert.match(textOf(first.text), /Page 1 of 2/);
    assert.match(first.text, /href="\/tracking-requests\?page=2" rel="next"/);
    const second = await client.get('/tracking-requests?page=2');
    assert.match(second.text, />TEST-PAGE-0<\/th>/);
    assert.doesNotMatch(second.text, />TEST-PAGE-30<\/th>/);
  });
});

function cookieOf(client: WebClient): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}
