// A fresh database per test file, cloned from a migrated and seeded template so each file
// pays milliseconds, not the whole schema and reference data load.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { seedReferenceData } from '../../src/refdata/seed.ts';
import { createPool, type Db } from '../../src/store/db.ts';
import { listMigrations, migrate } from '../../src/store/migrate.ts';

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

const TEMPLATE_LOCK = 7_344_202;

export function serverUrl(): string {
  const url = process.env.SVC_TEST_DATABASE_URL;
  if (!url) throw new Error('SVC_TEST_DATABASE_URL is not set: run the tests with npm test');
  return url;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.href;
}

async function templateName(): Promise<string> {
  const hash = createHash('sha256');
  for (const m of await listMigrations()) hash.update(m.name).update(m.sql);
  return `svc_tpl_${hash.digest('hex').slice(0, 16)}`;
}

const newName = () => `svc_t_${randomBytes(6).toString('hex')}`;

async function dropDatabase(base: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => c.end());
}

/** An empty database on the test server, not migrated: for what must start from nothing (a restore). */
export async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = serverUrl();
  const name = newName();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
  return { url: withDatabase(base, name), drop: () => dropDatabase(base, name) };
}

export async function freshDatabase(): Promise<TestDatabase> {
  const base = serverUrl();
  const template = await templateName();
  const name = newName();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${template}`);
    // Migrating and seeding are no-ops when the template is current; the seed notices changed data files.
    const pool = createPool(withDatabase(base, template), 2);
    try {
      await migrate(pool);
      await seedReferenceData(pool);
    } finally {
      await pool.end();
    }
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => {});
    await admin.end();
  }
  const url = withDatabase(base, name);
  const db = createPool(url, 5);
  return {
    url,
    db,
    async drop() {
      await db.end();
      await dropDatabase(base, name);
    },
  };
}
