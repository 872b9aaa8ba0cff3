// POST /v2/documents/{id}/rotate turns an image's pixels (sharp): the document's file becomes the
// turned bytes (width and height swap at 90°, a new SHA-256, the duplicate rule kept), its
// extraction runs again, and a scan uploaded sideways is read by OCR once it is turned upright.
// PDFs and damaged images are refused with a 422.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { renderImage } from '../scripts/generate-documents.ts';
import { ocrAvailable, rasteriserAvailable } from '../src/documents/ocr.ts';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { DocumentWorker } from '../src/services/documents-worker.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (app) => (t = app));

async function upload(bytes: Buffer, filename: string): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  const res = await fetch(`${t.baseUrl}/v2/documents`, { method: 'POST', headers: { authorization: `Token ${t.key}` }, body: form });
  return { status: res.status, body: await res.json() };
}

async function uploaded(bytes: Buffer, filename: string): Promise<string> {
  const res = await upload(bytes, filename);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.id;
}

const rotate = (id: string, degrees: number) => t.request('POST', `/v2/documents/${id}/rotate`, { body: { degrees } });

/** The document's file, through its signed download link. */
async function download(id: string): Promise<Buffer> {
  const link = await t.request('GET', `/v2/documents/${id}/download_url`);
  const res = await fetch(link.body.download_url);
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

/** A picture 30 wide and 10 high: left half black, right half white, so a turn shows. */
const halves = (format: 'png' | 'jpeg' | 'tiff', shade = 0) =>
  sharp({ create: { width: 30, height: 10, channels: 3, background: '#ffffff' } })
    .composite([{ input: { create: { width: 15, height: 10, channels: 3, background: { r: shade, g: shade, b: shade } } }, left: 0, top: 0 }])
    .toFormat(format)
    .toBuffer();

test('PNG, JPEG and TIFF: a quarter turn swaps width and height, turns the pixels and queues extraction again', async () => {
  for (const [format, type] of [['png', 'image/png'], ['jpeg', 'image/jpeg'], ['tiff', 'image/tiff']] as const) {
    const id = await uploaded(await halves(format), `picture.${format}`);
    await new DocumentWorker({ db: t.db, clock: t.clock }).drain();
    const before = (await t.request('GET', `/v2/documents/${id}`)).body.data.attributes;

    const res = await rotate(id, 90);
    assert.equal(res.status, 202, res.text);
    const turned = await download(id);
    const meta = await sharp(turned).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], [format, 10, 30], format);
    // Clockwise: the black left half is now the top.
    const { data } = await sharp(turned).greyscale().raw().toBuffer({ resolveWithObject: true });
    assert.ok(data[0] < 60 && data[data.length - 1] > 200, `${format}: top black, bottom white`);

    const after = (await t.request('GET', `/v2/documents/${id}`)).body.data.attributes;
    assert.equal(after.file_content_type, type);
    assert.equal(after.file_size_bytes, turned.length);
    assert.equal(after.extraction_status, before.extraction_status, 'the last result stands until the new one');
    const { rows } = await t.db.query('SELECT sha256, job, rotation FROM documents WHERE id = $1', [id]);
    assert.equal(rows[0].job, 'extract');
    assert.equal(rows[0].rotation, 90);

    // Turned back, a full turn in all: the pixels are upright again.
    assert.equal((await rotate(id, 270)).status, 202);
    const back = await sharp(await download(id)).metadata();
    assert.deepEqual([back.width, back.height], [30, 10]);
  }
  // The replaced blobs are gone: one blob per document.
  const { rows } = await t.db.query('SELECT count(*)::int AS blobs, (SELECT count(*)::int FROM documents) AS docs FROM document_blobs');
  assert.equal(rows[0].blobs, rows[0].docs);
});

test('the duplicate rule holds after a turn: bytes another document has are a 409 naming it, and the turned bytes uploaded again are a duplicate', async () => {
  const upright = await halves('png', 10);
  const sideways = await sharp(upright).rotate(90).png().toBuffer();
  const a = await uploaded(upright, 'a.png');
  const b = await uploaded(sideways, 'b.png');
  // Turning a yields the bytes b holds already (the same encoder, the same pixels).
  const clash = await rotate(a, 90);
  assert.equal(clash.status, 409, clash.text);
  assert.equal(clash.body.errors[0].code, 'duplicate_document');
  assert.equal(clash.body.errors[0].meta.existing_document_id, b);
  assert.deepEqual(await download(a), upright, 'a refused rotation leaves the file as it was');
  // b turned: its new bytes are its own, and uploading them again is a duplicate of b.
  assert.equal((await rotate(b, 180)).status, 202);
  const again = await upload(await download(b), 'c.png');
  assert.equal(again.status, 409);
  assert.equal(again.body.errors[0].meta.existing_document_id, b);
});

test('PDFs, text and damaged images are refused with a 422; an unknown id is a 404', async () => {
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 100]);
  const pdfId = await uploaded(Buffer.from(await pdf.save()), 'doc.pdf');
  const refused = await rotate(pdfId, 90);
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.errors[0].code, 'not_rotatable');
  assert.match(refused.body.errors[0].detail, /Only images \(PNG, JPEG, TIFF\)/);

  const broken = await uploaded(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a png')]), 'broken.png');
  const unreadable = await rotate(broken, 180);
  assert.equal(unreadable.status, 422, unreadable.text);
  assert.equal(unreadable.body.errors[0].code, 'not_rotatable');
  assert.match(unreadable.body.errors[0].detail, /could not be read/);

  assert.equal((await rotate('00000000-0000-4000-8000-000000000000', 90)).status, 404);
});

test('a scan uploaded sideways is read by OCR once turned upright', { skip: !((await ocrAvailable()) && (await rasteriserAvailable())) && 'tesseract or pdftoppm is not installed' }, async () => {
  const number = containerNumber('MSKU', 482913);
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('ARRIVAL NOTICE', { x: 60, y: 760, size: 22, font });
  page.drawText(`Container number: ${number}`, { x: 60, y: 700, size: 16, font });
  page.drawText('Port of discharge: Rotterdam', { x: 60, y: 670, size: 16, font });
  const upright = Buffer.from(await renderImage(await pdf.save(), 'png'));
  // Scanned the wrong way round: turned a quarter anticlockwise.
  const id = await uploaded(await sharp(upright).rotate(270).png().toBuffer(), 'scan.png');
  const worker = new DocumentWorker({ db: t.db, clock: t.clock });
  const numbersRead = async () => {
    await worker.drain();
    const res = await t.request('GET', `/v2/documents/${id}?include=current_extraction`);
    return (res.body.included[0].attributes.payload.container_numbers ?? []) as string[];
  };
  assert.ok(!(await numbersRead()).includes(number), 'sideways, OCR does not read the number');

  assert.equal((await rotate(id, 90)).status, 202);
  assert.deepEqual(await numbersRead(), [number]);
});
