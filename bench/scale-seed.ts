// The databases bench:scale reads: svc's schema and reference data, then ten accounts' shipments,
// containers, transport events, tracking requests and webhook notifications (scale-data.ts) loaded
// with COPY. A database is built once per size and kept (svc_bench_scale_<size> on the server);
// it is rebuilt when asked, when the generator or an applied migration changed since, or when an
// earlier build did not finish (a build happens under another name and is renamed when done).
// Migrations added since a build are applied to the kept data instead, and timed.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { seedReferenceData } from '../src/refdata/seed.ts';
import { listMigrations, migrate } from '../src/store/migrate.ts';
import {
  COLUMNS, containerLine, eventLines, notificationLines, partyLines, refreshLine, shipmentLine, shipments, trackingRequestLine, webhookLines,
  type Plan, type Reference, type ScaleTable,
} from './scale-data.ts';

export const SCALE_SIZES = {
  '10k': { containers: 10_000, trackingRequests: 1_000 },
  '100k': { containers: 100_000, trackingRequests: 10_000 },
  '1m': { containers: 1_000_000, trackingRequests: 100_000 },
} as const;
export type ScaleSize = keyof typeof SCALE_SIZES;

/** Bump when the generated data changes shape, so kept databases are rebuilt. */
const GENERATOR_VERSION = 2;
const ACCOUNTS = 10;
const PARTIES_PER_ACCOUNT = 20;
/** The tables COPY fills: their indexes and constraints are built after the rows are in. */
const LOADED: ScaleTable[] = ['parties', 'webhooks', 'shipments', 'shipment_refreshes', 'containers', 'transport_events', 'tracking_requests', 'domain_events', 'webhook_notifications'];

export interface ScaleDatabase {
  size: ScaleSize;
  url: string;
  /** The account holding most of the data (the one a benchmark reads as). */
  accountId: string;
  /** Whether this call built it (else it was kept from an earlier run). */
  built: boolean;
  /** Seconds the build took (when it was built, now or earlier), and its parts. */
  buildSeconds: number;
  phases: Record<string, number>;
  bytes: number;
  rows: Record<string, number>;
}

const withDatabase = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).href;

/** The migrations as names and content digests: a changed file counts as a change. */
async function migrationList(): Promise<string[]> {
  return (await listMigrations()).map((m) => `${m.name}:${createHash('sha256').update(m.sql).digest('hex').slice(0, 12)}`);
}

interface BuildRecord {
  migrations: string[];
  generator: number;
  account_id: string;
  build_seconds: number;
  phases: Record<string, number>;
  rows: Record<string, number>;
}

async function kept(url: string): Promise<BuildRecord | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<BuildRecord>('SELECT * FROM bench_scale_build').catch(() => ({ rows: [] as BuildRecord[] }));
    return rows[0];
  } finally {
    await client.end();
  }
}

/** Applies the migrations `record` lacks to a kept database, timing each, and records them. */
async function migrateKept(url: string, record: BuildRecord, migrations: string[], log: (line: string) => void): Promise<void> {
  const db = new pg.Pool({ connectionString: url, max: 2, application_name: 'svc-bench-scale' });
  try {
    const started = performance.now();
    const applied = await migrate(db);
    const seconds = Math.round(performance.now() - started) / 1000;
    log(`  migrations ${applied.join(', ')} applied to the kept data: ${seconds.toFixed(1)} s`);
    // What they wrote, vacuumed and analysed as a build leaves its tables.
    await db.query('VACUUM (ANALYZE)');
    const phases = { ...record.phases, [`migrations ${applied.join(', ')}`]: seconds };
    await db.query('UPDATE bench_scale_build SET migrations = $1, phases = $2', [migrations, phases]);
  } finally {
    await db.end();
  }
}

/**
 * The database of `size` on the server of `serverUrl`: the kept one when it is current, else a
 * new build. `rebuild` forces one.
 */
export async function scaleDatabase(size: ScaleSize, serverUrl: string, options: { rebuild?: boolean; log?: (line: string) => void } = {}): Promise<ScaleDatabase> {
  const log = options.log ?? (() => {});
  // Another name keeps one checkout's databases apart from another's on a shared server.
  const name = `${process.env.BENCH_SCALE_PREFIX ?? 'svc_bench_scale'}_${size}`;
  const url = withDatabase(serverUrl, name);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const migrations = await migrationList();
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    const record = exists && !options.rebuild ? await kept(url) : undefined;
    let current = record && record.generator === GENERATOR_VERSION && record.migrations.join() === migrations.join();
    // Migrations added since the build (the kept ones unchanged) are applied to the kept data, as
    // they would be to a service's (by name: one numbered below the build's last, from a branch
    // merged later, too): no rebuild, and their time on this size is reported.
    if (record && !current && record.generator === GENERATOR_VERSION && !options.rebuild && record.migrations.every((m) => migrations.includes(m))) {
      await migrateKept(url, record, migrations, log);
      current = true;
    }
    if (!current) {
      log(`${name}: ${!exists ? 'not built yet' : options.rebuild ? 'rebuild asked (BENCH_REBUILD=1)' : 'migrations or generator changed'}: building`);
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      await build(withDatabase(serverUrl, building), SCALE_SIZES[size], migrations, log);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    const done = await kept(url);
    if (!done) throw new Error(`${name} has no build record after its build`);
    const bytes = Number((await admin.query<{ size: string }>('SELECT pg_database_size($1) AS size', [name])).rows[0].size);
    return { size, url, accountId: done.account_id, built: !current, buildSeconds: done.build_seconds, phases: done.phases, bytes, rows: done.rows };
  } finally {
    await admin.end();
  }
}

/** What the generator draws from: the seeded lines, ports with their terminals, and vessels. */
async function reference(db: pg.Pool): Promise<Reference> {
  const ports = async (locodes: string[], where: string) =>
    (
      await db.query<{ locode: string; time_zone: string | null; terminal_id: string | null; terminal_code: string | null }>(
        `SELECT l.locode, l.time_zone, t.id AS terminal_id, coalesce(t.firms_code, t.smdg_code) AS terminal_code
           FROM locations l
           LEFT JOIN LATERAL (SELECT * FROM terminals t WHERE t.port_id = l.id AND coalesce(t.firms_code, t.smdg_code) IS NOT NULL
                               ORDER BY t.firms_code IS NULL, t.id LIMIT 1) t ON true
          WHERE l.locode = ANY($1) AND ${where} ORDER BY l.locode`,
        [locodes],
      )
    ).rows.map((r) => ({ locode: r.locode, timeZone: r.time_zone, terminal: r.terminal_id && r.terminal_code ? { id: r.terminal_id, code: r.terminal_code } : null }));
  // The big lines carry most boxes, roughly as their fleets do; every other line a little.
  const shares: Record<string, number> = { MSCU: 200, MAEU: 160, CMDU: 130, COSU: 110, HLCU: 80, ONEY: 70, EGLV: 70, HDMU: 30, YMLU: 30, ZIMU: 30, OOLU: 40 };
  const lines = (
    await db.query<{ scac: string; bl_prefixes: string[]; container_prefixes: string[] }>(
      `SELECT scac, bl_prefixes, container_prefixes FROM shipping_lines
        WHERE bill_of_lading_tracking_support AND cardinality(container_prefixes) > 0 AND scac ~ '^[A-Z]{4}$' ORDER BY scac`,
    )
  ).rows.map((r) => ({ scac: r.scac, blPrefixes: r.bl_prefixes, containerPrefixes: r.container_prefixes, weight: shares[r.scac] ?? 5 }));
  const ref: Reference = {
    lines,
    origins: await ports(['CNSHA', 'CNNGB', 'CNYTN', 'CNTAO', 'CNXMN', 'HKHKG', 'SGSIN', 'KRPUS', 'TWKHH', 'VNSGN', 'VNHPH', 'MYPKG', 'JPTYO', 'INNSA', 'THLCH', 'IDJKT'], 'l.is_seaport'),
    discharges: await ports(['USLAX', 'USLGB', 'USNYC', 'USSAV', 'USHOU', 'USSEA', 'USOAK', 'USCHS', 'USORF', 'USBAL', 'DEHAM', 'NLRTM', 'GBFXT', 'BEANR', 'FRLEH', 'ESVLC'], 'l.is_seaport'),
    transshipments: await ports(['SGSIN', 'MYTPP', 'LKCMB', 'KRPUS', 'PAMIT', 'ESALG', 'MAPTM', 'AEJEA'], 'l.is_seaport'),
    inland: await ports(['USCHI', 'USDAL', 'USMEM', 'USATL', 'USKCK', 'USCMH'], 'l.is_inland_hub'),
    vessels: (await db.query<{ imo: string; name: string }>('SELECT imo, name FROM vessels ORDER BY imo LIMIT 300')).rows,
  };
  for (const [what, list] of Object.entries(ref)) if (what !== 'inland' && list.length === 0) throw new Error(`the reference data has no ${what} to build shipments from`);
  return ref;
}

/** One table's COPY on its own connection, fed in chunks, waiting whenever the server is behind. */
class CopyWriter {
  rows = 0;
  private buffer = '';
  private constructor(
    private readonly client: pg.PoolClient,
    private readonly stream: CopyStreamQuery,
    private readonly done: Promise<void>,
  ) {}

  static async open(db: pg.Pool, table: ScaleTable): Promise<CopyWriter> {
    const client = await db.connect();
    // Emptied in the COPY's own transaction, the table takes its rows already frozen: the VACUUM
    // after the load then has no page to rewrite.
    await client.query('BEGIN');
    await client.query(`TRUNCATE ${table}`);
    const stream = client.query(copyFrom(`COPY ${table} (${COLUMNS[table].join(', ')}) FROM STDIN (FREEZE)`));
    const done = finished(stream);
    // Awaited in close(); a failure before then surfaces through write().
    done.catch(() => {});
    return new CopyWriter(client, stream, done);
  }

  async add(lines: string, rows = 1): Promise<void> {
    this.buffer += lines;
    this.rows += rows;
    if (this.buffer.length >= 1 << 18) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    try {
      if (this.buffer) await this.flush();
      this.stream.end();
      await this.done;
      await this.client.query('COMMIT');
    } finally {
      this.client.release();
    }
  }
}

/** Runs `statements` on `width` connections at once (index builds of different tables overlap). */
async function runAll(db: pg.Pool, statements: string[], width: number): Promise<void> {
  const queue = [...statements];
  await Promise.all(
    Array.from({ length: width }, async () => {
      const client = await db.connect();
      try {
        await client.query("SET maintenance_work_mem = '512MB'");
        for (let s = queue.shift(); s !== undefined; s = queue.shift()) await client.query(s);
      } finally {
        client.release();
      }
    }),
  );
}

/**
 * Takes the loaded tables' indexes and constraints off, remembering how to put them back: keys
 * and unique constraints, then the other indexes, then foreign keys (checked in one pass each,
 * rather than one lookup per row during the load).
 */
async function dropIndexes(db: pg.Pool): Promise<string[][]> {
  const tables = LOADED;
  const { rows: constraints } = await db.query<{ tbl: string; name: string; def: string; type: string }>(
    `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def, contype AS type FROM pg_constraint
      WHERE contype IN ('p', 'u', 'f') AND (conrelid = ANY($1::regclass[]) OR confrelid = ANY($1::regclass[]))`,
    [tables],
  );
  const { rows: indexes } = await db.query<{ name: string; def: string }>(
    `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def FROM pg_index i
      WHERE indrelid = ANY($1::regclass[]) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u'))`,
    [tables],
  );
  const foreign = constraints.filter((c) => c.type === 'f');
  const keys = constraints.filter((c) => c.type !== 'f');
  for (const c of [...foreign, ...keys]) await db.query(`ALTER TABLE ${c.tbl} DROP CONSTRAINT ${c.name}`);
  for (const i of indexes) await db.query(`DROP INDEX ${i.name}`);
  const add = (c: { tbl: string; name: string; def: string }) => `ALTER TABLE ${c.tbl} ADD CONSTRAINT ${c.name} ${c.def}`;
  return [keys.map(add), indexes.map((i) => i.def), foreign.map(add)];
}

/** A step of a build and the seconds it took, as the build reports them. */
export type PhaseLog = (name: string) => void;

/**
 * Fills an empty, migrated and seeded database with ten accounts' data of `size`, as one large
 * account and nine smaller ones: rows by COPY with the tables' indexes and constraints taken off,
 * which are built (and checked) afterwards. Exported so tests and other benchmarks can load data.
 */
export async function loadScaleData(url: string, size: { containers: number; trackingRequests: number }, phase: PhaseLog = () => {}): Promise<{ accounts: string[]; rows: Record<string, number> }> {
  // A connection per table, all loading at once.
  const db = new pg.Pool({ connectionString: url, max: LOADED.length, application_name: 'svc-bench-scale' });
  try {
    return await load(db, size, phase);
  } finally {
    await db.end();
  }
}

async function load(db: pg.Pool, size: { containers: number; trackingRequests: number }, phase: PhaseLog): Promise<{ accounts: string[]; rows: Record<string, number> }> {
  const { rows: accounts } = await db.query<{ id: string }>(
    `INSERT INTO accounts (name, created_at)
     SELECT CASE WHEN a = 1 THEN 'Scale: large forwarder' ELSE 'Scale: importer ' || a END, timestamptz '2024-01-01'
       FROM generate_series(1, $1) a ORDER BY a RETURNING id`,
    [ACCOUNTS],
  );
  const plan: Plan = { ...size, accounts: accounts.map((a) => a.id), partiesPerAccount: PARTIES_PER_ACCOUNT };
  const ref = await reference(db);
  const [keys, indexes, foreign] = await dropIndexes(db);
  // Triggers too: a row's trigger would read or write another table loading beside it (and wait
  // for its lock), so the generator writes what they keep (shipments.on_hold) itself.
  for (const t of LOADED) await db.query(`ALTER TABLE ${t} DISABLE TRIGGER USER`);
  phase('indexes and constraints dropped');

  const writers = Object.fromEntries(await Promise.all(LOADED.map(async (t) => [t, await CopyWriter.open(db, t)] as const))) as Record<ScaleTable, CopyWriter>;
  for (const l of partyLines(plan)) await writers.parties.add(l);
  for (const l of webhookLines(plan)) await writers.webhooks.add(l);
  for (const s of shipments(plan, ref)) {
    await writers.shipments.add(shipmentLine(s));
    if (s.stoppedAt === null) await writers.shipment_refreshes.add(refreshLine(s));
    for (const c of s.containers) {
      await writers.containers.add(containerLine(s, c));
      await writers.transport_events.add(eventLines(s, c), c.milestones.length);
      const n = notificationLines(s, c);
      if (n) {
        await writers.domain_events.add(n.domainEvent);
        await writers.webhook_notifications.add(n.notification);
      }
    }
    for (const t of s.trackingRequests) await writers.tracking_requests.add(trackingRequestLine(t, s, plan));
  }
  await Promise.all(Object.values(writers).map((w) => w.close()));
  const rows = Object.fromEntries(LOADED.map((t) => [t, writers[t].rows]));
  phase(`COPY (${Object.values(rows).reduce((a, b) => a + b)} rows)`);

  for (const t of LOADED) await db.query(`ALTER TABLE ${t} ENABLE TRIGGER USER`);
  // What the notifications' insert trigger would have queued (migration 030): the pending ones.
  await db.query('TRUNCATE webhook_delivery_queue');
  await db.query(`INSERT INTO webhook_delivery_queue (notification_id, webhook_id, due_at, attempts, queued_at)
                  SELECT id, webhook_id, next_attempt_at, attempts, updated_at FROM webhook_notifications WHERE delivery_status = 'pending'`);
  await runAll(db, keys, 2);
  phase(`keys and unique constraints (${keys.length})`);
  await runAll(db, indexes, 2);
  phase(`indexes (${indexes.length})`);
  await runAll(db, foreign, 2);
  phase(`foreign keys checked (${foreign.length})`);
  await db.query("SELECT setval(pg_get_serial_sequence('domain_events', 'id'), (SELECT max(id) FROM domain_events))");
  // As autovacuum leaves tables in service: statistics gathered, visibility map and hint bits set.
  await db.query('VACUUM (ANALYZE)');
  phase('VACUUM ANALYZE');
  return { accounts: plan.accounts, rows };
}

async function build(url: string, size: { containers: number; trackingRequests: number }, migrations: string[], log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const phases: Record<string, number> = {};
  let mark = started;
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - mark) / 1000;
    mark = now;
    log(`  ${name}: ${phases[name].toFixed(1)} s`);
  };
  const db = new pg.Pool({ connectionString: url, max: 2, application_name: 'svc-bench-scale' });
  try {
    await migrate(db);
    await seedReferenceData(db);
    phase('schema and reference data');
    const { accounts, rows } = await loadScaleData(url, size, phase);
    const buildSeconds = Math.round(performance.now() - started) / 1000;
    await db.query(`CREATE TABLE bench_scale_build (migrations text[] NOT NULL, generator integer NOT NULL, account_id uuid NOT NULL,
                      build_seconds real NOT NULL, phases json NOT NULL, rows jsonb NOT NULL, built_at timestamptz NOT NULL DEFAULT now())`);
    await db.query('INSERT INTO bench_scale_build (migrations, generator, account_id, build_seconds, phases, rows) VALUES ($1, $2, $3, $4, $5, $6)', [
      migrations, GENERATOR_VERSION, accounts[0], buildSeconds, phases, rows,
    ]);
  } finally {
    await db.end();
  }
}
