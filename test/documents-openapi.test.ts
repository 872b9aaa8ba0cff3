// The served OpenAPI document describes every way to upload a document: the multipart form of
// POST /v2/documents, the direct upload's signed PUT, the signed download, and the reference's
// Rails path of POST direct_uploads, which answers as POST /v2/direct_uploads does.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { SvcClient } from '../sdk/src/client.ts';
import { AuthorizationError } from '../sdk/src/errors.ts';
import type { TestApp } from './support/app.ts';
import { checkedAppForFile, type OpenApiChecker } from './support/openapi.ts';

let t: TestApp;
let checker: OpenApiChecker;
checkedAppForFile((app, check) => ((t = app), (checker = check)));

const served = async () => (await t.request('GET', '/v2/openapi.json')).body;

test('POST /v2/documents: the JSON body and the multipart form with its file part', async () => {
  const { paths } = await served();
  const content = paths['/v2/documents'].post.requestBody.content;
  assert.ok(content['application/vnd.api+json'].schema.properties.data);
  const form = content['multipart/form-data'].schema;
  assert.deepEqual(form.required, ['file']);
  assert.deepEqual(form.properties.file.format, 'binary');
  assert.equal(form.properties.name.type, 'string');
});

test('the signed-link routes: PUT of a direct upload, GET of a download, without an API key', async () => {
  const { paths } = await served();
  const put = paths['/v2/direct_uploads/{token}'].put;
  assert.deepEqual(put.security, []);
  assert.equal(put.requestBody.content['*/*'].schema.format, 'binary');
  assert.ok(put.responses['204'] && put.responses['403'] && put.responses['422']);
  const get = paths['/v2/document_files/{token}'].get;
  assert.deepEqual(get.security, []);
  assert.equal(get.responses['200'].content['*/*'].schema.format, 'binary');
  assert.ok(get.responses['403'] && get.responses['404']);
  assert.equal(new Set(Object.values(paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId))).size, Object.values(paths).flatMap((item: any) => Object.keys(item)).length, 'operation ids are unique');
});

test("the reference's Rails path of direct uploads is served and described, and its blob attaches", async () => {
  const bytes = Buffer.from('Booking confirmation, sent through the Rails path\n');
  {
    const path = '/rails/active_storage/direct_uploads';
    const body = { blob: { filename: 'booking.txt', content_type: 'text/plain', byte_size: bytes.length, checksum: createHash('md5').update(bytes).digest('base64') } };
    const res = await checker.call('POST', path, path, { body, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.direct_upload.url, /\/v2\/direct_uploads\//);
    assert.equal((await t.request('POST', path, { key: null, body })).status, 401);
    const put = await fetch(res.body.direct_upload.url, { method: 'PUT', headers: res.body.direct_upload.headers, body: bytes });
    assert.equal(put.status, 204);
    const doc = await t.request('POST', '/v2/documents', { body: { data: { type: 'document', attributes: { name: 'Booking', attached_document: res.body.signed_id } } } });
    assert.equal(doc.status, 201, doc.text);
  }
});

test('the SDK sends a direct upload through the Rails path, PUTs its bytes and downloads the file', async () => {
  const client = new SvcClient({ baseUrl: t.baseUrl, token: t.key, maxRetries: 0 });
  const bytes = new TextEncoder().encode('Delivery order, uploaded by the SDK\n') as Uint8Array<ArrayBuffer>;
  const blob = await client.documents.createDirectUploadRails({ filename: 'order.txt', content_type: 'text/plain', byte_size: bytes.length, checksum: createHash('md5').update(bytes).digest('base64') });
  await client.documents.putDirectUpload(blob.direct_upload.url, bytes, blob.direct_upload.headers);
  const doc = await client.documents.create({ name: 'Order', attached_document: blob.signed_id });
  const file = await client.documents.downloadFile(await client.documents.downloadUrl(doc.id));
  assert.deepEqual(Buffer.from(file), Buffer.from(bytes));
  await assert.rejects(client.documents.downloadFile('not-a-token'), AuthorizationError);
});
