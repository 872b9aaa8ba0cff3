// E-mail submissions over real HTTP and PostgreSQL: a raw message posted becomes a submission and
// documents (source email) for its attachments and its text, the numbers it names are read by the
// document worker, duplicates and unreadable attachments are skipped, accounts are isolated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { SvcClient } from '../sdk/src/client.ts';
import { DocumentWorker } from '../src/services/documents-worker.ts';
import type { TestApp } from './support/app.ts';
import { documentsAppForFile } from './support/documents-app.ts';
import type { OpenApiChecker } from './support/openapi.ts';

let t: TestApp;
let checker: OpenApiChecker;
const MAX_BYTES = 8192;
documentsAppForFile(MAX_BYTES, (app, appChecker) => ((t = app), (checker = appChecker)));

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');

const compose = (mail: Mail.Options): Promise<Buffer> => new MailComposer(mail).compile().build();

async function submit(raw: Buffer | string, key?: string, contentType = 'message/rfc822') {
  const res = await fetch(`${t.baseUrl}/v2/email_submissions`, { method: 'POST', headers: { authorization: `Token ${key ?? t.key}`, 'content-type': contentType }, body: typeof raw === 'string' ? raw : new Uint8Array(raw) });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

test('a posted message becomes a submission with a document per attachment and one for its text', async () => {
  const { key } = await t.newAccount('Mailer');
  const box = containerNumber('MSKU', 123456);
  const raw = await compose({
    from: 'Ops <ops@forwarder.example>',
    to: 'docs@svc.example',
    cc: ['a@x.example', 'b@x.example'],
    subject: 'Arrival notice MAEU123456789',
    text: `Hello,\ncontainer ${box} arrives Friday.\n`,
    messageId: '<m1@forwarder.example>',
    date: new Date('2026-11-20T10:00:00Z'),
    attachments: [
      { filename: 'an.pdf', content: PDF, contentType: 'application/pdf' },
      { filename: 'notes.docx', content: Buffer.from([0, 1, 2, 3, 0xff, 0xfe]), contentType: 'application/octet-stream' },
    ],
  });
  const created = await submit(raw, key);
  assert.equal(created.status, 201, created.text);
  const attrs = created.body.data.attributes;
  assert.equal(created.body.data.type, 'email_submission');
  assert.equal(attrs.subject, 'Arrival notice MAEU123456789');
  assert.deepEqual(attrs.from, ['ops@forwarder.example']);
  assert.deepEqual(attrs.to, ['docs@svc.example']);
  assert.deepEqual(attrs.cc, ['a@x.example', 'b@x.example']);
  assert.equal(attrs.message_id, '<m1@forwarder.example>');
  assert.equal(new Date(attrs.sent_at).toISOString(), '2026-11-20T10:00:00.000Z');
  assert.equal(attrs.content_type, 'multipart/mixed');
  // The text and the PDF; the unreadable attachment is skipped, not the mail.
  assert.equal(attrs.documents_count, 2);
  const id = created.body.data.id;

  const shown = await checker.call('GET', `/v2/email_submissions/${id}?include=documents,documents.last_document_representation`, '/v2/email_submissions/{id}', { key });
  assert.equal(shown.status, 200, shown.text);
  const docs = shown.body.included.filter((r: any) => r.type === 'document');
  assert.deepEqual(docs.map((d: any) => d.attributes.source), ['email', 'email']);
  assert.deepEqual(docs.map((d: any) => d.relationships.email_submission.data.id), [id, id]);
  assert.deepEqual(docs.map((d: any) => d.attributes.file_content_type).sort(), ['application/pdf', 'text/plain']);

  // The document worker reads the text's numbers like any document's.
  await new DocumentWorker({ db: t.db, clock: t.clock }).drain();
  const textDoc = docs.find((d: any) => d.attributes.file_content_type === 'text/plain');
  const read = await t.request('GET', `/v2/documents/${textDoc.id}?include=email_submission,last_document_representation`, { key });
  assert.equal(read.body.data.attributes.extraction_status, 'extracted');
  const payload = read.body.included.find((r: any) => r.type === 'document_representation').attributes.payload;
  assert.deepEqual(payload.container_numbers, [box]);
  assert.ok(read.body.included.some((r: any) => r.type === 'email_submission' && r.id === id));
  const byReference = await t.request('GET', `/v2/documents?filter[reference]=${box}`, { key });
  assert.deepEqual(byReference.body.data.map((d: any) => d.id), [textDoc.id]);

  // The same attachment mailed again: a new submission, the duplicate document skipped.
  // (Through the SDK; a minute later, so the list's newest-first order is plain.)
  t.clock.advance(60_000);
  const sdk = new SvcClient({ baseUrl: t.baseUrl, token: key });
  const address = await sdk.emailSubmissions.inboundAddress();
  assert.match(address, /^[0-9a-f]{20}@localhost$/);
  assert.notEqual(address, await new SvcClient({ baseUrl: t.baseUrl, token: t.key }).emailSubmissions.inboundAddress(), 'each account its own');
  const again = await sdk.emailSubmissions.submit(new Uint8Array(await compose({ from: 'ops@forwarder.example', subject: 'Again', text: 'see attached', attachments: [{ filename: 'an.pdf', content: PDF }] })));
  assert.equal(again.documents_count, 1, 'only its text');

  const list = await checker.call('GET', '/v2/email_submissions?page[size]=1', '/v2/email_submissions', { key });
  assert.equal(list.status, 200, list.text);
  // Without include, the reference's default: the documents (and their extractions).
  assert.deepEqual(list.body.included.map((r: any) => r.type), ['document']);
  assert.equal((await t.request('GET', '/v2/email_submissions?include=', { key })).body.included, undefined);
  assert.equal(list.body.meta.total, 2);
  assert.deepEqual(list.body.data.map((s: any) => s.attributes.subject), ['Again']);
});

test('refusals: not rfc822, empty, no headers, too large, unknown include; other accounts see nothing', async () => {
  assert.equal((await submit('{"a":1}', undefined, 'application/json')).status, 415);
  const empty = await submit('');
  assert.equal(empty.status, 422, empty.text);
  const headless = await submit('just some words, no header at all');
  assert.equal(headless.status, 422, headless.text);
  const big = await submit(await compose({ subject: 'big', text: 'x'.repeat(MAX_BYTES * 2) }));
  assert.equal(big.status, 413, big.text);
  assert.equal((await t.request('GET', '/v2/email_submissions?include=nonsense')).status, 400);

  const mine = await submit(await compose({ subject: 'Mine', text: 'private' }));
  assert.equal(mine.status, 201, mine.text);
  const other = await t.newAccount('Stranger');
  const notFound = await t.request('GET', `/v2/email_submissions/${mine.body.data.id}`, { key: other.key });
  assert.equal(notFound.status, 404);
  assert.equal(notFound.body.errors[0].detail, "Couldn't find EmailSubmission");
  assert.equal((await t.request('GET', '/v2/email_submissions', { key: other.key })).body.data.length, 0);
  assert.equal((await t.request('GET', '/v2/email_submissions/not-a-uuid')).status, 404);
});
