// Starts the real HTTP server on loopback against a fresh database, with a clock the test drives.
import type { FastifyInstance } from 'fastify';
import { ManualClock, type Clock } from '../../src/clock.ts';
import { buildApp, type AppOptions } from '../../src/http/app.ts';
import { createMetrics, type Metrics } from '../../src/metrics/metrics.ts';
import { createApiKey } from '../../src/services/api-keys.ts';
import { defaultDocumentSettings, type DocumentSettings } from '../../src/services/documents.ts';
import { insertAccount } from '../../src/store/accounts.ts';
import type { Db } from '../../src/store/db.ts';
import { defaultWebhookSettings, type WebhookSettings } from '../../src/webhooks/settings.ts';
import { freshDatabase, type TestDatabase } from './database.ts';

export interface Response {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is, for malformed-body tests. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  /** The tracking clock; the API's too unless the app was started with its own `apiClock`. */
  clock: ManualClock;
  baseUrl: string;
  /** API key of a first account. */
  key: string;
  accountId: string;
  /** The app's metrics registry, on the test's clocks; workers started for the app report into it too. */
  metrics: Metrics;
  /** The webhook settings the app's routes read on every request: a test may change them. */
  webhooks: WebhookSettings;
  newAccount(name?: string): Promise<{ accountId: string; key: string }>;
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
  close(): Promise<void>;
}

export interface TestAppOptions extends Pick<AppOptions, 'logger' | 'loggerInstance' | 'routes' | 'isTrackable' | 'timeouts' | 'metricsEndpoint' | 'pageNotFound' | 'rateLimiter'> {
  /**
   * The API's own clock, when it should differ from the tracking clock (`clock`, which the test
   * drives): as in `svc serve` in demo mode, where the API has real time and the tracking worker
   * the sandbox's accelerated time.
   */
  apiClock?: Clock;
  /** Webhook settings over the secure defaults, e.g. `{ allowInsecure: true }` for a receiver on loopback. */
  webhooks?: Partial<WebhookSettings>;
  /** Document settings over the defaults of an unconfigured svc, e.g. `{ maxBytes: 4096 }`. */
  documents?: Partial<DocumentSettings>;
  /** Registers more on the app before it listens (as svc serve mounts MCP); `baseUrl` is the app's origin, known once listening. */
  beforeListen?: (app: FastifyInstance, baseUrl: () => string, services: { db: Db; clock: Clock }) => PromiseLike<unknown>;
}

/** `options` reach buildApp: a logger, extra routes, a separate API clock. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { apiClock, webhooks: webhookOptions, documents: documentOptions, beforeListen, ...appOptions } = options;
  const webhooks: WebhookSettings = { ...defaultWebhookSettings, ...webhookOptions };
  const documents: DocumentSettings = { ...defaultDocumentSettings, ...documentOptions };
  const database = await freshDatabase();
  const clock = new ManualClock('2026-11-22T12:00:00Z');
  const metrics = createMetrics({ db: database.db, trackingClock: clock, clock: apiClock ?? clock });
  const app = await buildApp({ db: database.db, clock: apiClock ?? clock, trackingClock: clock, metrics, webhooks, documents, ...appOptions });
  let baseUrl = '';
  await beforeListen?.(app, () => baseUrl, { db: database.db, clock: apiClock ?? clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const newAccount = async (name = 'Test account') => {
    const account = await insertAccount(database.db, name);
    const { key } = await createApiKey(database.db, account.id, 'test');
    return { accountId: account.id, key };
  };
  const first = await newAccount('Account A');

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<Response> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? first.key : options.key;
    if (key !== null && !('authorization' in headers)) headers.authorization = `Token ${key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/vnd.api+json';
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    app,
    db: database.db,
    database,
    clock,
    baseUrl,
    key: first.key,
    accountId: first.accountId,
    metrics,
    webhooks,
    newAccount,
    request,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
