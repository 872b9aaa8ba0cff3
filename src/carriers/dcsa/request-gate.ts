// A carrier's request limits, held per carrier: its requests-per-second cap (configured), and its
// own word when it answers 429 with Retry-After, which holds every request to it until then. A
// request waits its turn when the wait is short, so the tracking request goes on; a longer wait
// fails the lookup as temporary (retried later) without sending anything the carrier said not to.
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimitedError } from './errors.ts';

export interface RequestGateOptions {
  requestsPerSecond?: number;
  /** Longest a request waits for its turn before it gives up as temporary. */
  maxWaitMs: number;
  /** Milliseconds since the epoch (real time: the carrier counts on its own watch). */
  now?: () => number;
}

export class RequestGate {
  readonly #spacingMs: number;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  /** When the carrier's Retry-After ends. */
  #heldUntil = 0;
  /** When the last request was let through (or is booked to be). */
  #lastSlot = -Infinity;

  constructor(options: RequestGateOptions) {
    this.#spacingMs = options.requestsPerSecond ? 1000 / options.requestsPerSecond : 0;
    this.#maxWaitMs = options.maxWaitMs;
    this.#now = options.now ?? Date.now;
  }

  /** When the carrier's Retry-After ends, in milliseconds since the epoch (past or 0 when none holds). */
  get heldUntil(): number {
    return this.#heldUntil;
  }

  /** Resolves when the next request may go; throws RateLimitedError when that is too far off. */
  async turn(): Promise<void> {
    const now = this.#now();
    const at = Math.max(now, this.#heldUntil, this.#lastSlot + this.#spacingMs);
    if (at - now > this.#maxWaitMs) {
      throw new RateLimitedError(
        this.#heldUntil > now
          ? `the carrier asked for no requests until ${new Date(this.#heldUntil).toISOString()} (Retry-After); not sent`
          : `more requests queued for this carrier than its requestsPerSecond lets through within ${this.#maxWaitMs / 1000} s; not sent`,
      );
    }
    this.#lastSlot = at;
    if (at > now) await sleep(at - now);
  }

  /** The carrier answered 429: no request before Retry-After has passed. Returns how long that is, in ms. */
  holdFor(retryAfter: string | null): number {
    const waitMs = retryAfterMs(retryAfter, this.#now());
    this.#heldUntil = Math.max(this.#heldUntil, this.#now() + waitMs);
    return waitMs;
  }
}

/** Without Retry-After, a 429 still earns the carrier a pause of this length. */
const DEFAULT_PAUSE_MS = 1000;

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in milliseconds from now. */
export function retryAfterMs(value: string | null, now: number): number {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (text !== '' && !Number.isNaN(date)) return Math.max(0, date - now);
  return DEFAULT_PAUSE_MS;
}
