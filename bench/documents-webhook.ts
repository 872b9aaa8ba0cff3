// The end-to-end part of `npm run bench:documents`: a real `svc serve` on a fresh database, a
// webhook for document.extracted pointing at a loopback receiver, and text PDFs uploaded with
// POST /v2/documents (multipart) at a steady rate, each timed from just before its upload to the
// arrival of its document.extracted at the receiver. Uploads are paced (open loop) rather than
// sent as one burst, so the figure is the latency a document sees at that rate, not the time a
// queue takes to drain.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GeneratedDocument } from '../scripts/generate-documents.ts';
import { startReceiver } from '../test/support/receiver.ts';
import { startServe, stopServe } from '../test/support/svc-process.ts';
import { benchDatabase } from './database.ts';

export interface WebhookLatency {
  count: number;
  ratePerSecond: number;
  workerIntervalMs: number;
  /** Upload → arrival at the receiver, in milliseconds, sorted. */
  latencies: number[];
  /** First upload to last arrival, in seconds. */
  seconds: number;
}

const KEY = 'bench-documents-key-0123456789abcdef';

export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function uploadToWebhook(pdfs: GeneratedDocument[], options: { ratePerSecond: number; workerIntervalMs: number; timeoutMs: number }): Promise<WebhookLatency> {
  const database = await benchDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-bench-documents-'));
  const receiver = await startReceiver();
  const arrivals = new Map<string, number>();
  let allArrived = () => {};
  const done = new Promise<void>((resolve) => (allArrived = resolve));
  receiver.answer = (req, res) => {
    res.writeHead(200).end('ok');
    const id: string | undefined = req.json?.data?.relationships?.reference_object?.data?.id;
    if (id && !arrivals.has(id)) arrivals.set(id, performance.now());
    if (arrivals.size === pdfs.length) allArrived();
  };
  const svc = await startServe({
    DATABASE_URL: database.url,
    SVC_DATA_DIR: dataDir,
    SVC_SANDBOX: 'false',
    SVC_BOOTSTRAP_API_KEY: KEY,
    SVC_WEBHOOK_ALLOW_INSECURE: 'true',
    SVC_WORKER_INTERVAL_MS: String(options.workerIntervalMs),
  });
  const headers = { authorization: `Token ${KEY}` };
  try {
    const hook = await fetch(`${svc.base}/webhooks`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'webhook', attributes: { url: receiver.url, events: ['document.extracted'] } } }),
    });
    if (hook.status !== 201) throw new Error(`webhook not created: ${hook.status} ${await hook.text()}`);

    const sentAt = new Map<string, number>();
    const upload = async (d: GeneratedDocument) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(d.bytes)], { type: d.contentType }), `${d.name}.pdf`);
      const start = performance.now();
      const res = await fetch(`${svc.base}/documents`, { method: 'POST', headers, body: form });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`upload of ${d.name}: ${res.status} ${text}`);
      sentAt.set(JSON.parse(text).data.id, start);
    };
    const first = performance.now();
    const uploads: Promise<void>[] = [];
    for (let i = 0; i < pdfs.length; i++) {
      // The i-th upload leaves at first + i/rate, however long the earlier ones take.
      const wait = first + (i * 1000) / options.ratePerSecond - performance.now();
      if (wait > 0) await sleep(wait);
      uploads.push(upload(pdfs[i]));
    }
    await Promise.all(uploads);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      done,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`only ${arrivals.size} of ${pdfs.length} document.extracted arrived in ${options.timeoutMs} ms`)), options.timeoutMs))),
    ]).finally(() => clearTimeout(timer));
    const latencies = [...sentAt].map(([id, start]) => arrivals.get(id)! - start).sort((a, b) => a - b);
    return { count: pdfs.length, ratePerSecond: options.ratePerSecond, workerIntervalMs: options.workerIntervalMs, latencies, seconds: (Math.max(...arrivals.values()) - first) / 1000 };
  } finally {
    await stopServe(svc);
    await receiver.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
