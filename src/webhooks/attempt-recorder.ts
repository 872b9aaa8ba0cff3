// Records delivery attempts in batches, one statement per batch (group commit): attempts that end
// while a batch is being written wait and go together in a later one, so the number of
// statements follows the database's pace rather than the number of attempts. An attempt counts
// as recorded only once its batch has committed; until then its notification stays leased, and a
// worker that dies before the commit leaves it to be retried when the lease ends.
//
// While more attempts are on their way (sends in flight), a small batch waits a little for them:
// a statement's fixed cost (its round trip, plan and commit) is most of what a small batch costs
// per attempt (the record statement alone, loaded 2-core machine: 220-420 µs of Node CPU for one
// attempt, 13-21 µs per attempt in batches of 32, 6 in batches of 128; PostgreSQL's likewise),
// and a busy worker's batches were mostly of 1 to 40. The worker asks for two concurrencies'
// worth, not more: what awaits its record is what a crash makes repeat. Nothing waits when
// nothing more is coming, so a lone delivery (and a test's drain) is recorded at once. Only the
// record waits: the receiver has its delivery, and the receiver's slot is free, already.
import type { Queryable } from '../store/db.ts';
import { recordAttempts, type Attempt } from '../store/webhook-notifications.ts';

// Batches written at once. What ends while a batch commits (a commit waits for its WAL to reach
// the disk, milliseconds) goes together in a later one, so a busy worker writes fewer, larger
// batches. Sends go on meanwhile, up to the worker's bound on unrecorded outcomes. Two: a full
// batch goes beside one being written, so a record held up (its backend waiting for a core) does
// not stall the sends on that bound; a partial one waits for it.
const WRITERS = 2;
// Longest an ended attempt waits for others to fill its batch while sends are in flight: short
// beside the lease, and only how long its notification's status and log lag behind the answer.
const GATHER_MS = 50;

interface Waiting {
  attempt: Attempt;
  settle: (err?: unknown) => void;
}

export interface RecorderOptions {
  /** Called after each batch, written or failed: the worker may start more sends. */
  onBatch?: () => void;
  /** Attempts still on their way (sends in flight); while there are some, a small batch waits for them. */
  coming?: () => number;
  /** A batch this large goes without waiting. */
  batchSize?: number;
}

export class AttemptRecorder {
  #waiting: Waiting[] = [];
  /** When the oldest of #waiting ended (performance.now()). */
  #since = 0;
  /** Attempts in the statements being written. */
  #writing = 0;
  #writers = 0;
  #checking = false;
  #gather: NodeJS.Timeout | undefined;
  readonly #onBatch: () => void;
  readonly #coming: () => number;
  readonly #batchSize: number;

  constructor(
    private readonly db: Queryable,
    options: RecorderOptions = {},
  ) {
    this.#onBatch = options.onBatch ?? (() => {});
    this.#coming = options.coming ?? (() => 0);
    this.#batchSize = options.batchSize ?? 1;
  }

  /** Attempts ended and not yet committed. */
  get backlog(): number {
    return this.#waiting.length + this.#writing;
  }

  /** Calls `settle` once the attempt is committed, or with the error when its batch could not be written. */
  record(attempt: Attempt, settle: (err?: unknown) => void): void {
    if (this.#waiting.length === 0) this.#since = performance.now();
    this.#waiting.push({ attempt, settle });
    // Attempts that end in this turn of the event loop join the same batch.
    if (!this.#checking) {
      this.#checking = true;
      setImmediate(() => {
        this.#checking = false;
        void this.#flush();
      });
    }
  }

  async #flush(): Promise<void> {
    if (this.#writers >= WRITERS || this.#waiting.length === 0) return;
    if (this.#writers > 0 && this.#waiting.length < this.#batchSize) return;
    const waited = performance.now() - this.#since;
    if (this.#waiting.length < this.#batchSize && waited < GATHER_MS && this.#coming() > 0) {
      // More are on their way: gather them, until the oldest has waited GATHER_MS.
      this.#gather ??= setTimeout(() => {
        this.#gather = undefined;
        void this.#flush();
      }, GATHER_MS - waited);
      return;
    }
    clearTimeout(this.#gather);
    this.#gather = undefined;
    this.#writers++;
    const batch = this.#waiting;
    this.#waiting = [];
    this.#writing += batch.length;
    let failure: unknown;
    try {
      await recordAttempts(this.db, batch.map((w) => w.attempt));
    } catch (err) {
      failure = err ?? new Error('recording attempts failed');
    }
    this.#writing -= batch.length;
    this.#writers--;
    for (const w of batch) w.settle(failure);
    this.#onBatch();
    // What ended during the write goes next, once it fills a batch, has waited its time, or nothing more is coming.
    void this.#flush();
  }
}
