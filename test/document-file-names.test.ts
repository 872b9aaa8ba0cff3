// A file name given with a document keeps only its base name wherever it arrives (a direct upload's
// blob, a multipart part, an e-mail attachment): no folders of either kind of slash, no control or
// bidirectional characters, no leading dots, at most 255 characters with the extension kept.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { documentFileName, MAX_FILE_NAME } from '../src/domain/documents/file-name.ts';
import type { TestApp } from './support/app.ts';
import { documentsAppForFile } from './support/documents-app.ts';

let t: TestApp;
documentsAppForFile(100_000, (app) => (t = app));

test('the base name of a name given, as svc keeps it', () => {
  const cases: [string | undefined, string][] = [
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\ops\\notice.txt', 'notice.txt'],
    ['..\\..\\/..//boot.ini', 'boot.ini'],
    ['/abs/path/', 'document'],
    ['..', 'document'],
    ['.bashrc', 'bashrc'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['line\r\nbreak\u0000.txt', 'linebreak.txt'],
    ['  spaced name.pdf  ', 'spaced name.pdf'],
    ['plain.txt', 'plain.txt'],
    [undefined, 'document'],
  ];
  for (const [given, kept] of cases) assert.equal(documentFileName(given), kept, JSON.stringify(given));
  const long = documentFileName(`${'ü'.repeat(400)}.pdf`);
  assert.equal([...long].length, MAX_FILE_NAME);
  assert.ok(long.endsWith('ü.pdf'));
  assert.equal([...documentFileName('😀'.repeat(300))].length, MAX_FILE_NAME);
});

const fileNameOf = async (documentId: string): Promise<string> => (await t.request('GET', `/v2/documents/${documentId}`)).body.data.attributes.file_name;

test('a direct upload keeps the base name for its blob and the document attached from it', async () => {
  const bytes = Buffer.from('Arrival notice uploaded directly\n');
  const body = { blob: { filename: '../../../home/ops/.ssh/notice.txt', content_type: 'text/plain', byte_size: bytes.length, checksum: createHash('md5').update(bytes).digest('base64') } };
  const res = await t.request('POST', '/v2/direct_uploads', { body, headers: { 'content-type': 'application/json' } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.filename, 'notice.txt');
  const put = await fetch(res.body.direct_upload.url, { method: 'PUT', headers: res.body.direct_upload.headers, body: bytes });
  assert.equal(put.status, 204);
  const doc = await t.request('POST', '/v2/documents', { body: { data: { type: 'document', attributes: { name: 'Notice', attached_document: res.body.signed_id } } } });
  assert.equal(doc.status, 201, doc.text);
  assert.equal(doc.body.data.attributes.file_name, 'notice.txt');
  assert.equal(await fileNameOf(doc.body.data.id), 'notice.txt');
});

test('a multipart upload keeps the base name of its part', async () => {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('Packing list sent as a Windows path\n')], { type: 'text/plain' }), 'C:\\Users\\ops\\Desktop\\list.txt');
  const res = await fetch(`${t.baseUrl}/v2/documents`, { method: 'POST', headers: { authorization: `Token ${t.key}` }, body: form });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  assert.equal(JSON.parse(text).data.attributes.file_name, 'list.txt');
});

test('an e-mail attachment keeps the base name it was sent with', async () => {
  const raw = await new MailComposer({
    from: 'ops@forwarder.example',
    to: 'docs@svc.example',
    subject: 'Paths',
    text: 'Attached.',
    attachments: [{ filename: '../../var/spool/\u202E.evil.txt', content: 'Delivery order by mail\n', contentType: 'text/plain' }],
  })
    .compile()
    .build();
  const res = await fetch(`${t.baseUrl}/v2/email_submissions`, { method: 'POST', headers: { authorization: `Token ${t.key}`, 'content-type': 'message/rfc822' }, body: new Uint8Array(raw) });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  const { rows } = await t.db.query<{ file_name: string }>('SELECT file_name FROM documents WHERE email_submission_id = $1 ORDER BY file_name', [JSON.parse(text).data.id]);
  assert.deepEqual(rows.map((r) => r.file_name), ['evil.txt', 'message.txt']);
});
