// A document's processing job is durable: queued by one `svc serve`, which is killed before it
// runs it, and finished by the next process on the same database, whose webhook delivery brings
// document.extracted to a real receiver.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';
import { startReceiver, type Received, type Receiver } from './support/receiver.ts';
import { crashServe, startServe, stopServe } from './support/svc-process.ts';

const KEY = 'documents-restart-key-0123456789';

let database: TestDatabase;
let receiver: Receiver;
forFile(
  async () => ({ database: await freshDatabase(), receiver: await startReceiver() }),
  (s) => ({ database, receiver } = s),
  async (s) => {
    await s.receiver.close();
    await s.database.drop();
  },
);

test('a job queued by a process that dies is run by the next one, and document.extracted reaches the webhook', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-documents-'));
  const env = (intervalMs: number) => ({
    DATABASE_URL: database.url,
    SVC_DATA_DIR: dataDir,
    SVC_SANDBOX: 'false',
    SVC_BOOTSTRAP_API_KEY: KEY,
    SVC_WEBHOOK_ALLOW_INSECURE: 'true',
    SVC_WORKER_INTERVAL_MS: String(intervalMs),
  });
  const headers = { authorization: `Token ${KEY}` };
  try {
    // The first process looks for due work at start, then not for an hour: the job it queues stays queued.
    const first = await startServe(env(3_600_000));
    const hook = await fetch(`${first.base}/webhooks`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'webhook', attributes: { url: receiver.url, events: ['document.extracted'] } } }),
    });
    assert.equal(hook.status, 201, await hook.text());
    const number = containerNumber('OOLU', 123456);
    const form = new FormData();
    form.append('file', new Blob([`Arrival notice\nContainer ${number}\n`]), 'arrival.txt');
    const uploaded = await fetch(`${first.base}/documents`, { method: 'POST', headers, body: form });
    assert.equal(uploaded.status, 201);
    const id: string = ((await uploaded.json()) as any).data.id;
    await crashServe(first);

    const delivered = new Promise<Received>((resolve) => {
      receiver.answer = (req, res) => {
        res.writeHead(200).end('ok');
        resolve(req);
      };
    });
    const second = await startServe(env(50));
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
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
