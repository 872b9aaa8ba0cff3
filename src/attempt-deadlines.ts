// Bounds each outgoing HTTP attempt's whole duration (waiting for a connection, sending, the
// answer): a webhook delivery attempt (webhooks/http-sender.ts) or an exchange with a carrier
// (carriers/dcsa/http.ts), without a timer of its own: attempts that start within the same slice
// of time (a fiftieth of the timeout) share one timer, set to fire once the last of them has had
// its full timeout, which then expires those still running. An attempt so ends between
// `timeoutMs` and `timeoutMs` plus a slice after it started. Per attempt, a timer and an abort
// signal cost as much CPU as signing a webhook's body twice, and a fifth to a quarter of the
// client CPU of a carrier lookup that finds nothing new; shared, they cost a set entry.

const SLICES_PER_TIMEOUT = 50;

/** What a deadline ends: a running attempt. */
export interface Expiring {
  expire(reason: Error): void;
}

class Slice {
  readonly running = new Set<Expiring>();
  readonly timer: NodeJS.Timeout;

  constructor(
    /** performance.now() until which attempts join this slice. */
    readonly openUntil: number,
    fireInMs: number,
  ) {
    this.timer = setTimeout(() => {
      const reason = new DOMException('the attempt timed out', 'TimeoutError');
      for (const attempt of this.running) attempt.expire(reason);
      this.running.clear();
    }, fireInMs);
    // An attempt's socket keeps the process alive; the timer alone need not.
    this.timer.unref();
  }
}

export class AttemptDeadlines {
  readonly #sliceMs: number;
  #open: Slice | undefined;

  constructor(private readonly timeoutMs: number) {
    this.#sliceMs = Math.max(1, Math.ceil(timeoutMs / SLICES_PER_TIMEOUT));
  }

  /** Gives an attempt starting now its deadline; `end` it when it is over. */
  start(attempt: Expiring): Slice {
    const now = performance.now();
    let slice = this.#open;
    if (!slice || now >= slice.openUntil) {
      // A closed slice whose attempts are all over needs its timer no more.
      if (slice && slice.running.size === 0) clearTimeout(slice.timer);
      slice = new Slice(now + this.#sliceMs, this.timeoutMs + this.#sliceMs);
      this.#open = slice;
    }
    slice.running.add(attempt);
    return slice;
  }

  end(attempt: Expiring, slice: Slice): void {
    slice.running.delete(attempt);
    if (slice.running.size === 0 && slice !== this.#open) clearTimeout(slice.timer);
  }

  /** Stops the open slice's timer (the sender is closing). */
  close(): void {
    if (this.#open) clearTimeout(this.#open.timer);
    this.#open = undefined;
  }
}

export type { Slice as DeadlineSlice };
