// As root, the embedded PostgreSQL runs as the unprivileged OS user `postgres` (PostgreSQL refuses
// to run as root). That user must be able to enter every folder on the way to its binaries and its
// data folder; a checkout in root's private home (mode 0700) is the common case where it cannot.
import { execFileSync } from 'node:child_process';
import type { Stats } from 'node:fs';
import { chmod, stat } from 'node:fs/promises';
import path from 'node:path';

export interface OsUser {
  name: string;
  uid: number;
  gid: number;
}

/** The embedded server cannot run; the message says why and what to do, in one line. */
export class EmbeddedPostgresError extends Error {}

/** Whether `user` may enter (search) a folder, by its owner, group and mode (as a process with no supplementary groups). */
export function canEnter(st: Pick<Stats, 'uid' | 'gid' | 'mode'>, user: Pick<OsUser, 'uid' | 'gid'>): boolean {
  if (st.uid === user.uid) return (st.mode & 0o100) !== 0;
  if (st.gid === user.gid) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

export function osUser(name: string): OsUser | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { name, uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/**
 * Lets `user` reach `folders`: every folder on the way that it cannot enter gets the search bit for
 * others (o+x: enter by name, not list; the files inside keep their own modes). Giving search access
 * keeps the data where the user put it (a volume mounted there keeps it), which a copy elsewhere
 * would not. Returns the folders changed; throws EmbeddedPostgresError when one cannot be changed.
 */
export async function letUserReach(folders: string[], user: OsUser): Promise<string[]> {
  const changed: string[] = [];
  for (const folder of folders) {
    for (const dir of withAncestors(path.resolve(folder))) {
      const st = await stat(dir);
      if (canEnter(st, user)) continue;
      try {
        await chmod(dir, (st.mode & 0o7777) | 0o001);
      } catch (err) {
        throw new EmbeddedPostgresError(
          `the embedded PostgreSQL runs as the OS user ${user.name}, which cannot enter ${dir} (${(err as NodeJS.ErrnoException).code ?? err}): ` +
            `run "chmod o+x ${dir}", or set SVC_DATA_DIR to a folder it can reach and install svc outside private folders, or set DATABASE_URL`,
        );
      }
      changed.push(dir);
    }
  }
  return changed;
}

/** "/a/b/c" → ["/", "/a", "/a/b", "/a/b/c"]. */
function withAncestors(dir: string): string[] {
  const chain = [dir];
  while (path.dirname(chain[0]) !== chain[0]) chain.unshift(path.dirname(chain[0]));
  return chain;
}
