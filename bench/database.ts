// The database a benchmark runs on: a fresh one on the server in SVC_TEST_DATABASE_URL or
// DATABASE_URL, else on the embedded PostgreSQL that npm test uses.
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/store/embedded.ts';
import { freshDatabase, type TestDatabase } from '../test/support/database.ts';

export async function benchDatabase(): Promise<TestDatabase> {
  let stopEmbedded = async () => {};
  if (!process.env.SVC_TEST_DATABASE_URL) {
    if (process.env.DATABASE_URL) process.env.SVC_TEST_DATABASE_URL = process.env.DATABASE_URL;
    else {
      const embedded = await startEmbeddedPostgres(path.resolve(import.meta.dirname, '../.test-pg'), 54339);
      process.env.SVC_TEST_DATABASE_URL = embedded.url;
      stopEmbedded = embedded.stop;
    }
  }
  const database = await freshDatabase();
  return {
    ...database,
    async drop() {
      await database.drop();
      await stopEmbedded();
    },
  };
}
