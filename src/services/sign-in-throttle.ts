// Failed sign-ins are counted per client address and per e-mail address; past the limit, both
// wait until the window has passed. Successful sign-ins are not counted (people on one office
// address sign in all day), and one clears its address's failures. Counts live in this
// process's memory: a restart forgets them, and each API process counts on its own.
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.ts';
import { LimitExceeded } from '../domain/errors.ts';

export const SIGN_IN_FAILURES = { max: 10, windowMs: 15 * 60_000 };

export class SignInThrottle {
  // Bounded, so a flood of made-up addresses cannot grow it without end.
  readonly #failures = new LRUCache<string, number[]>({ max: 50_000 });

  constructor(
    private readonly clock: Clock,
    private readonly limit = SIGN_IN_FAILURES,
  ) {}

  /** Throws LimitExceeded while either key has used up its failures. */
  check(clientAddress: string, email: string): void {
    const waitMs = Math.max(this.#waitMs(`ip:${clientAddress}`), this.#waitMs(`email:${email.trim().toLowerCase()}`));
    if (waitMs > 0) {
      throw new LimitExceeded('too_many_sign_in_attempts', `Too many failed sign-in attempts. Try again in ${Math.ceil(waitMs / 60_000)} minutes.`, waitMs);
    }
  }

  failed(clientAddress: string, email: string): void {
    for (const key of [`ip:${clientAddress}`, `email:${email.trim().toLowerCase()}`]) this.#failures.set(key, [...this.#recent(key), this.clock.now().getTime()]);
  }

  succeeded(email: string): void {
    this.#failures.delete(`email:${email.trim().toLowerCase()}`);
  }

  #recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.limit.windowMs;
    return (this.#failures.get(key) ?? []).filter((at) => at > since);
  }

  #waitMs(key: string): number {
    const recent = this.#recent(key);
    if (recent.length < this.limit.max) return 0;
    return recent[recent.length - this.limit.max] + this.limit.windowMs - this.clock.now().getTime();
  }
}
