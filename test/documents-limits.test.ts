// Every way in keeps to the account's limits: documents per window over uploads and e-mail (the
// API answers 429 with Retry-After, SMTP a temporary 451 so the sender tries again later), and
// the tracking requests a document starts (at most TRACKED_PER_DOCUMENT of its numbers, and only
// while the account's tracking requests leave room; the rest reported on the document as
// not_tracked, those waiting for room tracked later by the document's own job).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { MAX_MAIL_ATTACHMENTS } from '../src/documents/limits.ts';
import { DOCUMENT_TRACKING_WINDOWS, DOCUMENT_WINDOWS, TRACKED_PER_DOCUMENT } from '../src/domain/documents/intake-limits.ts';
import { MINUTE, SECOND } from '../src/domain/time-units.ts';
import { startSmtpListener } from '../src/main/smtp.ts';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { defaultDocumentSettings } from '../src/services/documents.ts';
import { DocumentWorker } from '../src/services/documents-worker.ts';
import { createTrackingRequest } from '../src/services/tracking-requests.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (app) => (t = app));

const [PER_MINUTE, PER_HOUR] = DOCUMENT_WINDOWS;

/** A message with `files` text attachments (and its own text): files + 1 documents. */
const message = (tag: string, files: number) =>
  new MailComposer({
    from: 'ops@forwarder.example',
    to: 'docs@svc.example',
    subject: `Batch ${tag}`,
    text: `Batch ${tag}`,
    attachments: Array.from({ length: files }, (_, i) => ({ filename: `${tag}-${i}.txt`, content: `Note ${tag} ${i}\n` })),
  })
    .compile()
    .build();

async function submit(key: string, raw: Buffer) {
  const res = await fetch(`${t.baseUrl}/v2/email_submissions`, { method: 'POST', headers: { authorization: `Token ${key}`, 'content-type': 'message/rfc822' }, body: new Uint8Array(raw) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
}

async function upload(key: string, text: string) {
  const form = new FormData();
  form.append('file', new Blob([text]), 'note.txt');
  const res = await fetch(`${t.baseUrl}/v2/documents`, { method: 'POST', headers: { authorization: `Token ${key}` }, body: form });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
}

const documentCount = async (accountId: string) => (await t.db.query('SELECT count(*)::int AS n FROM documents WHERE account_id = $1', [accountId])).rows[0].n;

test('documents per minute hold over many e-mails, uploads and SMTP: 429 with Retry-After, SMTP 451, room again after the window', async () => {
  const { accountId, key } = await t.newAccount('Mail flood');
  const PER_MESSAGE = 30;
  let accepted = 0;
  let refused: Awaited<ReturnType<typeof submit>> | undefined;
  for (let i = 0; i < 10 && !refused; i++) {
    const res = await submit(key, await message(`m${i}`, PER_MESSAGE - 1));
    if (res.status === 201) accepted++;
    else refused = res;
  }
  assert.ok(refused, 'a message was refused');
  assert.equal(refused.status, 429);
  assert.equal(refused.body.errors[0].code, 'document_limit');
  assert.deepEqual([refused.body.errors[0].meta.limit, refused.body.errors[0].meta.window_seconds], [PER_MINUTE.limit, 60]);
  assert.equal(refused.retryAfter, '60', 'every document came at the same clock time: the window frees in a minute');
  // A message is taken whole while the window has room: past the limit by at most one message.
  assert.equal(accepted, Math.ceil(PER_MINUTE.limit / PER_MESSAGE));
  const stored = await documentCount(accountId);
  assert.ok(stored >= PER_MINUTE.limit && stored < PER_MINUTE.limit + PER_MESSAGE, `${stored} documents`);
  const submissions = await t.db.query('SELECT count(*)::int AS n FROM email_submissions WHERE account_id = $1', [accountId]);
  assert.equal(submissions.rows[0].n, accepted, 'a refused message left nothing behind');

  // An upload through the API is refused alike, and a direct upload before its bytes are sent.
  const uploaded = await upload(key, 'one more');
  assert.equal(uploaded.status, 429);
  assert.equal(uploaded.body.errors[0].code, 'document_limit');
  const direct = await t.request('POST', '/v2/direct_uploads', { key, body: { blob: { filename: 'later.txt', content_type: 'text/plain', byte_size: 5, checksum: 'XUFAKrxLKna5cZ2REBfFkg==' } } });
  assert.equal(direct.status, 429, direct.text);
  assert.equal(direct.headers.get('retry-after'), '60');

  // Over SMTP: a temporary failure, so the sending server keeps the message and tries again.
  const smtp = await startSmtpListener({ db: t.db, clock: t.clock, settings: { ...defaultDocumentSettings, inboundDomain: 'inbound.test' }, host: '127.0.0.1', port: 0 });
  try {
    const address = (await t.request('GET', '/v2/email_submissions/inbound_address', { key })).body.inbound_address.replace(/@.*/, '@inbound.test');
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    const mail = { from: 'ops@forwarder.example', to: address, subject: 'Later', text: 'Arrival notice' };
    await assert.rejects(transport.sendMail(mail), (err: any) => err.responseCode === 451 && /documents in a minute/.test(err.response));
    assert.equal(await documentCount(accountId), stored);

    // A minute on, there is room again: the sender's retry is taken, and uploads are.
    t.clock.advance(MINUTE + SECOND);
    assert.match((await transport.sendMail(mail)).response, /^250 /);
    assert.equal((await upload(key, 'one more')).status, 201);
  } finally {
    await smtp.close();
  }
});

test('documents per hour hold too: the hour window answers with its own Retry-After', async () => {
  const { key } = await t.newAccount('Hourly flood');
  const start = t.clock.now().getTime();
  let last: Awaited<ReturnType<typeof submit>> | undefined;
  // A minute's worth at a time, a minute apart, until the hour's limit is reached: two messages a
  // minute, as one message brings at most MAX_MAIL_ATTACHMENTS attachments.
  const perMessage = PER_MINUTE.limit / 2;
  assert.ok(perMessage - 1 <= MAX_MAIL_ATTACHMENTS);
  for (let i = 0; i <= PER_HOUR.limit / PER_MINUTE.limit; i++) {
    for (const half of ['a', 'b']) {
      last = await submit(key, await message(`h${i}${half}`, perMessage - 1));
      if (last.status !== 201) break;
    }
    if (last?.status !== 201) break;
    t.clock.advance(MINUTE + SECOND);
  }
  assert.equal(last?.status, 429);
  assert.deepEqual([last.body.errors[0].meta.limit, last.body.errors[0].meta.window_seconds], [PER_HOUR.limit, 3600]);
  // The hour frees when its first documents leave it.
  const waited = Number(last.retryAfter) * SECOND;
  assert.ok(Math.abs(start + 60 * MINUTE - (t.clock.now().getTime() + waited)) <= SECOND, `Retry-After ${last.retryAfter}`);
});

const worker = () => new DocumentWorker({ db: t.db, clock: t.clock });
const trackedNumbers = async (accountId: string) =>
  (await t.db.query('SELECT request_number FROM tracking_requests WHERE account_id = $1 ORDER BY request_number', [accountId])).rows.map((r) => r.request_number);
const documentOf = async (key: string, id: string) => (await t.request('GET', `/v2/documents/${id}`, { key })).body.data.attributes;

test(`a document naming hundreds of numbers starts ${TRACKED_PER_DOCUMENT} tracking requests and reports the rest as not tracked`, async () => {
  const { accountId, key } = await t.newAccount('Number list');
  const numbers = Array.from({ length: 300 }, (_, i) => containerNumber('MSKU', 100000 + i));
  const created = await upload(key, `Container list\n${numbers.join('\n')}\n`);
  assert.equal(created.status, 201);
  await worker().drain();
  assert.deepEqual(await trackedNumbers(accountId), numbers.slice(0, TRACKED_PER_DOCUMENT).sort());
  const doc = await documentOf(key, created.body.data.id);
  assert.equal(doc.extraction_status, 'extracted');
  assert.equal(doc.not_tracked.length, numbers.length - TRACKED_PER_DOCUMENT);
  assert.deepEqual(doc.not_tracked[0], {
    number: numbers[TRACKED_PER_DOCUMENT],
    request_type: 'container',
    reason: 'per_document_limit',
    detail: `svc tracks the first ${TRACKED_PER_DOCUMENT} numbers of a document by itself; track this one with POST /v2/tracking_requests.`,
  });

  // A relink makes the same choice: no more of them are tracked.
  assert.equal((await t.request('POST', `/v2/documents/${created.body.data.id}/relink`, { key })).status, 202);
  await worker().drain();
  assert.equal((await trackedNumbers(accountId)).length, TRACKED_PER_DOCUMENT);
});

test("documents start tracking requests only while the account's tracking limit leaves room; the rest wait and are tracked later", async () => {
  const { accountId, key } = await t.newAccount('Busy tracker');
  const [perMinute] = DOCUMENT_TRACKING_WINDOWS;
  // The account has used most of its minute through the API.
  const earlier = perMinute.limit - 10;
  for (let i = 0; i < earlier; i++) await createTrackingRequest(t.db, t.clock, accountId, { request_type: 'container', request_number: containerNumber('CMAU', 200000 + i), scac: 'CMDU' });
  const numbers = Array.from({ length: 20 }, (_, i) => containerNumber('MSKU', 300000 + i));
  const created = await upload(key, `Arrival notice\n${numbers.join('\n')}\n`);
  const id: string = created.body.data.id;
  await worker().drain();
  const fromDocument = async () => (await trackedNumbers(accountId)).filter((n) => n.startsWith('MSKU'));
  assert.deepEqual(await fromDocument(), numbers.slice(0, 10).sort(), 'as many as the minute had room for');
  let doc = await documentOf(key, id);
  assert.equal(doc.extraction_status, 'extracted', 'the document itself is done');
  assert.deepEqual(doc.not_tracked.map((n: any) => [n.number, n.reason]), numbers.slice(10).map((n) => [n, 'rate_limited']));
  assert.match(doc.not_tracked[0].detail, /100 tracking requests in a minute/);
  const job = (await t.db.query('SELECT job, next_attempt_at, locked_until, job_attempts FROM documents WHERE id = $1', [id])).rows[0];
  assert.equal(job.job, 'relink');
  assert.equal(job.next_attempt_at.getTime(), t.clock.now().getTime() + MINUTE, 'it waits until the minute has room');
  assert.equal(job.locked_until, null, 'holding no slot meanwhile');
  assert.equal(job.job_attempts, 0);

  await worker().drain();
  assert.equal((await fromDocument()).length, 10, 'nothing more before then');
  t.clock.advance(MINUTE + SECOND);
  await worker().drain();
  assert.deepEqual(await fromDocument(), [...numbers].sort(), 'the rest tracked once there was room');
  doc = await documentOf(key, id);
  assert.deepEqual(doc.not_tracked, []);
  assert.equal((await t.db.query('SELECT job FROM documents WHERE id = $1', [id])).rows[0].job, null);
});
