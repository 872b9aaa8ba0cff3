// A small seeded pseudo-random generator. Journeys must come out identical for the same carrier
// and number on every machine and every restart, so nothing here may read Math.random or time.
import { createHash } from 'node:crypto';

export class Prng {
  readonly #seed: string;
  #state: number;

  /** Seeded from any strings: the SHA-256 of the joined parts gives well-spread 32 bits. */
  constructor(...seedParts: string[]) {
    this.#seed = seedParts.join('\u0000');
    this.#state = createHash('sha256').update(this.#seed).digest().readUInt32LE(0);
  }

  /** Mulberry32: tiny, fast, and good enough for simulation (not for secrets). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Prng.pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** One of the choices, each with its relative weight. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, w] of choices) {
      roll -= w;
      if (roll < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  /** Skewed towards min: most carrier delays are short, a few are long. */
  skewed(min: number, max: number): number {
    return min + (max - min) * this.next() ** 2;
  }

  /**
   * An independent stream for one part of the plan, derived from the seed rather than the current
   * state, so adding draws in one part of the planner leaves every other part unchanged.
   */
  fork(label: string): Prng {
    return new Prng(this.#seed, label);
  }
}
