// The AIS worker of `svc serve`: one connection per configured feed, their text decoded in a
// thread of its own (decoding-thread.ts) and the reports taken by one ingester, with the timers
// around it (write batches, re-read svc's vessels, apply the retention rule).
import type { Clock } from '../clock.ts';
import { HOUR, MINUTE, SECOND } from '../domain/time-units.ts';
import type { Db } from '../store/db.ts';
import { newAisCounters, type AisCounters } from './counters.ts';
import { DecodingThread } from './decoding-thread.ts';
import { AisFeed, type FeedAddress, type FeedOptions } from './feed.ts';
import { AisIngester } from './ingester.ts';
import { applyRetention, type RetentionRule } from './retention.ts';

export interface AisWorkerOptions {
  db: Db;
  /** "Now" for receipt times and retention: the tracking clock, so positions line up with tracking. */
  clock: Clock;
  feeds: readonly FeedAddress[];
  positionIntervalMs: number;
  retention: RetentionRule;
  /** See IngesterOptions.useReportSecond. */
  useReportSecond: boolean;
  /** Where failures of the database work are said (svc serve: a log that says a database outage once). */
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /**
   * Where the feeds' connection troubles are said (default: `log`): a refused feed is no database
   * outage, and must not be taken for one by a log that quiets those.
   */
  feedLog?: (msg: string, fields?: Record<string, unknown>) => void;
  counters?: AisCounters;
  /** For tests: how feeds wait between connection attempts, and jitter. */
  feedOptions?: Pick<FeedOptions, 'sleep' | 'random' | 'backoff'>;
}

const FLUSH_EVERY_MS = SECOND;
const RELOAD_VESSELS_EVERY_MS = 10 * MINUTE;
const RETENTION_EVERY_MS = HOUR;

export class AisWorker {
  readonly counters: AisCounters;
  readonly ingester: AisIngester;
  readonly #feeds: AisFeed[];
  /** Where the feeds' text is cut into lines and decoded: off the thread that answers requests. */
  readonly #decoding: DecodingThread;
  readonly #timers: NodeJS.Timeout[] = [];
  #retention: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: AisWorkerOptions) {
    this.counters = options.counters ?? newAisCounters();
    this.ingester = new AisIngester({ ...options, counters: this.counters });
    const { counters } = this;
    this.#decoding = new DecodingThread({
      onDecoded: (decoded) => {
        // The reports first: a caller that sees the sentences counted finds their positions queued.
        this.ingester.reports(decoded.reports, decoded.receivedMs);
        counters.sentences += decoded.sentences;
        for (const [reason, n] of Object.entries(decoded.skipped)) counters.skipped[reason as keyof typeof counters.skipped] += n;
      },
      onDropped: (bytes) => void (counters.bytesDropped += bytes),
      onCaughtUp: () => {
        for (const feed of this.#feeds) feed.resume();
      },
      onError: (err) => options.log?.('AIS decoding thread failed', { err: err.message }),
    });
    this.#feeds = options.feeds.map((address, reader) => {
      // host:port only: a feed address holds nothing secret, and nothing else of it is said.
      const where = `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
      return new AisFeed({
        ...options.feedOptions,
        address,
        onData: (chunk) => this.#decoding.data(reader, chunk, options.clock.now().getTime()),
        onDisconnect: () => this.#decoding.closed(reader),
        onRetry: (waitMs, err) => {
          this.counters.reconnects++;
          (options.feedLog ?? options.log)?.('AIS feed connection lost or refused; retrying', { feed: where, waitMs, err: err?.message });
        },
      });
    });
  }

  /** Reads svc's vessels (a failure is logged; the next reload tries again), then connects. */
  async start(): Promise<void> {
    const { log } = this.options;
    const reload = () => this.ingester.loadVessels().catch((err: unknown) => log?.('AIS: could not read the vessels to match', { err: String(err) }));
    await reload();
    this.#decoding.start();
    for (const feed of this.#feeds) feed.start();
    const every = (ms: number, run: () => unknown) => this.#timers.push(setInterval(run, ms));
    every(FLUSH_EVERY_MS, () => void this.ingester.flush());
    every(RELOAD_VESSELS_EVERY_MS, () => void reload());
    every(RETENTION_EVERY_MS, () => void this.runRetention());
    void this.runRetention();
  }

  /** Applies the retention rule once (one run at a time). */
  runRetention(): Promise<unknown> {
    this.#retention = this.#retention.then(() =>
      applyRetention(this.options.db, this.options.clock.now(), this.options.retention).catch((err: unknown) =>
        this.options.log?.('AIS position retention failed; retried within the hour', { err: String(err) }),
      ),
    );
    return this.#retention;
  }

  /** Settles once every chunk read so far has been decoded and handed to the ingester. */
  decoded(): Promise<void> {
    return this.#decoding.drained();
  }

  /** Disconnects, then writes what is still queued. */
  async stop(): Promise<void> {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    await Promise.all(this.#feeds.map((feed) => feed.stop()));
    await this.#decoding.stop();
    await this.#retention;
    await this.ingester.flush();
  }
}
