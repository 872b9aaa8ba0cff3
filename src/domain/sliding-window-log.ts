// The rolling-window rule of the rate limits, in memory: per name, the times of the requests of
// the last window, oldest first. The same rule as svc_rate_limit_hit (PostgreSQL) and the Redis
// script: a hit counts while it is less than a window old; a full log refuses until the hit that
// keeps it full leaves the window.

export class SlidingWindowLog {
  readonly #logs = new Map<string, number[]>();
  #sweptAt = -Infinity;

  /**
   * Counts `hits` hits of `name` at `nowMs` and returns 0 if there is room for them all, else
   * the ms until there is (at least 1), counting none. More hits than `max` never fit: a window.
   */
  hit(name: string, nowMs: number, max: number, windowMs: number, hits = 1): number {
    this.#sweep(nowMs, windowMs);
    const cutoff = nowMs - windowMs;
    let log = this.#logs.get(name);
    if (!log) this.#logs.set(name, (log = []));
    let expired = 0;
    while (expired < log.length && log[expired] <= cutoff) expired++;
    if (expired > 0) log.splice(0, expired);
    if (hits > max) return windowMs;
    if (log.length + hits > max) return Math.max(1, Math.ceil(log[log.length + hits - max - 1] + windowMs - nowMs));
    // Kept in order even if the clock was set back (a test's clock can be).
    let at = log.length;
    while (at > 0 && log[at - 1] > nowMs) at--;
    log.splice(at, 0, ...new Array<number>(hits).fill(nowMs));
    return 0;
  }

  /** How many names have hits kept (for tests of the sweep). */
  get size(): number {
    return this.#logs.size;
  }

  /** Once a window, forgets the names whose hits have all left it, so idle keys cost no memory. */
  #sweep(nowMs: number, windowMs: number): void {
    if (nowMs - this.#sweptAt < windowMs) return;
    this.#sweptAt = nowMs;
    for (const [name, log] of this.#logs) if (log.length === 0 || log[log.length - 1] <= nowMs - windowMs) this.#logs.delete(name);
  }
}
