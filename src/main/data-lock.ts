// One `svc serve` per data folder: a second one would run a second tracking worker on its own demo
// clock against the same data. The lock is a file naming the holder's pid and that process's start
// time, so a lock left by a crashed (kill -9) serve is recognised as stale by the next start, even
// when the pid has been reused since. (A lock refreshed on a timer, as proper-lockfile does, would
// instead make the next start wait out the staleness period, and call a busy process's lock stale.)
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isAlive, startTime } from '../store/process-identity.ts';

interface Holder {
  pid: number;
  started: string;
}

export type DataLock = { release(): void } | { heldBy: number };

/** Takes `<dataDir>/serve.lock`, or reports the pid of the live svc serve that holds it. */
export function lockDataDir(dataDir: string): DataLock {
  const file = path.resolve(dataDir, 'serve.lock');
  mkdirSync(dataDir, { recursive: true });
  const me: Holder = { pid: process.pid, started: startTime(process.pid) ?? '' };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(me), { flag: 'wx', mode: 0o644 });
      return { release: () => releaseIfMine(file, me) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (holder && isAlive(holder.pid) && startTime(holder.pid) === holder.started) return { heldBy: holder.pid };
    // Stale: move it aside, and put it back if another start replaced it with a live lock meanwhile.
    const aside = `${file}.stale-${process.pid}`;
    try {
      renameSync(file, aside);
      const moved = readHolder(aside);
      if (moved && moved.pid !== holder?.pid && isAlive(moved.pid)) linkSync(aside, file);
      unlinkSync(aside);
    } catch {
      // Someone else cleared it first; try again.
    }
  }
  throw new Error(`cannot take the lock ${file}; remove it if no svc serve uses ${dataDir}`);
}

function readHolder(file: string): Holder | undefined {
  try {
    const held = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof held.pid === 'number' && typeof held.started === 'string' ? { pid: held.pid, started: held.started } : undefined;
  } catch {
    return undefined;
  }
}

function releaseIfMine(file: string, me: Holder): void {
  const holder = readHolder(file);
  if (holder?.pid === me.pid && holder.started === me.started) unlinkSync(file);
}
