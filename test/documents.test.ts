// Documents over real HTTP and PostgreSQL: both ways to upload, the size cap, sniffing, duplicates,
// signed download links on the test's clock, edits, discards, list filters, account isolation,
// and the processing job (extraction, linking, tracking requests) run by the document worker.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import { SCHEMA_VERSION } from '../src/domain/documents/schemas/index.ts';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { DocumentWorker } from '../src/services/documents-worker.ts';
import { setFeature } from '../src/services/features.ts';
import { claimDueDocuments } from '../src/store/documents.ts';
import type { Response, TestApp } from './support/app.ts';
import { documentsAppForFile } from './support/documents-app.ts';
import type { OpenApiChecker } from './support/openapi.ts';
import { seedShipment } from './support/shipment-seeds.ts';

let t: TestApp;
let checker: OpenApiChecker;
const MAX_BYTES = 4096;
documentsAppForFile(MAX_BYTES, (app, appChecker) => ((t = app), (checker = appChecker)));

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
/** A real PNG, white all over: an image with no text on it. */
function blankPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xff)])));
  return Buffer.concat([PNG.subarray(0, 8), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
let unique = 0;
/** Text no other test uploads (the same bytes twice are a duplicate). */
const text = (body: string) => Buffer.from(`${body}\n(sample ${++unique})\n`);

async function multipart(bytes: Buffer, filename: string, options: { key?: string; name?: string; type?: string } = {}): Promise<Response> {
  const form = new FormData();
  if (options.name) form.append('name', options.name);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: options.type ?? 'application/octet-stream' }), filename);
  const res = await fetch(`${t.baseUrl}/v2/documents`, { method: 'POST', headers: { authorization: `Token ${options.key ?? t.key}` }, body: form });
  const body = await res.text();
  return { status: res.status, headers: res.headers, text: body, body: body ? JSON.parse(body) : undefined };
}

async function upload(bytes: Buffer, filename = 'notes.txt', key?: string): Promise<any> {
  const res = await multipart(bytes, filename, { key });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');

async function directUpload(bytes: Buffer, filename: string, key?: string): Promise<{ signed_id: string; direct_upload: { url: string; headers: Record<string, string> } }> {
  const res = await checker.call('POST', '/v2/direct_uploads', '/v2/direct_uploads', {
    key,
    body: { blob: { filename, content_type: 'application/pdf', byte_size: bytes.length, checksum: md5(bytes) } },
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const worker = () => new DocumentWorker({ db: t.db, clock: t.clock });

test('multipart upload: 201 with the sniffed type, the name and the extraction queued', async () => {
  const res = await multipart(text('Packing list for our order'), 'list.txt', { name: 'Our packing list', type: 'text/plain' });
  assert.equal(res.status, 201, res.text);
  const doc = res.body.data;
  assert.equal(doc.type, 'document');
  assert.equal(doc.attributes.name, 'Our packing list');
  assert.equal(doc.attributes.file_name, 'list.txt');
  assert.equal(doc.attributes.file_content_type, 'text/plain');
  assert.equal(doc.attributes.source, 'api');
  assert.equal(doc.attributes.extraction_status, 'pending');
  assert.equal(res.body.links.self, `${t.baseUrl}/v2/documents/${doc.id}`);
  assert.equal(doc.links.download, `/v2/documents/${doc.id}/download_url`);
  await checker.call('GET', `/v2/documents/${doc.id}`, '/v2/documents/{id}');
});

test('the content type comes from the bytes: a .txt named .pdf is text, a PDF and a PNG are what they are', async () => {
  assert.equal((await upload(text('just words'), 'invoice.pdf')).attributes.file_content_type, 'text/plain');
  assert.equal((await upload(PDF, 'scan.bin')).attributes.file_content_type, 'application/pdf');
  assert.equal((await upload(PNG, 'photo.txt')).attributes.file_content_type, 'image/png');
  assert.equal((await upload(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 'a.jpg')).attributes.file_content_type, 'image/jpeg');
  assert.equal((await upload(Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), 'a.tif')).attributes.file_content_type, 'image/tiff');
  const eml = text('From: ops@carrier.example\r\nTo: us@example.com\r\nSubject: Arrival notice\r\n\r\nYour container arrives Monday.');
  assert.equal((await upload(eml, 'mail.eml')).attributes.file_content_type, 'message/rfc822');

  const zip = await multipart(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0xff, 0xfe]), 'a.pdf');
  assert.equal(zip.status, 422, zip.text);
  assert.equal(zip.body.errors[0].code, 'unsupported_content_type');
  assert.equal(zip.body.errors[0].source.pointer, '/file');
});

test('the same bytes twice: 409 duplicate_document naming the first document', async () => {
  const bytes = text('Bill of lading, once');
  const first = await upload(bytes, 'a.txt');
  const res = await multipart(bytes, 'b.txt');
  assert.equal(res.status, 409, res.text);
  const [error] = res.body.errors;
  assert.equal(error.code, 'duplicate_document');
  assert.equal(error.title, 'Duplicate document');
  assert.equal(error.meta.existing_document_id, first.id);
  assert.equal(error.meta.existing_document_name, 'a.txt');
  // Another account may hold the same bytes.
  const other = await t.newAccount('Other');
  assert.equal((await multipart(bytes, 'c.txt', { key: other.key })).status, 201);
});

test('direct upload: create the blob, PUT the bytes, attach by signed id', async () => {
  const bytes = Buffer.concat([PDF, Buffer.from(`direct ${++unique}`)]);
  const blob = await directUpload(bytes, 'bl.pdf');
  assert.equal(blob.direct_upload.headers['Content-MD5'], md5(bytes));
  // Attaching before the bytes are there is refused.
  const early = await t.request('POST', '/v2/documents', { body: { data: { type: 'document', attributes: { name: 'BL', attached_document: blob.signed_id } } } });
  assert.equal(early.status, 422, early.text);
  assert.equal(early.body.errors[0].code, 'not_uploaded');
  assert.equal(early.body.errors[0].source.pointer, '/data/attributes/attached_document');

  const wrong = await fetch(blob.direct_upload.url, { method: 'PUT', headers: blob.direct_upload.headers, body: Buffer.from('x'.repeat(bytes.length)) });
  assert.equal(wrong.status, 422);
  assert.equal(((await wrong.json()) as any).errors[0].code, 'checksum_mismatch');
  const put = await fetch(blob.direct_upload.url, { method: 'PUT', headers: blob.direct_upload.headers, body: bytes });
  assert.equal(put.status, 204, await put.text());
  const tampered = await fetch(blob.direct_upload.url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), { method: 'PUT', body: bytes });
  assert.equal(tampered.status, 403);

  const res = await checker.call('POST', '/v2/documents', '/v2/documents', { body: { data: { type: 'document', attributes: { name: 'Bill of lading', attached_document: blob.signed_id } } } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.attributes.name, 'Bill of lading');
  assert.equal(res.body.data.attributes.file_name, 'bl.pdf');
  assert.equal(res.body.data.attributes.file_content_type, 'application/pdf');
  assert.equal(res.body.data.attributes.file_size_bytes, bytes.length);

  const forged = await t.request('POST', '/v2/documents', { body: { data: { attributes: { name: 'x', attached_document: 'not-a-signed-id' } } } });
  assert.equal(forged.status, 422);
  assert.equal(forged.body.errors[0].source.pointer, '/data/attributes/attached_document');
  const blank = await t.request('POST', '/v2/documents', { body: { data: { attributes: { attached_document: blob.signed_id } } } });
  assert.equal(blank.status, 422);
  assert.equal(blank.body.errors[0].source.pointer, '/data/attributes/name');
});

test('the size cap: 413 with a clear error, on either way of uploading', async () => {
  const big = Buffer.alloc(MAX_BYTES + 1, 'a');
  const res = await multipart(big, 'big.txt');
  assert.equal(res.status, 413, res.text);
  assert.equal(res.body.errors[0].code, 'too_large');
  assert.match(res.body.errors[0].detail, new RegExp(`larger than ${MAX_BYTES} bytes.*SVC_DOCUMENT_MAX_BYTES`));

  const declared = await t.request('POST', '/v2/direct_uploads', { body: { blob: { filename: 'big.txt', byte_size: big.length, checksum: md5(big) } }, headers: { 'content-type': 'application/json' } });
  assert.equal(declared.status, 413, declared.text);
  // A blob declared small whose PUT is over the cap.
  const small = await directUpload(Buffer.from('small'), 'small.txt');
  const put = await fetch(small.direct_upload.url, { method: 'PUT', body: big });
  assert.equal(put.status, 413);
  assert.equal(((await put.json()) as any).errors[0].code, 'too_large');
});

test('download_url: a signed link that serves the bytes, then expires on the clock', async () => {
  const bytes = text('Download me');
  const doc = await upload(bytes, 'Arrival notice ü.txt');
  const res = await checker.call('GET', `/v2/documents/${doc.id}/download_url`, '/v2/documents/{id}/download_url');
  const url: string = res.body.download_url;
  assert.ok(url.startsWith(`${t.baseUrl}/v2/document_files/`), url);
  const file = await fetch(url);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-type'), 'text/plain');
  assert.match(file.headers.get('content-disposition') ?? '', /filename\*=UTF-8''Arrival%20notice%20%C3%BC\.txt/);
  assert.deepEqual(Buffer.from(await file.arrayBuffer()), bytes);

  t.clock.advance(60_000);
  const expired = await fetch(url);
  assert.equal(expired.status, 403);
  assert.equal(((await expired.json()) as any).errors[0].code, 'expired_link');
  // A link for another document is not made by editing this one.
  const forged = await fetch(url.replace(doc.id, '00000000-0000-4000-8000-000000000000'));
  assert.equal(forged.status, 403);
});

test('PATCH sets and clears the manual type and data; DELETE discards', async () => {
  const doc = await upload(text('To be edited'));
  const patch = (attributes: Record<string, unknown>) => checker.call('PATCH', `/v2/documents/${doc.id}`, '/v2/documents/{id}', { body: { data: { type: 'document', attributes } } });
  let res = await patch({ document_type_manual: 'commercial_invoice', extracted_data_manual: { invoice_number: 'INV-1' } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.attributes.document_type_manual, 'commercial_invoice');
  assert.deepEqual(res.body.data.attributes.extracted_data_manual, { invoice_number: 'INV-1' });
  res = await patch({ extracted_data_manual: null });
  assert.equal(res.body.data.attributes.extracted_data_manual, null);
  assert.equal(res.body.data.attributes.document_type_manual, 'commercial_invoice', 'left out: unchanged');
  res = await t.request('PATCH', `/v2/documents/${doc.id}`, { body: { data: { attributes: { document_type_manual: 'poem' } } } });
  assert.equal(res.status, 422);
  assert.equal(res.body.errors[0].source.pointer, '/data/attributes/document_type_manual');

  res = await t.request('DELETE', `/v2/documents/${doc.id}`);
  assert.equal(res.status, 204);
  res = await checker.call('GET', `/v2/documents/${doc.id}`, '/v2/documents/{id}');
  assert.equal(res.status, 404);
  assert.equal(res.body.errors[0].detail, "Couldn't find Document");
  assert.equal((await t.request('DELETE', `/v2/documents/${doc.id}`)).status, 404);
  // Discarded, its bytes may come again.
  assert.equal((await multipart(Buffer.from(''), 'empty.txt')).status, 422);
});

test('the list: filters by file name, reference and type, sorts, pages', async () => {
  const { key } = await t.newAccount('Lister');
  const number = containerNumber('TGHU', 123);
  const a = await upload(text(`Arrival notice\nContainer ${number}`), 'arrival-ABC.txt', key);
  t.clock.advance(1000);
  const b = await upload(text('Commercial invoice 42'), 'invoice-XYZ.txt', key);
  await worker().drain();
  const list = async (query: string) => {
    const res = await checker.call('GET', `/v2/documents${query}`, '/v2/documents', { key });
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((d: any) => d.id);
  };
  assert.deepEqual(await list(''), [b.id, a.id]);
  assert.deepEqual(await list('?sort=created_at'), [a.id, b.id]);
  assert.deepEqual(await list('?filter[filename]=arrival'), [a.id]);
  assert.deepEqual(await list('?filter[filename]=XYZ'), [b.id]);
  assert.deepEqual(await list(`?filter[reference]=${number.toLowerCase()}`), [a.id]);
  assert.deepEqual(await list('?filter[document_types]=arrival_notice'), [a.id]);
  assert.deepEqual(await list('?filter[document_types]=arrival_notice,commercial_invoice&sort=document_type'), [a.id, b.id]);
  assert.deepEqual(await list('?page[size]=1&page[number]=2'), [a.id]);
  const bad = await t.request('GET', '/v2/documents?filter[document_types]=poem', { key });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].source.parameter, 'filter[document_types]');
  assert.equal((await t.request('GET', '/v2/documents?sort=size', { key })).status, 400);
  assert.equal((await t.request('GET', '/v2/documents?include=nonsense', { key })).status, 400);
});

test('every route keeps to the account: another account gets 404s and an empty list', async () => {
  const doc = await upload(text('Private'));
  const blob = await directUpload(Buffer.concat([PDF, Buffer.from('private blob')]), 'p.pdf');
  const other = await t.newAccount('Intruder');
  const as = (method: string, path: string, body?: unknown) => t.request(method, path, { key: other.key, body });
  for (const [method, path, body] of [
    ['GET', `/v2/documents/${doc.id}`],
    ['PATCH', `/v2/documents/${doc.id}`, { data: { attributes: { document_type_manual: 'other' } } }],
    ['GET', `/v2/documents/${doc.id}/download_url`],
    ['POST', `/v2/documents/${doc.id}/reextract`],
    ['POST', `/v2/documents/${doc.id}/reclassify`],
    ['POST', `/v2/documents/${doc.id}/relink`],
    ['POST', `/v2/documents/${doc.id}/rotate`, { degrees: 90 }],
    ['DELETE', `/v2/documents/${doc.id}`],
  ] as const) {
    const res = await as(method, path, body);
    assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
  }
  assert.deepEqual((await as('GET', '/v2/documents')).body.data, []);
  const attach = await as('POST', '/v2/documents', { data: { attributes: { name: 'stolen', attached_document: blob.signed_id } } });
  assert.equal(attach.status, 422, attach.text);
  // Still there for its owner.
  assert.equal((await t.request('GET', `/v2/documents/${doc.id}`)).status, 200);
  assert.equal((await t.request('GET', '/v2/documents', { key: null })).status, 401);
});

test('document types and their schemas', async () => {
  const types = await checker.call('GET', '/v2/documents/types', '/v2/documents/types');
  assert.ok(types.body.document_types.some((t: any) => t.code === 'bill_of_lading' && t.label === 'Bill of lading'));
  for (const { code } of types.body.document_types) {
    const res = await checker.call('GET', `/v2/document_schemas/${code}@${SCHEMA_VERSION}`, '/v2/document_schemas/{id}');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.id, `${code}@${SCHEMA_VERSION}`);
    assert.equal(res.body.data.attributes.schema_format, 'json_schema');
    assert.equal(res.body.data.attributes.schema_payload.type, 'object');
    assert.ok(res.body.data.attributes.schema_payload.properties.container_numbers);
  }
  const missing = await checker.call('GET', '/v2/document_schemas/unknown@2026-03-23', '/v2/document_schemas/{id}');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.errors[0].detail, "Couldn't find DocumentSchema with 'id'=unknown@2026-03-23");
});

test('rotate: images only, by 90, 180 or 270', async () => {
  const image = await upload(blankPng(6, 2), 'photo.png');
  const res = await checker.call('POST', `/v2/documents/${image.id}/rotate`, '/v2/documents/{id}/rotate', { body: { degrees: 90 }, headers: { 'content-type': 'application/json' } });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(res.body, { status: 'accepted' });
  const bad = await t.request('POST', `/v2/documents/${image.id}/rotate`, { body: { degrees: 45 } });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.errors[0].title, 'Invalid rotation');
  assert.equal(bad.body.errors[0].detail, 'degrees must be one of: 90, 180, 270');
  const textDoc = await upload(text('not an image'));
  const refused = await t.request('POST', `/v2/documents/${textDoc.id}/rotate`, { body: { degrees: 180 } });
  assert.equal(refused.status, 422);
  assert.equal(refused.body.errors[0].code, 'not_rotatable');
});

test('processing: extraction classifies, links to shipments and containers, and tracks new numbers when the account wants', async () => {
  const { accountId, key } = await t.newAccount('Processor');
  const known = containerNumber('TGHU', 987654);
  const unknown = containerNumber('MSKU', 765432);
  const badCheck = known.slice(0, 10) + ((Number(known[10]) + 1) % 10);
  const shipmentId = await seedShipment(t.db, accountId, t.clock.now(), { number: 'MAEU123456789', scac: 'MAEU', containers: [{ number: known, status: 'on_ship' }] });
  const doc = await upload(text(`ARRIVAL NOTICE\nB/L No: MAEU123456789\nContainers: ${known.slice(0, 4)} ${known.slice(4, 10)}-${known[10]}, ${unknown}, ${badCheck}`), 'an.txt', key);
  await worker().drain();

  const res = await checker.call('GET', `/v2/documents/${doc.id}?include=shipments,cargos,current_extraction,account,user,email_submission`, '/v2/documents/{id}', { key });
  const data = res.body.data;
  assert.equal(data.attributes.extraction_status, 'extracted');
  assert.equal(data.attributes.document_type, 'arrival_notice');
  assert.deepEqual(data.relationships.shipments.data, [{ type: 'shipment', id: shipmentId }]);
  assert.equal(data.relationships.cargos.data.length, 1);
  const representation = res.body.included.find((r: any) => r.type === 'document_representation');
  assert.deepEqual(representation.attributes.payload.container_numbers, [known, unknown], 'the number with a wrong check digit is not one');
  assert.equal(representation.attributes.payload.bill_of_lading_number, 'MAEU123456789');
  assert.ok(res.body.included.some((r: any) => r.type === 'container' && r.attributes.number === known));
  assert.deepEqual(res.body.included.filter((r: any) => r.type === 'account').map((r: any) => r.id), [accountId]);

  // The untracked container became a tracking request (the line inferred from its owner code).
  const requests = await t.request('GET', '/v2/tracking_requests', { key });
  assert.deepEqual(requests.body.data.map((r: any) => [r.attributes.request_number, r.attributes.request_type]), [[unknown, 'container']]);

  // Without the feature, numbers stay untracked; relink runs linking alone.
  await setFeature(t.db, accountId, 'document_tracking', false);
  const second = await upload(text(`Booking confirmation\nContainer ${containerNumber('TCLU', 111222)}`), 'bc.txt', key);
  await worker().drain();
  assert.equal((await t.request('GET', '/v2/tracking_requests', { key })).body.data.length, 1);
  for (const action of ['reextract', 'reclassify', 'relink']) {
    const queued = await checker.call('POST', `/v2/documents/${second.id}/${action}`, `/v2/documents/{id}/${action}`, { key });
    assert.equal(queued.status, 202, queued.text);
    assert.deepEqual(queued.body, { status: 'accepted' });
  }
  await worker().drain();
  assert.equal((await t.request('GET', `/v2/documents/${second.id}`, { key })).body.data.attributes.document_type, 'booking_confirmation');
});

test('an image without text is reported as extraction_failed', async () => {
  const doc = await upload(blankPng(64, 32), 'scan.png');
  await worker().drain();
  const res = await t.request('GET', `/v2/documents/${doc.id}`);
  assert.equal(res.body.data.attributes.extraction_status, 'failed');
  // With tesseract installed the page is read and found empty; without it, the note says OCR is missing.
  assert.match(res.body.data.attributes.classification_notes, /No text could be read/);
  const { rows } = await t.db.query('SELECT name FROM domain_events WHERE reference_id = $1', [doc.id]);
  assert.deepEqual(rows.map((r) => r.name), ['document.extraction_failed']);
});

test('a damaged PDF fails at once, unretried: reading the same bytes again cannot help', async () => {
  const doc = await upload(Buffer.concat([PDF, Buffer.from('\nthis is no PDF body')]), 'broken.pdf');
  await worker().drain();
  const res = await t.request('GET', `/v2/documents/${doc.id}`);
  assert.equal(res.body.data.attributes.extraction_status, 'failed');
  assert.match(res.body.data.attributes.classification_notes, /could not be read/);
});

test('a job claimed by a worker that died is taken over once its lease lapses', async () => {
  const doc = await upload(text(`Bill of lading ${containerNumber('CMAU', 555000)}`));
  // A worker leases the job, then its process dies before it finishes.
  const claimed = await claimDueDocuments(t.db, t.clock.now(), new Date(t.clock.now().getTime() + 5 * 60_000), 100, 100);
  assert.ok(claimed.some((d) => d.id === doc.id));
  const next = worker();
  assert.equal(await next.runDue(), 0, 'the lease holds');
  t.clock.advance(5 * 60_000);
  await next.drain();
  assert.equal((await t.request('GET', `/v2/documents/${doc.id}`)).body.data.attributes.extraction_status, 'extracted');
});

test('an extraction engine that throws is retried, then reported failed', async () => {
  const doc = await upload(text('Engine trouble'));
  let calls = 0;
  const flaky = new DocumentWorker({
    db: t.db,
    clock: t.clock,
    extract: async () => {
      calls++;
      throw new Error('engine down');
    },
  });
  for (let i = 0; i < 6; i++) {
    await flaky.drain();
    t.clock.advance(60 * 60_000);
  }
  assert.equal(calls, 5);
  const res = await t.request('GET', `/v2/documents/${doc.id}`);
  assert.equal(res.body.data.attributes.extraction_status, 'failed');
  assert.match(res.body.data.attributes.classification_notes, /engine down/);
});

test('a round of more jobs than the pool has connections, each with numbers to track, runs to the end', async () => {
  const { key } = await t.newAccount('Busy');
  const numbers = Array.from({ length: 12 }, (_, i) => containerNumber('MSKU', 400000 + i));
  for (const number of numbers) await upload(text(`Arrival notice\nContainer ${number}`), `${number}.txt`, key);
  await worker().drain();
  const requests = await t.request('GET', '/v2/tracking_requests?page[size]=100', { key });
  assert.deepEqual(requests.body.data.map((r: any) => r.attributes.request_number).sort(), [...numbers].sort());
});

test('a multipart name or file name PostgreSQL cannot hold, or too long, is a 422 naming it', async () => {
  const nul = await multipart(text('nul name'), 'a.txt', { name: 'bad\u0000name' });
  assert.equal(nul.status, 422, nul.text);
  assert.equal(nul.body.errors[0].source.pointer, '/name');
  const long = await multipart(text('long file name'), `${'x'.repeat(501)}.txt`);
  assert.equal(long.status, 422, long.text);
  assert.equal(long.body.errors[0].source.pointer, '/file');
});
