// `npm run bench:search-writes`: what tracking's writes do to search. A change of a shipment's or
// container's state is never a HOT update (the state is indexed), so every one puts the record's
// numbers in the pending list of each GIN index (migration 038). On bench:scale's database of
// BENCH_SIZE (100k by default), in BENCH_ROUNDS (2) rounds taking turns between the GIN indexes
// as migration 038 leaves them (pending lists of 256 kB) and PostgreSQL's default (4 MB): a
// VACUUM, a search's shared buffers and ms (EXPLAIN ANALYZE, 40 searches by a whole container
// number and a part of one), BENCH_UPDATES (10,000) shipment and as many container state
// updates from 4 clients (µs per update), the same searches again. The database is left as
// migration 038 makes it.
import pg from 'pg';
import { search } from '../src/store/search.ts';
import { scaleDatabase, type ScaleSize } from './scale-seed.ts';

const SIZE = (process.env.BENCH_SIZE ?? '100k') as ScaleSize;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const UPDATES = Number(process.env.BENCH_UPDATES ?? 10_000);
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.SVC_TEST_DATABASE_URL;
if (!serverUrl) throw new Error('set SVC_TEST_DATABASE_URL (or BENCH_DATABASE_URL) to a PostgreSQL server');

const GIN = (await import('node:fs')).readFileSync(new URL('../src/store/migrations/038_gin_pending_lists.sql', import.meta.url), 'utf8').match(/(?<=ALTER INDEX )\w+/g) ?? [];
const database = await scaleDatabase(SIZE, serverUrl, { log: console.log });
const pool = new pg.Pool({ connectionString: database.url, max: 4 });
const q = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => (await pool.query<T>(sql, values)).rows;

const settings = {
  'migration 038 (256 kB)': 'SET (gin_pending_list_limit = 256)',
  'default (4 MB)': 'RESET (gin_pending_list_limit)',
};
const { account_id: account } = (await q<{ account_id: string }>('SELECT account_id FROM containers GROUP BY 1 ORDER BY count(*) DESC LIMIT 1'))[0];
const numbers = (await q<{ number: string }>('SELECT number FROM containers WHERE account_id = $1 ORDER BY random() LIMIT 20', [account])).map((r) => r.number);

/** Per search: shared buffers and ms (planning and execution) of its statements. */
async function searches(): Promise<{ buffers: number; ms: number }> {
  const client = await pool.connect();
  let buffers = 0;
  let ms = 0;
  const explaining = {
    query: async (config: pg.QueryConfig) => {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${config.text}`, config.values);
      const [{ Plan: plan, 'Planning Time': planning, 'Execution Time': execution }] = rows[0]['QUERY PLAN'];
      buffers += plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
      ms += planning + execution;
      return { rows: [] };
    },
  };
  try {
    for (const n of numbers) {
      await search(explaining as never, account, n);
      await search(explaining as never, account, n.slice(3, 10));
    }
  } finally {
    client.release();
  }
  return { buffers: buffers / (2 * numbers.length), ms: ms / (2 * numbers.length) };
}

async function updates(): Promise<number> {
  const ships = (await q<{ id: string }>('SELECT id FROM shipments ORDER BY random() LIMIT $1', [UPDATES])).map((r) => r.id);
  const boxes = (await q<{ id: string }>('SELECT id FROM containers ORDER BY random() LIMIT $1', [UPDATES])).map((r) => r.id);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < ships.length) {
        const i = next++;
        await pool.query({ name: 'ship', text: `UPDATE shipments SET state = state || jsonb_build_object('bench_tick', $2::int) WHERE id = $1`, values: [ships[i], i] });
        await pool.query({ name: 'box', text: `UPDATE containers SET state = state || jsonb_build_object('bench_tick', $2::int) WHERE id = $1`, values: [boxes[i], i] });
      }
    }),
  );
  return ((performance.now() - t0) * 1000) / (ships.length + boxes.length);
}

console.log(`\n${SIZE}: ${UPDATES} shipment and ${UPDATES} container state updates a round (4 clients), searches by a whole container number and a part of one`);
console.log('round  GIN pending lists          before: buffers  ms   updates µs each   after: buffers  ms   load');
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, setting] of Object.entries(settings)) {
      for (const index of GIN) await q(`ALTER INDEX ${index} ${setting}`);
      await q('VACUUM shipments, containers, tracking_requests');
      const before = await searches();
      const us = await updates();
      const after = await searches();
      const load = (await import('node:os')).loadavg()[0].toFixed(1);
      console.log(
        `${String(round).padStart(5)}  ${name.padEnd(25)}  ${before.buffers.toFixed(0).padStart(15)} ${before.ms.toFixed(2).padStart(5)}   ${us.toFixed(0).padStart(15)}   ${after.buffers.toFixed(0).padStart(14)} ${after.ms.toFixed(2).padStart(5)}   ${load}`,
      );
    }
  }
} finally {
  for (const index of GIN) await q(`ALTER INDEX ${index} ${settings['migration 038 (256 kB)']}`);
  await q('VACUUM shipments, containers, tracking_requests');
  await pool.end();
}
