// Failed sign-ins are counted three ways, each with its own limit in one window: per client
// address and e-mail address together (one guesser at one account), per e-mail address (guessers
// spread over many addresses at one account) and, far higher, per client address (one guesser
// trying many accounts). An office or a proxy without SVC_TRUST_PROXY shows every user behind it
// as one address: the pair's limit is what a guesser there meets first, so another user's
// failures do not lock out a user nobody failed against. Past a limit, sign-ins that count against
// it wait until the window has passed. Successful sign-ins are not counted, and one clears its
// e-mail address's failures. Counts live in this process's memory: a restart forgets them, and
// each API process counts on its own.
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.ts';
import { LimitExceeded } from '../domain/errors.ts';

export interface SignInLimits {
  /** Failures from one client address at one e-mail address. */
  pair: number;
  /** Failures at one e-mail address from anywhere. */
  email: number;
  /** Failures from one client address at any e-mail address. */
  address: number;
  windowMs: number;
}

export const SIGN_IN_FAILURES: SignInLimits = { pair: 10, email: 30, address: 100, windowMs: 15 * 60_000 };

export class SignInThrottle {
  // Bounded, so a flood of made-up addresses cannot grow it without end.
  readonly #failures = new LRUCache<string, number[]>({ max: 50_000 });

  constructor(
    private readonly clock: Clock,
    private readonly limits = SIGN_IN_FAILURES,
  ) {}

  /** Throws LimitExceeded while any count this sign-in would add to has used up its failures. */
  check(clientAddress: string, email: string): void {
    const waitMs = Math.max(...this.#counters(clientAddress, email).map(([key, max]) => this.#waitMs(key, max)));
    if (waitMs > 0) {
      throw new LimitExceeded('too_many_sign_in_attempts', `Too many failed sign-in attempts. Try again in ${Math.ceil(waitMs / 60_000)} minutes.`, waitMs);
    }
  }

  failed(clientAddress: string, email: string): void {
    const now = this.clock.now().getTime();
    // Only the latest `max` failures decide a wait, so no list grows past its limit.
    for (const [key, max] of this.#counters(clientAddress, email)) this.#failures.set(key, [...this.#recent(key), now].slice(-max));
  }

  succeeded(clientAddress: string, email: string): void {
    // The pair's and the e-mail address's failures; the client address's ceiling stays.
    for (const [key] of this.#counters(clientAddress, email).slice(0, 2)) this.#failures.delete(key);
  }

  /**
   * The counts a sign-in adds to, with their limits: the pair's and the e-mail address's first. A
   * sign-in without an e-mail address (a one-time link) counts for its client address alone, at the
   * pair's limit, so link guesses at one address never lock out another's.
   */
  #counters(clientAddress: string, email: string): [string, number][] {
    const address = email.trim().toLowerCase();
    if (!address) return [[`ip:${clientAddress}\nlink`, this.limits.pair]];
    return [
      [`pair:${clientAddress}\n${address}`, this.limits.pair],
      [`email:${address}`, this.limits.email],
      [`ip:${clientAddress}`, this.limits.address],
    ];
  }

  #recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.limits.windowMs;
    return (this.#failures.get(key) ?? []).filter((at) => at > since);
  }

  #waitMs(key: string, max: number): number {
    const recent = this.#recent(key);
    if (recent.length < max) return 0;
    return recent[recent.length - max]! + this.limits.windowMs - this.clock.now().getTime();
  }
}
