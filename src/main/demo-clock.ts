// Demo time: the accelerated clock the sandbox carriers and the tracking worker share under
// `npm start`. It must never go backwards across restarts, or shipments tracked before a restart
// would wait for the new clock to catch up with their due times. So the furthest point demo time
// may reach is kept in the data folder (beside the sandbox's anchors, which are on the same clock)
// *before* the clock reaches it: a run ended by a crash restarts at that reservation, a clean stop
// records the exact time, and a run starts at max(reservation, now).
import { z } from 'zod';
import { ScaledClock } from '../sandbox/index.ts';
import { systemClock, type Clock } from '../clock.ts';
import { readStateFileSync, replaceFileSync } from '../durable-file.ts';

const fileSchema = z.object({
  version: z.literal(1),
  /** Demo time has not passed this instant in any earlier run. */
  reserved_until: z.iso.datetime(),
});

/** Real time covered by one reservation: the file is rewritten about this often while time runs. */
const RESERVE_AHEAD_REAL_MS = 10_000;

/** The stored reservation; undefined when there is none yet (a new data folder). */
export function readReservation(file: string): Date | undefined {
  const stored = readStateFileSync(file, fileSchema, 'demo clock file', 'move it away to restart demo time from now');
  return stored && new Date(stored.reserved_until);
}

function writeReservation(file: string, until: Date): void {
  replaceFileSync(file, `${JSON.stringify({ version: 1, reserved_until: until.toISOString() })}\n`);
}

export class DemoClock implements Clock {
  readonly #file: string;
  readonly #scaled: ScaledClock;
  readonly #aheadMs: number;
  #reservedUntilMs: number;

  /** Opens demo time kept in `file`, running `speed` times faster than `realClock`. */
  constructor(file: string, speed: number, realClock: Clock = systemClock) {
    const realNow = realClock.now();
    const reserved = readReservation(file);
    const startAt = reserved && reserved > realNow ? reserved : realNow;
    this.#file = file;
    this.#scaled = new ScaledClock(realNow, speed, realClock, startAt);
    this.#aheadMs = RESERVE_AHEAD_REAL_MS * speed;
    this.#reservedUntilMs = startAt.getTime();
    this.#reserve(startAt.getTime() + this.#aheadMs);
  }

  get speed(): number {
    return this.#scaled.speed;
  }

  /** Demo time now; renews the reservation (synchronously, on disk) before handing out a time past it. */
  now(): Date {
    const now = this.#scaled.now();
    if (now.getTime() > this.#reservedUntilMs) this.#reserve(now.getTime() + this.#aheadMs);
    return now;
  }

  /** A clean stop: the next run continues from exactly here rather than from the reservation. */
  close(): void {
    this.#reserve(this.#scaled.now().getTime());
  }

  #reserve(untilMs: number): void {
    writeReservation(this.#file, new Date(untilMs));
    this.#reservedUntilMs = untilMs;
  }
}
