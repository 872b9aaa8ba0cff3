// Every list, filter and search statement the store issues finds its rows through indexes: on a
// database seeded large enough for the planner to prefer them (ten accounts, tens of thousands of
// rows, analysed), the plan of each statement, as PostgreSQL would run it, reads no tenant table
// (one with an account_id) sequentially. The statements are captured from the store functions
// themselves, through a pool that notes what it is asked to run. Named statements are checked in
// both of the plans PostgreSQL gives them (planned for their values at first, generic later);
// statements planned per run, for their values.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import type { Queryable } from '../src/store/db.ts';
import { listFields, matchKey } from '../src/store/custom-fields.ts';
import { freshnessOfContainers, freshnessOfShipments } from '../src/store/freshness.ts';
import { listParties } from '../src/store/parties.ts';
import { search } from '../src/store/search.ts';
import { listContainers, listShipments, SHIPMENT_ORDER_FIELDS, type ContainerFilters, type ShipmentFilters, type ShipmentOrder } from '../src/store/tracking-lists.ts';
import { listTrackingRequests, type TrackingRequestFilters } from '../src/store/tracking-requests.ts';
import { listNotifications } from '../src/store/webhook-notifications.ts';
import { listWebhooks } from '../src/store/webhooks.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';
import { seedCustomFields } from './support/custom-field-seed.ts';
import { seedLists, type SeededLists } from './support/list-seed.ts';

let database: TestDatabase;
let seeded: SeededLists;
let tenantTables: Set<string>;

forFile(
  async () => {
    database = await freshDatabase();
    seeded = await seedLists(database.db, { accounts: 10, containersPerAccount: 2000 });
    const { rows } = await database.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'account_id'",
    );
    tenantTables = new Set(rows.map((r) => r.table_name));
    return database;
  },
  () => {},
  (d) => d.drop(),
);

interface Statement {
  text: string;
  values: unknown[];
  /** Run as a named prepared statement (db.ts), which PostgreSQL may plan generically. */
  named: boolean;
}

/** Runs `call` against a pool that notes each statement it runs. */
async function statementsOf(call: (db: Queryable) => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const recording: Queryable = {
    query: ((text: string | pg.QueryConfig, values?: unknown[]) => {
      if (typeof text === 'string') seen.push({ text, values: values ?? [], named: values !== undefined });
      else seen.push({ text: text.text, values: text.values ?? [], named: false });
      return (database.db.query as (...args: unknown[]) => unknown)(text, values);
    }) as Queryable['query'],
  };
  await call(recording);
  return seen;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/** The plans PostgreSQL makes for a statement: for its values, and generic too when it is named. */
async function plansOf(s: Statement): Promise<PlanNode[]> {
  const client = await database.db.connect();
  try {
    const explain = async (text: string, values?: unknown[]) => {
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
      return rows[0]['QUERY PLAN'][0].Plan;
    };
    const plans = [await explain(s.text, s.values)];
    if (s.named) {
      // EXECUTE takes its values as literals, which become the parameters' types.
      const literals = s.values.map((v) => (v === null ? 'NULL' : client.escapeLiteral(prepared(v))));
      await client.query(`PREPARE checked AS ${s.text}`);
      await client.query('SET plan_cache_mode = force_generic_plan');
      try {
        plans.push(await explain(`EXECUTE checked(${literals.join(', ')})`));
      } finally {
        await client.query('RESET plan_cache_mode');
        await client.query('DEALLOCATE checked');
      }
    }
    return plans;
  } finally {
    client.release();
  }
}

/** A value as node-postgres sends it (arrays as array literals, instants as ISO 8601). */
function prepared(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return `{${v.map((x) => `"${String(x).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  return String(v);
}

/** Fails when a plan of a statement `call` issues reads a tenant table sequentially; returns the index names the plans use. */
async function assertIndexed(name: string, call: (db: Queryable) => Promise<unknown>): Promise<Set<string>> {
  const statements = await statementsOf(call);
  assert.ok(statements.length > 0, `${name}: no statement captured`);
  const indexes = new Set<string>();
  for (const s of statements) {
    for (const plan of await plansOf(s)) {
      for (const node of nodes(plan)) {
        if (node['Index Name']) indexes.add(node['Index Name']);
        assert.ok(
          !(node['Node Type'] === 'Seq Scan' && tenantTables.has(node['Relation Name'] ?? '')),
          `${name}: a sequential scan of ${node['Relation Name']} in\n${s.text}\n${JSON.stringify(plan, null, 1)}`,
        );
      }
    }
  }
  return indexes;
}

const lastMonth = { start: new Date('2025-12-01T00:00:00Z'), end: new Date('2026-01-01T00:00:00Z') };

describe('no list, filter or search statement reads a tenant table sequentially', () => {
  test('the seed makes the planner choose: tenant tables hold tens of thousands of rows', async () => {
    const { rows } = await database.db.query<{ n: number }>('SELECT count(*) AS n FROM containers');
    assert.ok(rows[0].n >= 20_000);
  });

  test('search: whole numbers, parts of one, reference numbers; five characters or more go through the indexes of five-character pieces, fewer through the trigram indexes', async () => {
    const account = seeded.accounts[0];
    for (const query of [seeded.number, seeded.number.slice(4, 10)]) {
      const used = await assertIndexed(`search ${query}`, (db) => search(db, account, query));
      for (const index of ['shipments_number_pieces', 'containers_number_pieces', 'tracking_requests_number_pieces']) assert.ok(used.has(index), `${query}: ${[...used].join(', ')}`);
    }
    const used = await assertIndexed('search four digits', (db) => search(db, account, seeded.number.slice(6, 10)));
    assert.ok(used.has('containers_numbers_trgm'), [...used].join(', '));
    for (const query of [seeded.number.slice(4, 10), seeded.number.slice(0, 4), 'MS', 'PO-1-333', 'bl1 0000', 'NOTHING-LIKE-THIS', 'x%_']) {
      await assertIndexed(`search ${query}`, (db) => search(db, account, query));
    }
  });

  test('search by a whole container number keeps only the whole number: in a number or a reference number, never the same serial of another owner', async () => {
    const account = seeded.accounts[9];
    const { rows } = await database.db.query<{ id: string }>('SELECT id FROM shipments WHERE account_id = $1 LIMIT 1', [account]);
    const { rows: made } = await database.db.query<{ id: string; number: string }>(
      `INSERT INTO containers (account_id, shipment_id, number, ref_numbers, created_at, updated_at)
       SELECT $1, $2, n, array_remove(ARRAY[r], ''), now(), now() FROM unnest($3::text[], $4::text[]) AS x(n, r) RETURNING id, number`,
      [account, rows[0].id, ['ZZZU1234567', 'YYYU1234567', 'XXXU7654321'], ['', '', 'BOOKED AS zzzu 123456-7']],
    );
    const ids = (numbers: string[]) => made.filter((c) => numbers.includes(c.number)).map((c) => c.id).sort();
    for (const query of ['ZZZU1234567', 'zzzu 123456-7', 'ZZZU123456']) {
      const hits = await search(database.db, account, query);
      assert.deepEqual(hits.filter((h) => h.entity_type === 'cargo').map((h) => h.id).sort(), ids(['ZZZU1234567', 'XXXU7654321']), query);
    }
    await assertIndexed('search whole number of another owner', (db) => search(db, account, 'YYYU1234567'));
    await database.db.query('DELETE FROM containers WHERE id = ANY($1::uuid[])', [made.map((c) => c.id)]);
  });

  test('the ports of lading and discharge kept as columns for the filters follow the shipment state', async () => {
    const account = seeded.accounts[8];
    const { rows } = await database.db.query<{ id: string; pol: string }>(
      "UPDATE shipments SET state = state || '{\"port_of_discharge_locode\": \"XXNEW\"}' WHERE id = (SELECT id FROM shipments WHERE account_id = $1 LIMIT 1) RETURNING id, state->>'port_of_lading_locode' AS pol",
      [account],
    );
    const found = async (f: ShipmentFilters) => (await listShipments(database.db, account, f, 1000, 0)).rows.map((r) => r.id);
    assert.deepEqual(await found({ pod_locode: ['XXNEW'] }), [rows[0].id]);
    assert.ok((await found({ pol_locode: [rows[0].pol] })).includes(rows[0].id));
    await database.db.query("UPDATE shipments SET state = state - 'port_of_discharge_locode' WHERE id = $1", [rows[0].id]);
    assert.deepEqual(await found({ pod_locode: ['XXNEW'] }), []);
  });

  test('data freshness of a page of shipments and of containers: through indexes, vessel positions by vessel', async () => {
    const account = seeded.accounts[2];
    const { rows: shipments } = await database.db.query<{ id: string }>('SELECT id FROM shipments WHERE account_id = $1 LIMIT 25', [account]);
    const { rows: containers } = await database.db.query<{ id: string }>('SELECT id FROM containers WHERE account_id = $1 LIMIT 25', [account]);
    for (const [name, call] of [
      ['shipments', (db: Queryable) => freshnessOfShipments(db, shipments.map((r) => r.id))],
      ['one shipment', (db: Queryable) => freshnessOfShipments(db, [shipments[0].id])],
      ['containers', (db: Queryable) => freshnessOfContainers(db, containers.map((r) => r.id))],
    ] as const) {
      await assertIndexed(`freshness of ${name}`, call);
      for (const s of await statementsOf(call)) {
        for (const plan of await plansOf(s)) {
          const positions = nodes(plan).filter((n) => n['Relation Name'] === 'vessel_positions');
          assert.ok(positions.length > 0 && positions.every((n) => n['Node Type'] !== 'Seq Scan'), `freshness of ${name}: ${JSON.stringify(positions)}`);
        }
      }
    }
  });

  test('shipments: every filter, alone and combined, every order, and a deep page', async () => {
    const account = seeded.accounts[0];
    const { rows } = await database.db.query<{ scac: string }>('SELECT scac FROM shipments WHERE account_id = $1 LIMIT 1', [account]);
    const cases: ShipmentFilters[] = [
      {},
      { q: seeded.number },
      { q: seeded.number.slice(0, 4) },
      { q: 'PO-1-12' },
      { number: 'BL100000010' },
      { tracking_stopped: true },
      { tracking_stopped: false },
      { on_hold: true },
      { on_hold: false },
      { status: ['on_ship'] },
      { status: ['available', 'grounded'] },
      { status: ['delivered'] },
      { status: ['grounded'], on_hold: true },
      { port: [seeded.port] },
      { pol_locode: [seeded.port] },
      { pod_locode: [seeded.port] },
      { pod_locode: [seeded.port, 'XXRAR'] },
      { line_scac: [rows[0].scac] },
      { updated: lastMonth },
      { pod_eta: lastMonth },
      { port: [seeded.port], status: ['on_ship'] },
      { line_scac: [rows[0].scac], tracking_stopped: false, updated: lastMonth },
    ];
    for (const f of cases) await assertIndexed(`shipments ${JSON.stringify(f)}`, (db) => listShipments(db, account, f, 30, 0));
    // The few on hold, a range of estimates or updates, and the arrival order are read off their
    // own indexes (migration 017), not by probing or sorting the account's shipments.
    const reads = async (index: string, f: ShipmentFilters, order?: ShipmentOrder) => {
      const used = await assertIndexed(`shipments ${JSON.stringify(f)} ${JSON.stringify(order)}`, (db) => listShipments(db, account, f, 30, 0, order));
      assert.ok(used.has(index), `${index} not in ${[...used].join(', ')}`);
    };
    await reads('shipments_account_on_hold', { on_hold: true });
    // Containers' statuses and the three legs' ports are kept on the shipment (migration 026): a
    // page is read off the list's order with both arrays in its index entries, or, for a value
    // few shipments have, through the array's GIN index; the containers are not read.
    for (const f of [{ status: ['on_ship'] }, { status: ['grounded'] }, { port: [seeded.port] }, { port: [seeded.port, 'XXRAR'] }] as ShipmentFilters[]) {
      const statements = await statementsOf((db) => listShipments(db, account, f, 30, 0));
      assert.ok(statements.every((st) => !/\bcontainers\b/.test(st.text)), statements.map((st) => st.text).join('\n'));
      const used = await assertIndexed(`shipments ${JSON.stringify(f)}`, (db) => listShipments(db, account, f, 30, 0));
      const kept = ['shipments_account_journey', f.status ? 'shipments_container_statuses' : 'shipments_port_locodes'];
      assert.ok(kept.some((i) => used.has(i)), `none of ${kept.join(', ')} in ${[...used].join(', ')}`);
    }
    // A total of shipments by their port of lading or discharge, or of those still tracked, is
    // counted from index entries alone, no row visited (the ports kept as columns, migration 031).
    for (const [index, f] of [
      ['shipments_account_pol_locode', { pol_locode: [seeded.port] }],
      ['shipments_account_pod_locode', { pod_locode: [seeded.port] }],
      ['shipments_account_tracked', { tracking_stopped: false }],
    ] as [string, ShipmentFilters][]) {
      const count = (await statementsOf((db) => listShipments(db, account, f, 30, 0))).find((st) => st.text.startsWith('SELECT count(*)'));
      assert.ok(count, `shipments ${JSON.stringify(f)}: no count`);
      const scans = (await plansOf(count)).flatMap(nodes).filter((n) => n['Relation Name'] === 'shipments');
      assert.ok(scans.length > 0 && scans.every((n) => n['Node Type'] === 'Index Only Scan' && n['Index Name'] === index), `${JSON.stringify(f)}: ${JSON.stringify(scans)}`);
    }
    await reads('shipments_account_pod_eta', { pod_eta: lastMonth });
    await reads('shipments_account_updated', { updated: lastMonth });
    await reads('shipments_account_arrival', {}, { field: 'pod_arrival_at', descending: false });
    await reads('shipments_account_arrival_desc', {}, { field: 'pod_arrival_at', descending: true });
    await reads('shipments_account_updated', {}, { field: 'updated_at', descending: true });
    for (const field of SHIPMENT_ORDER_FIELDS) {
      for (const descending of [false, true]) {
        await assertIndexed(`shipments sorted ${descending ? '-' : ''}${field}`, (db) => listShipments(db, account, {}, 30, 0, { field, descending }));
      }
    }
    await assertIndexed('shipments page 21', (db) => listShipments(db, account, {}, 30, 600));
  });

  test('containers: every filter', async () => {
    const account = seeded.accounts[0];
    const { rows } = await database.db.query<{ shipment_id: string }>('SELECT shipment_id FROM containers WHERE account_id = $1 LIMIT 1', [account]);
    const cases: ContainerFilters[] = [
      {},
      { number: seeded.number },
      { shipment_id: rows[0].shipment_id },
      { status: ['on_ship'] },
      { status: ['available', 'new'] },
      { port: [seeded.port] },
      { port: [seeded.port, 'XXRAR'] },
      { pod_locode: [seeded.port] },
      { line_scac: ['MAEU'] },
      { updated: lastMonth },
      { status: ['available'], pol_locode: [seeded.port] },
    ];
    for (const f of cases) await assertIndexed(`containers ${JSON.stringify(f)}`, (db) => listContainers(db, account, f, 30, 0));
    // Filtered by the shipment alone, the count walks the shipments (store/tracking-lists.ts); a
    // day of updates is read off the updated_at index.
    const counts = await statementsOf((db) => listContainers(db, account, { pod_locode: [seeded.port] }, 30, 0));
    assert.ok(counts.some((st) => /count\(\*\)[^]*FROM shipments s JOIN containers/.test(st.text)), counts.map((st) => st.text).join('\n'));
    const used = await assertIndexed('containers updated', (db) => listContainers(db, account, { updated: lastMonth }, 30, 0));
    assert.ok(used.has('containers_account_updated'), [...used].join(', '));
  });

  test("a range's page read a day at a time and a total by any port counted leg by leg hold the plain statements' rows and totals", async () => {
    const account = seeded.accounts[7];
    // Estimates for some of the account's shipments, and destinations for others (the seed sets neither).
    await database.db.query(
      `UPDATE shipments SET state = state || jsonb_build_object('pod_eta_at', to_char((created_at + interval '31 days 7 hours') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
        WHERE account_id = $1 AND hashtext(id::text) % 3 <> 0`,
      [account],
    );
    await database.db.query(
      "UPDATE shipments SET state = state || jsonb_build_object('destination_locode', state->>'port_of_lading_locode') WHERE account_id = $1 AND hashtext(id::text) % 4 = 0",
      [account],
    );
    await database.db.query('ANALYZE shipments');
    const ranges = [
      { start: new Date('2024-03-01T00:00:00Z'), end: new Date('2024-03-08T00:00:00Z') },
      { start: new Date('2024-03-01T05:17:00Z'), end: new Date('2024-03-04T11:00:00Z') },
      { start: new Date('2024-03-02T01:00:00Z'), end: new Date('2024-03-02T23:00:00Z') },
      { start: new Date('2024-02-01T00:00:00Z'), end: new Date('2024-05-01T00:00:00Z') },
      { start: new Date('2023-01-01T00:00:00Z'), end: new Date('2023-01-09T00:00:00Z') },
      // The estimates fall in the week from 2024-02-01 (the account's shipments were created over a week).
      { start: new Date('2024-02-02T00:00:00Z'), end: new Date('2024-02-05T00:00:00Z') },
      { start: new Date('2024-02-03T06:00:00Z'), end: new Date('2024-02-04T18:30:00Z') },
    ];
    const plain = async (table: string, column: string, r: { start: Date; end: Date }, limit: number, offset: number) => {
      const match = `FROM ${table} WHERE account_id = $1 AND ${column} >= $2 AND ${column} <= $3`;
      const { rows } = await database.db.query<{ id: string }>(`SELECT id ${match} ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`, [account, r.start, r.end, limit, offset]);
      const { rows: n } = await database.db.query<{ n: number }>(`SELECT count(*)::int AS n ${match}`, [account, r.start, r.end]);
      return { ids: rows.map((x) => x.id), total: Math.min(n[0].n, offset + 1000) };
    };
    for (const r of ranges) {
      for (const [limit, offset] of [[30, 0], [7, 5], [30, 60]]) {
        const cases: [string, () => Promise<{ rows: { id: string }[]; total: number }>, string, string][] = [
          ['containers updated', () => listContainers(database.db, account, { updated: r }, limit, offset), 'containers', 'updated_at'],
          ['shipments updated', () => listShipments(database.db, account, { updated: r }, limit, offset), 'shipments', 'updated_at'],
          ['shipments pod_eta', () => listShipments(database.db, account, { pod_eta: r }, limit, offset), 'shipments', 'pod_eta_instant'],
        ];
        for (const [name, list, table, column] of cases) {
          const page = await list();
          assert.deepEqual({ ids: page.rows.map((x) => x.id), total: page.total }, await plain(table, column, r, limit, offset), `${name} ${JSON.stringify(r)} ${limit}/${offset}`);
        }
      }
    }
    const day = ranges[0];
    for (const [index, call] of [
      ['containers_account_updated_day', (db: Queryable) => listContainers(db, account, { updated: day }, 30, 0)],
      ['shipments_account_updated_day', (db: Queryable) => listShipments(db, account, { updated: day }, 30, 0)],
      ['shipments_account_pod_eta_day', (db: Queryable) => listShipments(db, account, { pod_eta: ranges[5] }, 30, 0)],
    ] as const) {
      const used = await assertIndexed(index, call);
      assert.ok(used.has(index), `${index} not in ${[...used].join(', ')}`);
    }
    // By any port: each leg off its own index, never the walk of the list's order for the count.
    const { rows: ports } = await database.db.query<{ p: string; n: number }>(
      'SELECT p, count(*)::int AS n FROM shipments, unnest(port_locodes) p WHERE account_id = $1 GROUP BY p ORDER BY n DESC, p',
      [account],
    );
    for (const port of [[ports[0].p], [ports[5].p], [ports[1].p, ports[9].p], ['XXRAR']]) {
      for (const offset of [0, 30]) {
        const page = await listShipments(database.db, account, { port }, 30, offset);
        const { rows: n } = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM shipments WHERE account_id = $1 AND port_locodes && $2::text[]', [account, port]);
        assert.equal(page.total, Math.min(n[0].n, offset + 1000), `${port} ${offset}`);
      }
      const count = (await statementsOf((db) => listShipments(db, account, { port }, 30, 0))).find((st) => st.text.startsWith('SELECT count(*)'));
      assert.ok(count, `${port}: no count`);
      const used = new Set((await plansOf(count)).flatMap(nodes).map((n) => n['Index Name']).filter(Boolean));
      for (const index of ['shipments_account_pol_locode', 'shipments_account_pod_locode', 'shipments_account_destination_order']) assert.ok(used.has(index), `${port}: ${[...used].join(', ')}`);
      await assertIndexed(`shipments by port ${port}`, (db) => listShipments(db, account, { port }, 30, 0));
    }
  });

  test('tracking requests: every filter; filter[status] reads the status index', async () => {
    const account = seeded.accounts[0];
    const used = await assertIndexed('tracking requests pending', (db) => listTrackingRequests(db, account, { status: 'pending' }, 30, 0));
    assert.ok(used.has('tracking_requests_account_status'), [...used].join(', '));
    const cases: TrackingRequestFilters[] = [
      {},
      { q: 'PO-1-44' },
      { q: 'BL1000' },
      { request_number: 'bl100000010' },
      { status: 'failed' },
      { status: 'awaiting_manifest' },
      { scac: 'maeu' },
      { request_type: 'container' },
      { created: lastMonth },
      { updated: lastMonth },
      { status: 'created', scac: 'MAEU' },
    ];
    for (const f of cases) await assertIndexed(`tracking requests ${JSON.stringify(f)}`, (db) => listTrackingRequests(db, account, f, 30, 0));
  });

  test('webhook notifications, webhooks and parties', async () => {
    const account = seeded.accounts[0];
    await assertIndexed('webhook notifications', (db) => listNotifications(db, account, 30, 0));
    await assertIndexed('webhook notifications page 40', (db) => listNotifications(db, account, 30, 1170));
    await assertIndexed('webhooks', (db) => listWebhooks(db, account, 30, 0));
    await assertIndexed('parties', (db) => listParties(db, account, 25, 0));
  });

  test('custom fields: the list filter finds values through the match-key index; the lists of values through theirs', async () => {
    const { definitions, account } = await seedCustomFields(database.db, seeded.accounts);
    const [lane, flag] = definitions;
    for (const keys of [[matchKey(lane, 'lane-7')], [matchKey(flag, 'true')], [matchKey(lane, 'lane-7'), matchKey(flag, 'false')], [matchKey(lane, 'no-such-lane')]]) {
      const used = await assertIndexed(`shipments custom_fields ${keys}`, (db) => listShipments(db, account, { custom_fields: keys }, 30, 0));
      assert.ok(used.has('custom_fields_match_keys'), [...used].join(', '));
    }
    await assertIndexed('containers custom_fields', (db) => listContainers(db, account, { custom_fields: [matchKey(lane, 'lane-7')] }, 30, 0));
    await assertIndexed('custom field values', (db) => listFields(db, account, {}, 25, 0));
    await assertIndexed('custom field values of a definition', (db) => listFields(db, account, { definition_id: lane }, 25, 0));
    const { rows } = await database.db.query<{ id: string }>('SELECT id FROM shipments WHERE account_id = $1 LIMIT 1', [account]);
    await assertIndexed('custom field values of a shipment', (db) => listFields(db, account, { entity_type: 'Shipment', entity_id: rows[0].id }, 25, 0));
    // Definitions are tens per account, never enough for an index to beat reading them; not checked.
  });
});

describe('searches stay as cheap while tracking changes states', () => {
  /** Shared buffers the statements of a search read (EXPLAIN ANALYZE): pending GIN entries are read by every scan. */
  const searchBuffers = async (account: string, query: string) => {
    let buffers = 0;
    for (const s of await statementsOf((db) => search(db, account, query))) {
      const { rows } = await database.db.query<{ 'QUERY PLAN': [{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.text}`,
        s.values,
      );
      buffers += rows[0]['QUERY PLAN'][0].Plan['Shared Hit Blocks'] + rows[0]['QUERY PLAN'][0].Plan['Shared Read Blocks'];
    }
    return buffers;
  };

  test('after every shipment and container state changed, a search reads at most the bounded pending lists more (gin_pending_list_limit, migration 038)', async () => {
    const account = seeded.accounts[0];
    await database.db.query('VACUUM shipments, containers, tracking_requests');
    const before = await searchBuffers(account, seeded.number);
    const client = await database.db.connect();
    try {
      // A state change is never a HOT update (the state is indexed): each new row version puts its numbers in every GIN index's pending list.
      await client.query('BEGIN');
      await client.query(`UPDATE shipments SET state = state || '{"changed": true}'`);
      await client.query(`UPDATE containers SET state = state || '{"changed": true}'`);
      // Rolled back, the rows are as seeded; the index entries the updates made stay (as after a crash), pending until merged.
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const after = await searchBuffers(account, seeded.number);
    // The search scans three GIN indexes of five-character pieces: at most 32 pending pages (256 kB) each.
    assert.ok(after <= before + 3 * 32, `a search read ${before} buffers before the updates, ${after} after`);
  });
});
