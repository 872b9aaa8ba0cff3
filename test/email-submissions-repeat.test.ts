// The same message submitted again (a sender retrying, or two deliveries at one moment) is the
// submission made the first time, per account; and a file refused as a duplicate, attached to a
// message or uploaded, leaves no blob behind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { TestApp } from './support/app.ts';
import { documentsAppForFile } from './support/documents-app.ts';

let t: TestApp;
documentsAppForFile(8192, (app) => (t = app));

const post = async (raw: Buffer, key: string) => {
  const res = await fetch(`${t.baseUrl}/v2/email_submissions`, { method: 'POST', headers: { authorization: `Token ${key}`, 'content-type': 'message/rfc822' }, body: new Uint8Array(raw) });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  return JSON.parse(text).data;
};

const count = async (sql: string, params: unknown[] = []): Promise<number> => Number((await t.db.query<{ n: string }>(sql, params)).rows[0].n);
/** Blobs that are neither a document's file nor a submission's message. */
const orphanBlobs = () =>
  count('SELECT count(*) AS n FROM document_blobs b WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.blob_id = b.id) AND NOT EXISTS (SELECT 1 FROM email_submissions s WHERE s.raw_blob_id = b.id)');

test('the same message again, in turn or at the same moment, is the one submission; another account gets its own', async () => {
  const { accountId, key } = await t.newAccount('Retried');
  const other = await t.newAccount('Also addressed');
  const raw = await new MailComposer({
    from: 'ops@forwarder.example',
    to: 'docs@svc.example',
    subject: 'Booking confirmation',
    text: 'Booking 123456789 confirmed.',
    messageId: '<retry-1@forwarder.example>',
    attachments: [{ filename: 'booking.txt', content: 'Booking confirmation\nBooking 123456789\n' }],
  })
    .compile()
    .build();
  const first = await post(raw, key);
  const again = await post(raw, key);
  assert.equal(again.id, first.id);
  assert.deepEqual(again.relationships.documents.data, first.relationships.documents.data);
  const together = await Promise.all([post(raw, other.key), post(raw, other.key), post(raw, other.key)]);
  assert.equal(new Set(together.map((s) => s.id)).size, 1, 'three at one moment: one submission');
  assert.notEqual(together[0].id, first.id);
  for (const account of [accountId, other.accountId]) {
    assert.equal(await count('SELECT count(*) AS n FROM email_submissions WHERE account_id = $1', [account]), 1);
    assert.equal(await count('SELECT count(*) AS n FROM documents WHERE account_id = $1', [account]), 2, 'the text and the attachment, once');
  }
  // A message that differs in one byte (another Message-ID) is another message.
  const resent = await new MailComposer({ from: 'ops@forwarder.example', to: 'docs@svc.example', subject: 'Booking confirmation', text: 'Booking 123456789 confirmed.', messageId: '<retry-2@forwarder.example>' })
    .compile()
    .build();
  assert.notEqual((await post(resent, key)).id, first.id);
  assert.equal(await orphanBlobs(), 0);
});

test('an attachment or an upload refused as a duplicate leaves no blob behind', async () => {
  const { key } = await t.newAccount('Duplicates');
  const before = await orphanBlobs();
  const notice = Buffer.from('Arrival notice\nContainer in port Friday (duplicate blob test)\n');
  const upload = async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(notice)]), 'notice.txt');
    return (await fetch(`${t.baseUrl}/v2/documents`, { method: 'POST', headers: { authorization: `Token ${key}` }, body: form })).status;
  };
  assert.equal(await upload(), 201);
  assert.equal(await upload(), 409);
  const submission = await post(
    await new MailComposer({ from: 'ops@forwarder.example', to: 'docs@svc.example', subject: 'Fwd: notice', text: 'See attached.', attachments: [{ filename: 'notice.txt', content: notice }] })
      .compile()
      .build(),
    key,
  );
  assert.equal(submission.relationships.documents.data.length, 1, 'the text only: the attachment is the uploaded document');
  assert.equal(await orphanBlobs(), before);
});
