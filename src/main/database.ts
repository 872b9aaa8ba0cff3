// Opens the database svc runs on: the server in DATABASE_URL, or an embedded PostgreSQL in the
// data folder. Either way the schema is migrated and the reference data loaded before use.
import type { Config } from '../config/index.ts';
import { seedReferenceData } from '../refdata/seed.ts';
import { createPool, type Db, type PoolLog } from '../store/db.ts';
import { startEmbeddedPostgres } from '../store/embedded.ts';
import { superviseEmbedded } from '../store/embedded-supervisor.ts';
import { migrate } from '../store/migrate.ts';

export interface Database {
  db: Db;
  embedded: boolean;
  close(): Promise<void>;
  /** Tells the embedded server to stop, without waiting (nothing with DATABASE_URL): for a process about to exit. */
  stopServerNow(): void;
}

/** `log` says what the user should see at start; `poolLog` hears of connections lost later. */
export async function openDatabase(config: Config, log: (msg: string) => void, poolLog?: PoolLog): Promise<Database> {
  const embedded = config.DATABASE_URL ? undefined : await startEmbeddedPostgres(config.SVC_DATA_DIR, config.SVC_EMBEDDED_PG_PORT, log);
  const db = createPool(config.DATABASE_URL ?? embedded!.url, undefined, poolLog);
  if (embedded?.server) superviseEmbedded(embedded.server, { log, giveUp: (msg) => (log(msg), process.exit(1)) });
  try {
    const applied = await migrate(db);
    if (applied.length > 0) log(`applied migrations: ${applied.join(', ')}`);
    const seeded = await seedReferenceData(db);
    if (seeded.loaded.length > 0) log(`loaded reference data: ${seeded.loaded.join(', ')}`);
  } catch (err) {
    await db.end().catch(() => {});
    await embedded?.stop();
    throw err;
  }
  return {
    db,
    embedded: embedded !== undefined,
    async close() {
      try {
        await db.end();
      } finally {
        await embedded?.stop();
      }
    },
    stopServerNow: () => embedded?.stopNow(),
  };
}
