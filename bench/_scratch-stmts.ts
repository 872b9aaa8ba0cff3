import { benchDatabase } from './database.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool } from '../src/store/db.ts';
const database = await benchDatabase();
const account = await insertAccount(database.db, 'bench');
const seed = await database.db.query<{ shipment_id: string; container_id: string }>(
  `WITH t AS (SELECT id FROM terminals WHERE firms_code IS NOT NULL ORDER BY id LIMIT 1),
        s AS (INSERT INTO shipments (account_id, scac, request_type, request_number, ref_numbers, state, created_at, updated_at)
              SELECT $1, 'MAEU', 'bill_of_lading', 'BENCHINC1', '{}', jsonb_build_object('port_of_discharge_locode', 'USLAX', 'pod_terminal_id', t.id), now(), now() FROM t RETURNING id),
        c AS (INSERT INTO containers (account_id, shipment_id, number, state, created_at, updated_at)
              SELECT $1, s.id, 'BNCU000000' || i, jsonb_build_object('pod_terminal_id', t.id), now(), now() FROM s, t, generate_series(1, 3) i RETURNING id, shipment_id, number),
        e AS (INSERT INTO transport_events (account_id, shipment_id, container_id, event, key, timestamp, location_locode, data_source, created_at)
              SELECT $1, c.shipment_id, c.id, 'container.transport.vessel_departed', 'k' || i, now() - i * interval '1 day', 'CNSHA', 'shipping_line', now() FROM c, generate_series(1, 12) i)
   SELECT c.shipment_id, c.id AS container_id FROM c ORDER BY c.number LIMIT 1`, [account.id]);
const { container_id: cid } = seed.rows[0];
const db = createPool(database.url, 1);
const ids = (await db.query('SELECT id FROM transport_events WHERE container_id = $1 ORDER BY timestamp NULLS LAST, created_at, id', [cid])).rows.map((r) => r.id);
const cases: [string, string, unknown[]][] = [
  ['events by ids', 'SELECT * FROM transport_events WHERE account_id = $1 AND id = ANY($2::uuid[])', [account.id, ids]],
  ['events by ids literal', 'SELECT * FROM transport_events WHERE account_id = $1 AND id = ANY($2::uuid[]) ', [account.id, `{${ids.join(',')}}`]],
  ['events by container', 'SELECT * FROM transport_events WHERE container_id = $1 ORDER BY timestamp NULLS LAST, created_at, id', [cid]],
  ['events by container+acct', 'SELECT * FROM transport_events WHERE account_id = $1 AND container_id = ANY($2::uuid[]) ORDER BY timestamp NULLS LAST, created_at, id', [account.id, [cid]]],
  ['container + ids', `SELECT c.*, coalesce((SELECT json_agg(e.id ORDER BY timestamp NULLS LAST, created_at, id) FROM transport_events e WHERE e.container_id = c.id), '[]') AS transport_event_ids FROM containers c WHERE c.account_id = $1 AND c.id = ANY($2::uuid[])`, [account.id, [cid]]],
  ['container', 'SELECT * FROM containers WHERE account_id = $1 AND id = $2', [account.id, cid]],
  ['select 1', 'SELECT $1::int', [1]],
];
for (let round = 0; round < 3; round++) {
  for (const [name, text, values] of cases) {
    const n = 1500;
    const t = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) await db.query(text, values);
    const c = process.cpuUsage(cpu);
    console.log(name.padEnd(28), (Number(process.hrtime.bigint() - t) / 1e3 / n).toFixed(0).padStart(5), 'µs wall', ((c.user + c.system) / n).toFixed(0).padStart(5), 'µs node cpu');
  }
}
await db.end();
await database.drop();
