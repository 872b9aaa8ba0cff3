// `npm run bench:filters`: what one page of GET /v2/shipments and /v2/containers costs under each
// journey filter, on one account of BENCH_SHIPMENTS shipments (default 200,000; two containers
// each) among others. For each filter: the records it matches, the shared buffers the page and
// count queries touch (EXPLAIN ANALYZE, the work done, steady whatever else the machine runs) and
// the median time of the store call. Filters that match little (a port or line the account hardly
// has, a status nothing is in) are the ones a plan walking the newest rows gets wrong.
import { CONTAINER_STATUSES } from '../src/domain/tracking/types.ts';
import { insertAccount } from '../src/store/accounts.ts';
import type { Queryable } from '../src/store/db.ts';
import { listContainers, listShipments, type ContainerFilters, type ShipmentFilters } from '../src/store/tracking-lists.ts';
import { benchDatabase } from './database.ts';

const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

const database = await benchDatabase();
const { db } = database;
const account = await insertAccount(db, 'bench');
const others = await Promise.all(Array.from({ length: 10 }, (_, i) => insertAccount(db, `other ${i}`)));

// Bulk data in SQL (the bench measures reads, not the tracking engine): ports, lines and statuses
// spread evenly, updated_at over a year, and five shipments at a port and with a line no other has.
process.stdout.write(`seeding ${SHIPMENTS} shipments (and as many in other accounts)…\n`);
await db.query(
  `WITH ports AS (SELECT array_agg(locode ORDER BY locode) AS p FROM (SELECT locode FROM locations WHERE is_seaport ORDER BY locode LIMIT 300) x),
        lines AS (SELECT array_agg(scac ORDER BY scac) AS l FROM (SELECT scac FROM shipping_lines WHERE scac <> 'ZIMU' ORDER BY scac LIMIT 25) y)
   INSERT INTO shipments (account_id, scac, request_type, request_number, state, created_at, updated_at)
   SELECT CASE WHEN g <= $2 THEN $1::uuid ELSE ($3::uuid[])[1 + g % 10] END, lines.l[1 + (g * 7) % 25], 'bill_of_lading', 'BL' || g,
          jsonb_build_object('port_of_lading_locode', ports.p[1 + (g * 13) % 300], 'port_of_discharge_locode', ports.p[1 + (g * 31) % 300],
                             'destination_locode', CASE WHEN g % 4 = 0 THEN ports.p[1 + (g * 17) % 300] END),
          timestamptz '2025-01-01' + g * interval '1 minute', timestamptz '2025-01-01' + ((g * 7919) % 525600) * interval '1 minute'
     FROM generate_series(1::bigint, $2 * 2) g, ports, lines`,
  [account.id, SHIPMENTS, others.map((o) => o.id)],
);
await db.query(
  `INSERT INTO shipments (account_id, scac, request_type, request_number, state, created_at, updated_at)
   SELECT $1, 'ZIMU', 'bill_of_lading', 'RARE' || g, '{"port_of_discharge_locode": "XXRAR"}', timestamptz '2025-02-01' + g * interval '1 day', timestamptz '2025-03-01'
     FROM generate_series(1, 5) g`,
  [account.id],
);
// Statuses the engine never sets (delivered and the like) are left out, as in real data.
const statuses = CONTAINER_STATUSES.filter((s) => !['off_dock', 'delivered', 'dropped', 'loaded'].includes(s));
await db.query(
  `INSERT INTO containers (account_id, shipment_id, number, state, created_at, updated_at)
   SELECT s.account_id, s.id, 'C' || k || s.request_number, jsonb_build_object('current_status', ($1::text[])[1 + ((hashtext(s.request_number) & 1023) + k * 5) % $2]),
          s.created_at, s.updated_at + k * interval '1 hour'
     FROM shipments s, generate_series(1, 2) k`,
  [statuses, statuses.length],
);
// As autovacuum leaves a table in service: statistics gathered, visibility map set.
await db.query('VACUUM ANALYZE');

const { rows: sample } = await db.query<{ port: string; scac: string }>(
  `SELECT state->>'port_of_discharge_locode' AS port, scac FROM shipments WHERE account_id = $1 ORDER BY created_at LIMIT 1`,
  [account.id],
);
const { port, scac } = sample[0];
const day = { start: new Date('2025-12-30T00:00:00Z'), end: new Date('2025-12-31T00:00:00Z') };
type Filters = ShipmentFilters & ContainerFilters;
const filterCases: [string, Filters][] = [
  ['no filter', {}],
  ['status=on_ship', { status: ['on_ship'] }],
  [`port=${port}`, { port: [port] }],
  [`pod_locode=${port}`, { pod_locode: [port] }],
  [`line_scac=${scac}`, { line_scac: [scac] }],
  ['updated_at one day', { updated: day }],
  [`port=${port}, status=on_ship`, { port: [port], status: ['on_ship'] }],
  ['port=XXRAR (rare)', { port: ['XXRAR'] }],
  ['line_scac=ZIMU (rare)', { line_scac: ['ZIMU'] }],
  ['status=delivered (none)', { status: ['delivered'] }],
];
const cases = (['shipments', 'containers'] as const).flatMap((kind) => filterCases.map(([name, filters]) => [name, kind, filters] as const));

/** The pool, noting each statement a call runs (a named one as text and values, one planned per run as a config). */
function recording(seen: { text: string; values: unknown[] }[]): Queryable {
  return {
    query: ((text: string | { text: string; values: unknown[] }, values?: unknown[]) => {
      seen.push(typeof text === 'string' ? { text, values: values ?? [] } : text);
      return (db.query as (...args: unknown[]) => unknown)(text, values);
    }) as Queryable['query'],
  };
}

const list = (kind: 'shipments' | 'containers', q: Queryable, f: Filters) => (kind === 'shipments' ? listShipments : listContainers)(q, account.id, f, 30, 0);

process.stdout.write(`\n${'list'.padEnd(11)} ${'filter'.padEnd(32)} ${'matches'.padStart(8)} ${'buffers'.padStart(9)} ${'median ms'.padStart(10)}\n`);
for (const [name, kind, filters] of cases) {
  const seen: { text: string; values: unknown[] }[] = [];
  const { total } = await list(kind, recording(seen), filters);
  let buffers = 0;
  for (const { text, values } of seen) {
    const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: Record<string, number> }] }>({ text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values });
    const plan = rows[0]['QUERY PLAN'][0].Plan;
    buffers += plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
  }
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await list(kind, db, filters);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(`${kind.padEnd(11)} ${name.padEnd(32)} ${String(total).padStart(8)} ${String(buffers).padStart(9)} ${times[RUNS >> 1].toFixed(1).padStart(10)}\n`);
}
await database.drop();
