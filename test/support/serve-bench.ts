// What tests of a real `svc serve` that delivers webhooks share for a file: a fresh database, a
// webhook receiver, a data folder, the environment that ties them together, and a subscription.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshDatabase, type TestDatabase } from './database.ts';
import { forFile } from './for-file.ts';
import { startReceiver, type Received, type Receiver } from './receiver.ts';
import type { SvcProcess } from './svc-process.ts';

export interface ServeBench {
  database: TestDatabase;
  receiver: Receiver;
  /** `svc serve`'s environment: this database and data folder, no sandbox, `key` as its API key, webhooks to loopback, work looked for every 50 ms; `extra` over it. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Subscribes the receiver to `events` through svc's REST API. */
  subscribe(svc: SvcProcess, events: string[]): Promise<void>;
  /** The next request the receiver gets (answered 200). */
  nextDelivery(): Promise<Received>;
}

export function serveBenchForFile(key: string, keep: (bench: ServeBench) => void): void {
  forFile(
    async () => {
      const database = await freshDatabase();
      const receiver = await startReceiver();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-serve-'));
      const bench: ServeBench & { dataDir: string } = {
        database,
        receiver,
        dataDir,
        env: (extra = {}) => ({
          DATABASE_URL: database.url,
          SVC_DATA_DIR: dataDir,
          SVC_SANDBOX: 'false',
          SVC_BOOTSTRAP_API_KEY: key,
          SVC_WEBHOOK_ALLOW_INSECURE: 'true',
          SVC_WORKER_INTERVAL_MS: '50',
          ...extra,
        }),
        async subscribe(svc, events) {
          const res = await fetch(`${svc.base}/webhooks`, {
            method: 'POST',
            headers: { authorization: `Token ${key}`, 'content-type': 'application/vnd.api+json' },
            body: JSON.stringify({ data: { type: 'webhook', attributes: { url: receiver.url, events } } }),
          });
          assert.equal(res.status, 201, await res.text());
        },
        nextDelivery: () =>
          new Promise<Received>((resolve) => {
            receiver.answer = (req, res) => {
              res.writeHead(200).end('ok');
              resolve(req);
            };
          }),
      };
      return bench;
    },
    keep,
    async (bench) => {
      await bench.receiver.close();
      await bench.database.drop();
      rmSync(bench.dataDir, { recursive: true, force: true });
    },
  );
}
