// Bounds each delivery attempt's whole duration (connect, send, answer) with an abort signal,
// without a controller and a timer of its own: attempts that start within the same slice of time
// (a fiftieth of the timeout) share one AbortController and one timer, set to fire once the last
// of them has had its full timeout. An attempt so ends between `timeoutMs` and `timeoutMs` plus a
// slice after it started. Per attempt, a controller and its timer cost as much CPU as signing the
// body twice; shared, they cost a counter.
import { setMaxListeners } from 'node:events';

const SLICES_PER_TIMEOUT = 50;

class Slice {
  readonly controller = new AbortController();
  readonly timer: NodeJS.Timeout;
  /** Attempts of this slice still running. */
  running = 0;

  constructor(
    /** performance.now() until which attempts join this slice. */
    readonly openUntil: number,
    fireInMs: number,
  ) {
    // Every attempt of the slice listens to the one signal: no leak, however many there are.
    setMaxListeners(0, this.controller.signal);
    this.timer = setTimeout(() => this.controller.abort(new DOMException('the attempt timed out', 'TimeoutError')), fireInMs);
    // An attempt's socket keeps the process alive; the timer alone need not.
    this.timer.unref();
  }
}

/** The deadline of an attempt: its signal, and `end()` once the attempt is over. */
export interface Deadline {
  signal: AbortSignal;
  end(): void;
}

export class AttemptDeadlines {
  readonly #sliceMs: number;
  #open: Slice | undefined;

  constructor(private readonly timeoutMs: number) {
    this.#sliceMs = Math.max(1, Math.ceil(timeoutMs / SLICES_PER_TIMEOUT));
  }

  /** The deadline of an attempt starting now. */
  start(): Deadline {
    const now = performance.now();
    let slice = this.#open;
    if (!slice || now >= slice.openUntil) {
      // A closed slice whose attempts are all over needs its timer no more.
      if (slice && slice.running === 0) clearTimeout(slice.timer);
      slice = new Slice(now + this.#sliceMs, this.timeoutMs + this.#sliceMs);
      this.#open = slice;
    }
    slice.running++;
    const s = slice;
    return {
      signal: s.controller.signal,
      end: () => {
        if (--s.running === 0 && s !== this.#open) clearTimeout(s.timer);
      },
    };
  }

  /** Stops the open slice's timer (the sender is closing). */
  close(): void {
    if (this.#open) clearTimeout(this.#open.timer);
    this.#open = undefined;
  }
}
