// One AIS feed: a TCP connection to a receiver or aggregator that sends NMEA lines. Lost or
// refused connections are retried with exponential backoff and jitter, for as long as svc runs.
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export interface FeedAddress {
  host: string;
  port: number;
}

export interface Backoff {
  /** Wait before the first retry; each next one doubles… */
  baseMs: number;
  /** …up to this. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, maxMs: 60_000 };

/** A live feed never goes quiet for this long; a connection that does is taken as dead and remade. */
const IDLE_TIMEOUT_MS = 120_000;

export interface FeedOptions {
  address: FeedAddress;
  /** Text as it arrives (latin1: NMEA is ASCII, and no byte can make it throw); false pauses reading until `resume`. */
  onData(chunk: string): boolean | void;
  /** The connection ended (its unfinished multi-sentence messages are lost). */
  onDisconnect?(): void;
  /** Each retry, after a connection was lost or refused. */
  onRetry?(waitMs: number, err: Error | undefined): void;
  backoff?: Backoff;
  /** Waits between attempts; tests pass one that returns at once. Rejects (or resolves) when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
  /** 0 ≤ random() < 1, for jitter. */
  random?: () => number;
}

/** The wait before retry number `attempt` (1, 2, …): doubling from baseMs up to maxMs, the upper half of it random. */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export class AisFeed {
  readonly #abort = new AbortController();
  #socket: Socket | undefined;
  #running: Promise<void> | undefined;

  constructor(private readonly options: FeedOptions) {}

  start(): void {
    this.#running ??= this.#run();
  }

  /** Reads again after onData asked for a pause. */
  resume(): void {
    this.#socket?.resume();
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    this.#socket?.destroy();
    await this.#running;
  }

  async #run(): Promise<void> {
    const { backoff = DEFAULT_BACKOFF, random = Math.random, sleep = (ms, signal) => delay(ms, undefined, { signal }) } = this.options;
    let attempt = 0;
    while (!this.#abort.signal.aborted) {
      const { gotData, err } = await this.#connectOnce();
      if (this.#abort.signal.aborted) return;
      // A connection that delivered data resets the backoff: the next wait is the shortest.
      attempt = gotData ? 1 : attempt + 1;
      const wait = backoffDelay(attempt, backoff, random);
      this.options.onRetry?.(wait, err);
      await sleep(wait, this.#abort.signal).catch(() => {});
    }
  }

  /** One connection, from connecting to closing; never rejects. */
  #connectOnce(): Promise<{ gotData: boolean; err: Error | undefined }> {
    return new Promise((resolve) => {
      const { host, port } = this.options.address;
      const socket = connect({ host, port });
      this.#socket = socket;
      let gotData = false;
      let err: Error | undefined;
      socket.setEncoding('latin1');
      socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy(new Error(`no data for ${IDLE_TIMEOUT_MS / 1000} s`)));
      socket.on('data', (chunk: string) => {
        gotData = true;
        if (this.options.onData(chunk) === false) socket.pause();
      });
      socket.on('error', (e) => (err = e));
      socket.on('close', () => {
        this.#socket = undefined;
        this.options.onDisconnect?.();
        resolve({ gotData, err });
      });
    });
  }
}
