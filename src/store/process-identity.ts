// Who a pid is, beyond "alive": pids are reused (after a reboot above all), so a pid read from a
// file is trusted only when the process behind it is the one that wrote the file.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process's arguments (argv[0] first), or undefined when it does not exist. */
export function commandLine(pid: number): string[] | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.split('\0').filter((a, i, all) => a !== '' || i < all.length - 1);
  } catch {
    // No /proc (macOS): ps prints the arguments joined by spaces, which is enough to match on.
    return fromPs(pid, 'command=')?.split(' ');
  }
}

/**
 * When the process started, as an opaque string that stays the same for the life of the process
 * and differs for a later process given the same pid (/proc/<pid>/stat field 22, or ps's lstart).
 */
export function startTime(pid: number): string | undefined {
  return statFields(pid)?.[19] ?? fromPs(pid, 'lstart=');
}

export function parentPid(pid: number): number | undefined {
  const ppid = statFields(pid)?.[1] ?? fromPs(pid, 'ppid=');
  return ppid === undefined ? undefined : Number(ppid);
}

/** /proc/<pid>/stat from the state field on ("pid (comm) state ppid …"), or undefined without /proc. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may contain spaces, so count fields after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function fromPs(pid: number, column: string): string | undefined {
  try {
    return execFileSync('ps', ['-o', column, '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}
