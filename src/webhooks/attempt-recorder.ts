// Records delivery attempts in batches, one statement per batch (group commit): attempts that end
// while batches are being written wait and go together in the next one, so the number of
// statements follows the database's pace rather than the number of attempts. An attempt counts
// as recorded only once its batch has committed; until then its notification stays leased, and a
// worker that dies before the commit leaves it to be retried when the lease ends.
import type { Queryable } from '../store/db.ts';
import { recordAttempts, type Attempt } from '../store/webhook-notifications.ts';

// Batches written at once. One: what ends while a batch commits (a commit waits for its WAL to
// reach the disk, milliseconds) goes together in the next, so a busy worker writes fewer, larger
// batches; each statement's fixed cost (its commit above all) is most of what a small batch costs
// per attempt. Sends go on meanwhile, up to the worker's bound on unrecorded outcomes.
const WRITERS = 1;

interface Waiting {
  attempt: Attempt;
  settle: (err?: unknown) => void;
}

export class AttemptRecorder {
  #waiting: Waiting[] = [];
  /** Attempts in the statements being written. */
  #writing = 0;
  #writers = 0;

  constructor(
    private readonly db: Queryable,
    /** Called after each batch, written or failed: the worker may start more sends. */
    private readonly onBatch: () => void = () => {},
  ) {}

  /** Attempts ended and not yet committed. */
  get backlog(): number {
    return this.#waiting.length + this.#writing;
  }

  /** Resolves once the attempt is committed; rejects when its batch could not be written. */
  record(attempt: Attempt): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ attempt, settle: (err) => (err ? reject(err) : resolve()) });
      // Attempts that end in this turn of the event loop join the same batch.
      if (this.#waiting.length === 1) setImmediate(() => void this.#flush());
    });
  }

  async #flush(): Promise<void> {
    if (this.#writers >= WRITERS || this.#waiting.length === 0) return;
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
    this.onBatch();
    // What ended during the write goes now, as the next batch.
    void this.#flush();
  }
}
