// The embedded PostgreSQL's superuser password: random per data folder, kept beside the cluster in
// a file only svc's OS user can read. Clusters made before had one fixed, well-known password; the
// first start with this code changes it.
import { randomBytes } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/** The password every embedded cluster had before passwords were per data folder. */
export const LEGACY_PASSWORD = 'svc-embedded';

export const passwordPath = (dataDir: string) => path.resolve(dataDir, 'pg-password');

/** This data folder's password, created on first use (mode 0600). */
export async function dataDirPassword(dataDir: string): Promise<string> {
  const file = passwordPath(dataDir);
  try {
    await writeFile(file, `${randomBytes(24).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  }
  const password = (await readFile(file, 'utf8')).trim();
  if (!password) throw new Error(`${file} is empty: delete it and restart svc, which creates a new one`);
  return password;
}

/**
 * Connects as the superuser with `password`; when the server still has one of `earlier` (a fresh
 * cluster's throwaway password, or the old fixed one), switches it to `password` first.
 */
export async function adminClient(url: (password: string) => string, password: string, earlier: string[]): Promise<pg.Client> {
  for (const candidate of [password, ...earlier]) {
    const client = new pg.Client({ connectionString: url(candidate) });
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => {});
      if ((err as { code?: string }).code === '28P01') continue; // wrong password: try the next
      throw err;
    }
    if (candidate !== password) await client.query(`ALTER ROLE CURRENT_USER PASSWORD ${client.escapeLiteral(password)}`);
    return client;
  }
  throw new Error('the embedded PostgreSQL refused the password in its data folder (pg-password) and the earlier ones; restore that file from a backup');
}
