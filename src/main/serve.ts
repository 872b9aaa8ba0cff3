// `svc serve`: the REST API (and, as they arrive, the other roles) in one process.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { registerAisMetrics } from '../ais/counters.ts';
import { AisWorker } from '../ais/worker.ts';
import { resolveCarrier, sandboxEndpoints } from '../carriers/endpoints.ts';
import { CarrierOutcomeRecorder } from '../carriers/outcome-recorder.ts';
import { ConnectorRegistry, type CarrierEndpoint } from '../carriers/registry.ts';
import { PROTOCOLS } from '../carriers/protocols.ts';
import { DEFAULT_AIS_PUSH_INTERVAL_MS, NO_DIRT, REALISTIC_DIRT, SANDBOX_SCACS, startSandbox, startSandboxAis } from '../sandbox/index.ts';
import { aisFeeds, feedLabel, type AisFeedAddress } from '../config/ais-feeds.ts';
import { appUrl, type Config } from '../config/index.ts';
import { systemClock, type Clock } from '../clock.ts';
import { DAY } from '../domain/time-units.ts';
import { extractInChild, stopExtractionProcesses } from '../documents/extraction-processes.ts';
import { buildApp } from '../http/app.ts';
import { metricsOnApiPort, startMetricsServer } from '../http/metrics.ts';
import { createMetrics, type Metrics } from '../metrics/metrics.ts';
import { ensureDefaultAccount } from '../services/api-keys.ts';
import { chooseRateLimiter } from '../services/choose-rate-limiter.ts';
import { registerRateLimitMetrics } from '../services/rate-limiters.ts';
import { ensureOwnerSignIn, signInLinkUrl } from '../services/users.ts';
import { documentSettingsFrom } from '../services/documents.ts';
import { DocumentWorker } from '../services/documents-worker.ts';
import { TrackingWorker } from '../services/tracking/worker.ts';
import { outageAwareLog } from '../store/database-unavailable.ts';
import type { Db } from '../store/db.ts';
import { DeliveryWorker } from '../webhooks/delivery-worker.ts';
import { webhookSettingsFrom } from '../webhooks/settings.ts';
import { lockDataDir } from './data-lock.ts';
import { openDatabase } from './database.ts';
import { DemoClock } from './demo-clock.ts';
import { createLogger, databaseLog, say, warnAboutSettings, workerLog } from './logger.ts';
import { mountMcp } from './mcp.ts';
import { mountWeb, pageNotFound } from './web.ts';
import { smtpTlsOf, startSmtpListener, type SmtpListener } from './smtp.ts';
import { listenFailure, StartError } from './start-errors.ts';

/**
 * The sandbox carrier network on loopback, with an endpoint per sandbox carrier. Its journeys run
 * SVC_SANDBOX_SPEED times faster than real time, and the tracking worker runs on the same
 * accelerated clock, so both sides of the DCSA connection agree on "now".
 */
async function startSandboxCarriers(config: Config, say: (msg: string) => void) {
  // Demo time continues where the last run left it (demo-clock.ts).
  const clock = new DemoClock(path.join(config.SVC_DATA_DIR, 'demo-clock.json'), config.SVC_SANDBOX_SPEED);
  const sandbox = await startSandbox({
    port: config.SVC_SANDBOX_PORT,
    host: '127.0.0.1',
    clock,
    speed: config.SVC_SANDBOX_SPEED,
    dirt: config.SVC_SANDBOX_DIRT === 'none' ? NO_DIRT : REALISTIC_DIRT,
    statePath: path.join(config.SVC_DATA_DIR, 'sandbox-state.json'),
    worldDataPath: path.join(config.SVC_DATA_DIR, 'sandbox-world.json'),
  }).catch((err: unknown) => {
    throw listenFailure(err, '127.0.0.1', config.SVC_SANDBOX_PORT, { port: 'SVC_SANDBOX_PORT' });
  });
  say(`sandbox carrier network on ${sandbox.url} (${SANDBOX_SCACS.join(', ')}), ${config.SVC_SANDBOX_SPEED}x real time`);
  // The sandbox's ships on AIS, on the same clock: what svc's AIS ingestion reads by default.
  const ais = await startSandboxAis({
    port: config.SVC_SANDBOX_AIS_PORT,
    host: '127.0.0.1',
    clock,
    speed: config.SVC_SANDBOX_SPEED,
    source: sandbox.sandbox,
    pushIntervalMs: DEFAULT_AIS_PUSH_INTERVAL_MS,
  }).catch(async (err: unknown) => {
    await sandbox.close();
    throw listenFailure(err, '127.0.0.1', config.SVC_SANDBOX_AIS_PORT, { port: 'SVC_SANDBOX_AIS_PORT' });
  });
  say(`sandbox AIS feed on ${ais.address} (NMEA 0183 over TCP)`);
  const endpoints: CarrierEndpoint[] = sandboxEndpoints(sandbox.url, SANDBOX_SCACS);
  const close = () => ais.close().finally(() => sandbox.close()).finally(() => clock.close());
  return { clock, close, endpoints, url: sandbox.url, aisPort: ais.port };
}
type SandboxCarriers = Awaited<ReturnType<typeof startSandboxCarriers>>;

/** The webhook delivery worker as configured; it runs on real time, as receivers check timestamps. */
function startDeliveryWorker(config: Config, db: Db, logger: Logger, metrics?: Metrics, trackingClock?: Clock): DeliveryWorker {
  const worker = new DeliveryWorker({
    db,
    metrics,
    clock: systemClock,
    trackingClock,
    allowInsecure: config.SVC_WEBHOOK_ALLOW_INSECURE,
    policy: {
      timeoutMs: config.SVC_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: config.SVC_WEBHOOK_RETRY_BASE_MS,
      deactivateAfterMs: config.SVC_WEBHOOK_DEACTIVATE_AFTER_HOURS * 3_600_000,
      concurrency: config.SVC_WEBHOOK_CONCURRENCY,
      receiverConcurrency: config.SVC_WEBHOOK_RECEIVER_CONCURRENCY,
    },
    log: outageAwareLog(workerLog(logger, 'delivery'), db),
  });
  worker.start(config.SVC_DELIVERY_INTERVAL_MS);
  return worker;
}

/**
 * The AIS worker, when SVC_AIS_FEEDS lists feeds. It runs on the tracking clock, so positions and
 * tracking agree on "now" in the sandbox's accelerated time too; the UTC second of a report can
 * place it only on real time.
 */
async function startAisWorker(config: Config, feeds: AisFeedAddress[], db: Db, clock: Clock, logger: Logger, metrics: Metrics): Promise<AisWorker | undefined> {
  if (feeds.length === 0) return undefined;
  const worker = new AisWorker({
    db,
    clock,
    feeds,
    positionIntervalMs: config.SVC_AIS_POSITION_INTERVAL_S * 1000,
    retention: { fullResolutionMs: config.SVC_AIS_FULL_RESOLUTION_DAYS * DAY, keepMs: config.SVC_AIS_RETENTION_DAYS === 0 ? null : config.SVC_AIS_RETENTION_DAYS * DAY },
    useReportSecond: clock === systemClock,
    log: outageAwareLog(workerLog(logger, 'ais'), db),
    // Apart: a feed refusing connections (ECONNREFUSED, as a database may too) is no database outage.
    feedLog: workerLog(logger, 'ais'),
  });
  registerAisMetrics(metrics.registry, worker.counters);
  await worker.start();
  return worker;
}

/** The listener of GET /metrics alone, when SVC_METRICS_PORT is set. */
async function listenForMetrics(config: Config, metrics: Metrics, say: (msg: string) => void): Promise<FastifyInstance | undefined> {
  const server = await startMetricsServer(metrics, config).catch((err: unknown) => {
    throw listenFailure(err, config.SVC_METRICS_HOST, config.SVC_METRICS_PORT ?? 0, { port: 'SVC_METRICS_PORT', host: 'SVC_METRICS_HOST' });
  });
  if (server) say(`metrics on ${server.listeningOrigin}/metrics`);
  return server;
}

/** `svc serve --smtp` (what npm start runs): mail is taken at SVC_SMTP_PORT, else here (else any free port when this one is taken). */
export const LOCAL_SMTP_PORT = 2525;

/** How long a signal's shutdown may take before svc exits anyway (with code 1). */
const SHUTDOWN_LIMIT_MS = 10_000;

export interface ServeOptions {
  /** Take e-mail even when SVC_SMTP_PORT is unset, at LOCAL_SMTP_PORT. */
  smtp?: boolean;
}

export async function serve(config: Config, options: ServeOptions = {}): Promise<void> {
  const lock = lockDataDir(config.SVC_DATA_DIR);
  if ('heldBy' in lock) throw new StartError(`another svc serve (pid ${lock.heldBy}) already uses ${path.resolve(config.SVC_DATA_DIR)}; stop it, or set SVC_DATA_DIR to another folder`);
  process.on('exit', () => lock.release());
  const logger = createLogger(config.SVC_LOG_LEVEL);
  const database = await openDatabase(config, say, databaseLog(logger));
  // However svc ends (a shutdown that ran out of time, an error), the embedded server it started
  // is told to stop: it would otherwise outlive svc, holding the port and the data folder.
  process.on('exit', () => database.stopServerNow());
  const rateLimiter = await chooseRateLimiter({ redisUrl: config.SVC_REDIS_URL, embeddedDatabase: database.embedded, log: workerLog(logger, 'rate-limit') });
  let sandbox: SandboxCarriers | undefined;
  let app: FastifyInstance | undefined;
  let worker: TrackingWorker | undefined;
  let delivery: DeliveryWorker | undefined;
  let documents: DocumentWorker | undefined;
  let ais: AisWorker | undefined;
  let metricsServer: FastifyInstance | undefined;
  let smtp: SmtpListener | undefined;
  let outcomes: CarrierOutcomeRecorder | undefined;
  /** Stops whatever has started: requests first, then the workers, then what they use; in order, each named for a stop that hangs. */
  const steps: [string, () => Promise<unknown> | undefined][] = [
    ['the HTTP server', () => app?.close()],
    ['the metrics server', () => metricsServer?.close()],
    ['the SMTP listener', () => smtp?.close()],
    ['the tracking worker', () => worker?.stop()],
    ['the webhook delivery worker', () => delivery?.stop()],
    ['the document worker', () => documents?.stop()],
    ['the extraction processes', () => Promise.resolve(stopExtractionProcesses())],
    ['the AIS worker', () => ais?.stop()],
    ['the carrier request outcomes', () => outcomes?.settled()],
    ['the sandbox', () => sandbox?.close()],
    ['the rate limiter', () => rateLimiter.close()],
    ['the database connections', () => database.close()],
  ];
  let stopping = '';
  const stopAll = async () => {
    for (const [name, step] of steps) {
      stopping = name;
      // A step that throws, even at once, does not keep the later ones (the database last) from running.
      await Promise.resolve()
        .then(step)
        .catch(() => {});
    }
  };
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    say(`${signal} received, shutting down`);
    const force = setTimeout(() => {
      say(`shutdown did not end within ${SHUTDOWN_LIMIT_MS / 1000} s (still stopping ${stopping}); exiting${database.embedded ? ' (the embedded PostgreSQL is told to stop)' : ''}`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    force.unref();
    await stopAll();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    const { account, newKey, bootstrapKeyCreated } = await ensureDefaultAccount(database.db, config.SVC_BOOTSTRAP_API_KEY);

    const configured = config.SVC_CARRIERS ?? [];
    sandbox = config.SVC_SANDBOX ? await startSandboxCarriers(config, say) : undefined;
    const trackingClock: Clock = sandbox?.clock ?? systemClock;
    // SVC_AIS_FEEDS, else the sandbox's own feed: what the AIS worker reads.
    const feeds = aisFeeds(config, sandbox?.aisPort);
    // Configured endpoints win over the sandbox's for the same SCAC.
    const endpoints = [...(sandbox?.endpoints ?? []).filter((e) => !configured.some((c) => c.scac.toUpperCase() === e.scac)), ...configured];
    // What each carrier request came to, for svc carriers list: written beside the requests, never before them.
    const outcomesLog = outageAwareLog(workerLog(logger, 'carrier-outcomes'), database.db);
    outcomes = new CarrierOutcomeRecorder(database.db, (err) => outcomesLog('a carrier request outcome was not recorded', { err }));
    const connectors = new ConnectorRegistry(endpoints, trackingClock, PROTOCOLS, outcomes);
    // A carrier configured without the credentials its scheme needs is still asked (some answer
    // public data), but the operator should know before its lookups end data_unavailable.
    for (const { scac, missing } of configured.map(resolveCarrier)) {
      if (missing.length > 0) say(`carrier ${scac}: ${missing.join(' and ')} not set in SVC_CARRIERS; its requests go without credentials (svc carriers check ${scac})`);
    }
    const metrics = createMetrics({ db: database.db, trackingClock, processMetrics: true });
    registerRateLimitMetrics(metrics.registry, rateLimiter);
    // Redis answers (or is known away, counted in PostgreSQL meanwhile) before the first request.
    await rateLimiter.ready();

    app = await buildApp({
      db: database.db,
      clock: systemClock,
      // Stop, resume and refresh write tracking state: on the clock the tracking worker reads.
      trackingClock,
      // A known line without a connector is refused at POST rather than retried for a day.
      isTrackable: (scac) => connectors.has(scac),
      publicUrl: config.SVC_PUBLIC_URL,
      webhooks: webhookSettingsFrom(config),
      documents: documentSettingsFrom(config),
      rateLimiter,
      trustProxy: config.SVC_TRUST_PROXY,
      loggerInstance: logger,
      timeouts: { headersMs: config.SVC_HTTP_HEADERS_TIMEOUT_MS, requestMs: config.SVC_HTTP_REQUEST_TIMEOUT_MS },
      metrics,
      metricsEndpoint: metricsOnApiPort(config),
      pageNotFound,
    });
    await mountWeb(app, { db: database.db, clock: systemClock, trackingClock, appUrl: config.SVC_APP_URL });
    // MCP beside REST; its REST calls address svc by the base the banner shows (known once listening).
    let restBase = '';
    await mountMcp(app, config, config.HOST, () => restBase);

    await app.listen({ port: config.PORT, host: config.HOST }).catch((err: unknown) => {
      throw listenFailure(err, config.HOST, config.PORT, { port: 'PORT', host: 'HOST' });
    });
    metricsServer = await listenForMetrics(config, metrics, say);
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    worker = new TrackingWorker({
      db: database.db,
      clock: trackingClock,
      connectors,
      // Carriers push to svc's own callback route; the sandbox reaches it on loopback.
      callbackBaseUrl: config.SVC_PUBLIC_URL ?? `http://127.0.0.1:${port}`,
      log: outageAwareLog(workerLog(logger, 'tracking'), database.db),
      metrics,
    });
    worker.start(config.SVC_WORKER_INTERVAL_MS);
    delivery = startDeliveryWorker(config, database.db, logger, metrics, trackingClock);
    // Uploaded documents' processing jobs, leased like tracking work (any number of processes share them).
    const limits = documentSettingsFrom(config).extraction;
    documents = new DocumentWorker({ db: database.db, clock: systemClock, extract: (bytes, type) => extractInChild(bytes, type, limits), isTrackable: (scac) => connectors.has(scac), log: outageAwareLog(workerLog(logger, 'documents'), database.db) });
    documents.start(config.SVC_WORKER_INTERVAL_MS);
    if (config.SVC_SMTP_PORT !== undefined || options.smtp) {
      const smtpPort = config.SVC_SMTP_PORT ?? LOCAL_SMTP_PORT;
      // Read once: a fall-back to a free port reuses the key and certificate read for the first try.
      const tls = await smtpTlsOf(config);
      const listen = (port: number) =>
        startSmtpListener({ db: database.db, clock: systemClock, settings: documentSettingsFrom(config), tls, host: config.SVC_SMTP_HOST, port, limits: { maxClients: config.SVC_SMTP_MAX_CLIENTS }, log: workerLog(logger, 'smtp') });
      smtp = await listen(smtpPort)
        // The port npm start picks for itself gives way to a free one; one the user set does not.
        .catch((err: unknown) => (config.SVC_SMTP_PORT === undefined && (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? listen(0) : Promise.reject(err)))
        .catch((err: unknown) => {
          throw listenFailure(err, config.SVC_SMTP_HOST, smtpPort, { port: 'SVC_SMTP_PORT', host: 'SVC_SMTP_HOST' });
        });
      say(`e-mail submissions: SMTP${config.SVC_SMTP_TLS_CERT ? ' (STARTTLS)' : ''} on ${config.SVC_SMTP_HOST}:${smtp.port} for <account alias>@${config.SVC_INBOUND_DOMAIN}`);
    }
    ais = await startAisWorker(config, feeds, database.db, trackingClock, logger, metrics);
    const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
    const base = config.SVC_PUBLIC_URL ? new URL('/v2', config.SVC_PUBLIC_URL).href : `http://${shownHost}:${port}/v2`;
    restBase = base;

    const app_ = appUrl(config, port);
    const owner = await ensureOwnerSignIn(database.db, systemClock, account.id, config.SVC_OWNER_EMAIL);
    const lines = [
      '',
      `svc is running. Web app: ${app_}/`,
      owner.linkToken
        ? `  sign in as ${owner.user.email} with this one-time link (valid 24 h), then choose a password: ${signInLinkUrl(app_, owner.linkToken)}`
        : `  sign in with your e-mail address and password; a new one-time link: npx svc users reset-password <e-mail>`,
      `  REST API: ${base}`,
      `  MCP server: ${base.replace(/\/v2$/, '/mcp')} (streamable HTTP; svc mcp --stdio for desktop assistants)`,
      `  database: ${database.embedded ? `embedded PostgreSQL in ${config.SVC_DATA_DIR}` : 'DATABASE_URL'}; rate limits counted in ${rateLimiter.backend}`,
      `  default account: ${account.id}`,
      `  carriers: ${endpoints.length} (${sandbox ? `sandbox at ${sandbox.url}; test numbers: ${sandbox.url}/sandbox/test-numbers` : 'SVC_CARRIERS'})`,
      `  AIS feeds: ${feeds.length > 0 ? feeds.map(feedLabel).join(', ') : 'none (SVC_AIS_FEEDS)'}`,
    ];
    if (newKey) {
      lines.push(`  API key (shown once, keep it): ${newKey}`);
      lines.push(`  try: curl -H "Authorization: Token ${newKey}" ${base}/shipping_lines`);
    } else if (bootstrapKeyCreated) {
      lines.push('  the API key from SVC_BOOTSTRAP_API_KEY was added to the default account');
    } else {
      lines.push('  use your existing API key, or create one: npx svc keys create');
    }
    // On stderr: stdout carries only JSON log lines, and the key must not reach a log collector.
    process.stderr.write(lines.join('\n') + '\n\n');
    warnAboutSettings(config, logger, say);
  } catch (err) {
    // What did start (the database above all, embedded or pooled) would keep the process alive
    // after the error; stop it so svc exits.
    await stopAll();
    throw err;
  }
}

/** `svc sandbox`: the sandbox carrier network alone, for svc processes elsewhere (SVC_CARRIERS). */
export async function runSandbox(config: Config): Promise<void> {
  const sandbox = await startSandboxCarriers(config, say);
  process.stdout.write(`sandbox carriers: ${JSON.stringify(sandbox.endpoints)}\n`);
  const stop = () => void sandbox.close().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** `svc deliver`: only the webhook delivery worker, for more delivery capacity beside `svc serve`. */
export async function runDeliveryWorker(config: Config): Promise<void> {
  const logger = createLogger(config.SVC_LOG_LEVEL);
  const database = await openDatabase(config, say, databaseLog(logger));
  const metrics = createMetrics({ db: database.db, processMetrics: true });
  const metricsServer = await listenForMetrics(config, metrics, say).catch(async (err: unknown) => {
    await database.close().catch(() => {});
    throw err;
  });
  const delivery = startDeliveryWorker(config, database.db, logger, metrics);
  warnAboutSettings(config, logger, say);
  say(`webhook delivery worker running (${delivery.policy.concurrency} at once)`);
  const stop = () => void delivery.stop().finally(() => Promise.all([metricsServer?.close(), database.close()]).finally(() => process.exit(0)));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
