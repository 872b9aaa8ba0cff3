// A document's processing job is durable: queued by one `svc serve`, which is killed before it
// runs it, and finished by the next process on the same database, whose webhook delivery brings
// document.extracted to a real receiver.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { serveBenchForFile, type ServeBench } from './support/serve-bench.ts';
import { crashServe, startServe, stopServe } from './support/svc-process.ts';

const KEY = 'documents-restart-key-0123456789';

let bench: ServeBench;
serveBenchForFile(KEY, (b) => (bench = b));

test('a job queued by a process that dies is run by the next one, and document.extracted reaches the webhook', async () => {
  const headers = { authorization: `Token ${KEY}` };
  // The first process looks for due work at start, then not for an hour: the job it queues stays queued.
  const first = await startServe(bench.env({ SVC_WORKER_INTERVAL_MS: '3600000' }));
  await bench.subscribe(first, ['document.extracted']);
  const number = containerNumber('OOLU', 123456);
  const form = new FormData();
  form.append('file', new Blob([`Arrival notice\nContainer ${number}\n`]), 'arrival.txt');
  const uploaded = await fetch(`${first.base}/documents`, { method: 'POST', headers, body: form });
  assert.equal(uploaded.status, 201);
  const id: string = ((await uploaded.json()) as any).data.id;
  await crashServe(first);

  const delivered = bench.nextDelivery();
  const second = await startServe(bench.env());
  try {
    const delivery = await delivered;
    const notification = delivery.json.data;
    assert.equal(notification.attributes.event, 'document.extracted');
    assert.deepEqual(notification.relationships.reference_object.data, { type: 'document', id });
    const document = delivery.json.included.find((r: any) => r.type === 'document' && r.id === id);
    assert.equal(document.attributes.extraction_status, 'extracted');
    assert.equal(document.attributes.document_type, 'arrival_notice');
    const res = await fetch(`${second.base}/documents/${id}?include=current_extraction`, { headers });
    const body = (await res.json()) as any;
    assert.deepEqual(body.included[0].attributes.payload.container_numbers, [number]);
  } finally {
    assert.equal(await stopServe(second), 0);
  }
});
