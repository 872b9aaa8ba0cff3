import { readFileSync } from 'node:fs';
// CPU time of another process on this machine (a PostgreSQL backend, a child), from /proc: what
// the benchmarks read to charge the database's work to the side that asked for it.

/** User plus system CPU ms so far of the process `pid` (10 ms ticks), undefined when it cannot be read (gone, or not on this machine). */
export function processCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, 100 ticks a second
  } catch {
    return undefined;
  }
}
