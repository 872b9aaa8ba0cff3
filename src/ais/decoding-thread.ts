// The AIS decoding thread, seen from the thread that answers requests: feed text goes in as it
// arrives, decoded position and static reports come back, one message per chunk. The text is
// cut into lines and decoded there (decoding-thread-entry.ts), so a flood of sentences, valid or
// not, is that thread's work. What waits for it is bounded: past PAUSE_AT_BYTES the feeds are
// asked to stop reading (TCP holds the rest back at the sender) until the thread has caught up,
// and a chunk that would take it past MAX_PENDING_BYTES (text already read when the pause came)
// is dropped and counted rather than queued, the connection's partial line and fragments with it.
// The thread has a heap of its own, capped; if it dies it is started again.
import { Worker } from 'node:worker_threads';
import type { AisPositionReport, AisSkipReason, AisStaticReport } from './decode.ts';

export type ToDecodingThread =
  | { kind: 'data'; reader: number; chunk: string; receivedMs: number }
  /** Forget the connection's partial line and fragments (`closed`: and the connection). */
  | { kind: 'reset'; reader: number; closed: boolean };

/** What one chunk gave: its reports, and how many lines it held and why some gave none. */
export interface ChunkDecoded {
  reader: number;
  /** The chunk's length (0 for what a reset gave). */
  bytes: number;
  receivedMs: number;
  reports: (AisPositionReport | AisStaticReport)[];
  sentences: number;
  skipped: Record<AisSkipReason, number>;
}

/** Text sent to the thread and not yet answered, at most: some seconds of the busiest feed. */
export const MAX_PENDING_BYTES = 8 * 1024 * 1024;
/** Above this the feeds pause; below RESUME_AT_BYTES they read again. */
const PAUSE_AT_BYTES = 1024 * 1024;
const RESUME_AT_BYTES = 256 * 1024;
/** The thread's heap: its lines, fragments in progress and reports on their way are small. */
const THREAD_HEAP_MB = 64;
/** How long a stop waits for text already sent to be decoded. */
const STOP_DRAIN_MS = 2_000;
/** A thread that dies this many times in a row without answering once (it cannot load) is not started again. */
const MAX_FAILED_STARTS = 3;

/**
 * Where the thread's module lies: beside this one in the sources (run through tsx, registered in
 * the thread as bin/svc.js does), and as an entry of its own beside the program's in the build
 * (bin/build.js, THREAD_ENTRIES; this module's location is rewritten to its place in the layout).
 */
function threadModule(): { code: string } | { url: URL } {
  if (import.meta.url.endsWith('.ts')) {
    const entry = new URL('./decoding-thread-entry.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    return { code: `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })` };
  }
  return { url: new URL('../main/ais-decoding-thread.js', import.meta.url) };
}

export interface DecodingThreadOptions {
  /** Each chunk's reports, in the order the chunks were sent. */
  onDecoded(decoded: ChunkDecoded): void;
  /** Text dropped because the thread was behind (bytes). */
  onDropped(bytes: number): void;
  /** The thread has caught up after `data` asked the feeds to pause: they may read again. */
  onCaughtUp?(): void;
  /** The thread failed (it is started again). */
  onError?(err: Error): void;
}

export class DecodingThread {
  #worker: Worker | undefined;
  #pending = 0;
  #stopped = false;
  #failedStarts = 0;
  #paused = false;
  #idle: (() => void)[] = [];
  readonly #gaps = new Set<number>();

  constructor(private readonly options: DecodingThreadOptions) {}

  start(): void {
    if (this.#worker || this.#stopped) return;
    const module = threadModule();
    const worker =
      'code' in module
        ? new Worker(module.code, { eval: true, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } })
        : new Worker(module.url, { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    this.#worker = worker;
    worker.on('message', (decoded: ChunkDecoded) => {
      this.#failedStarts = 0;
      this.#pending -= decoded.bytes;
      this.options.onDecoded(decoded);
      if (this.#pending === 0) for (const resolve of this.#idle.splice(0)) resolve();
      this.#resumeIfCaughtUp();
    });
    worker.on('error', (err) => this.options.onError?.(err));
    worker.on('exit', () => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      // What it held is lost: counted as dropped, and every connection starts a fresh line.
      if (this.#pending > 0) this.options.onDropped(this.#pending);
      this.#pending = 0;
      for (const resolve of this.#idle.splice(0)) resolve();
      this.#resumeIfCaughtUp();
      if (this.#stopped) return;
      if (++this.#failedStarts < MAX_FAILED_STARTS) this.start();
      else this.options.onError?.(new Error(`the AIS decoding thread ended ${MAX_FAILED_STARTS} times without decoding anything; feed text is dropped`));
    });
  }

  /**
   * Text of connection `reader` received at `receivedMs`; dropped (and counted) when the thread is
   * too far behind. False when the feeds should pause until onCaughtUp.
   */
  data(reader: number, chunk: string, receivedMs: number): boolean {
    const worker = this.#worker;
    if (!worker || this.#pending + chunk.length > MAX_PENDING_BYTES) {
      this.options.onDropped(chunk.length);
      // The line the chunk cut is not to be glued to the next chunk's.
      this.#gaps.add(reader);
    } else {
      if (this.#gaps.delete(reader)) this.#post({ kind: 'reset', reader, closed: false });
      this.#pending += chunk.length;
      this.#post({ kind: 'data', reader, chunk, receivedMs });
    }
    if (this.#pending > PAUSE_AT_BYTES) this.#paused = true;
    return !this.#paused;
  }

  #resumeIfCaughtUp(): void {
    if (!this.#paused || this.#pending > RESUME_AT_BYTES) return;
    this.#paused = false;
    this.options.onCaughtUp?.();
  }

  /** Connection `reader` closed. */
  closed(reader: number): void {
    this.#gaps.delete(reader);
    this.#post({ kind: 'reset', reader, closed: true });
  }

  #post(message: ToDecodingThread): void {
    this.#worker?.postMessage(message);
  }

  /** Settles once everything sent has been answered (or the thread is gone). */
  drained(): Promise<void> {
    return this.#pending === 0 || !this.#worker ? Promise.resolve() : new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Decodes what was sent (for at most STOP_DRAIN_MS), then ends the thread. */
  async stop(): Promise<void> {
    const timer = new Promise<void>((resolve) => setTimeout(resolve, STOP_DRAIN_MS).unref());
    await Promise.race([this.drained(), timer]);
    this.#stopped = true;
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }
}
