// Simulated time for demos: a voyage of weeks plays out in minutes. svc and the sandbox share one
// ScaledClock in demo mode, so "now" is the same on both sides of the DCSA connection.
import { systemClock, type Clock } from '../clock.ts';

export class ScaledClock implements Clock {
  readonly #anchorMs: number;
  readonly #startMs: number;
  readonly #speed: number;
  readonly #real: Clock;

  /**
   * At real time `anchorReal` the simulated time is `startAt` (by default `anchorReal` itself); from
   * then on simulated time runs `speed` times faster (speed 3600: one real second is one simulated hour).
   */
  constructor(anchorReal: Date, speed: number, realClock: Clock = systemClock, startAt: Date = anchorReal) {
    if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`speed must be a positive number, got ${speed}`);
    this.#anchorMs = anchorReal.getTime();
    this.#startMs = startAt.getTime();
    this.#speed = speed;
    this.#real = realClock;
  }

  get speed(): number {
    return this.#speed;
  }

  now(): Date {
    return new Date(this.#startMs + (this.#real.now().getTime() - this.#anchorMs) * this.#speed);
  }
}
