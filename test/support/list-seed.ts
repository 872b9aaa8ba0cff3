// Many accounts' worth of lists in a few statements (INSERT … SELECT generate_series): shipments,
// their containers, tracking requests, webhook notifications and their logs, parties and webhooks, spread as
// real ones are (a few ports and lines take most shipments, most containers are at sea, a few
// shipments stopped and a few containers held). Plain SQL on tables every version of the schema
// has, so bench:lists seeds a baseline checkout's database with it too. Ends with VACUUM ANALYZE,
// as autovacuum leaves a table in service: statistics gathered, visibility map set.
import type pg from 'pg';

export interface SeededLists {
  /** The accounts, each with as many rows. */
  accounts: string[];
  /** A container number of the first account, a third of the way down its list. */
  number: string;
  /** The port of discharge of that container's shipment. */
  port: string;
}

const OWNERS = ['MSCU', 'MAEU', 'CMAU', 'HLXU', 'OOLU', 'TGHU', 'TCNU', 'SEGU', 'CAIU', 'FCIU'];
const STATUSES = ['on_ship', 'on_ship', 'on_ship', 'available', 'not_available', 'picked_up', 'empty_returned', 'grounded', 'new'];

export async function seedLists(db: Pick<pg.Pool, 'query'>, { accounts, containersPerAccount }: { accounts: number; containersPerAccount: number }): Promise<SeededLists> {
  const shipments = Math.floor(containersPerAccount / 2);
  const inserted = await db.query<{ id: string }>("INSERT INTO accounts (name) SELECT 'lists ' || a FROM generate_series(1, $1::int) a RETURNING id", [accounts]);
  const ids = inserted.rows.map((a) => a.id);
  await db.query(
    `WITH ports AS (SELECT array_agg(locode ORDER BY locode) AS p FROM (SELECT locode FROM locations WHERE is_seaport ORDER BY locode LIMIT 200) x),
          lines AS (SELECT array_agg(scac ORDER BY scac) AS l FROM (SELECT scac FROM shipping_lines ORDER BY scac LIMIT 20) y)
     INSERT INTO shipments (account_id, scac, request_type, request_number, bill_of_lading_number, ref_numbers, state, line_tracking_stopped_at, created_at, updated_at)
     SELECT ($1::uuid[])[a], lines.l[1 + floor(20 * random() ^ 2)::int], 'bill_of_lading', 'BL' || a || lpad(g::text, 8, '0'), lines.l[1] || a || lpad(g::text, 8, '0'),
            ARRAY['PO-' || a || '-' || g], jsonb_build_object(
              'port_of_lading_locode', ports.p[1 + floor(200 * random() ^ 3)::int], 'port_of_discharge_locode', ports.p[1 + floor(200 * random() ^ 3)::int],
              'port_of_lading_name', 'Lading ' || g % 97, 'port_of_discharge_name', 'Discharge ' || g % 89),
            CASE WHEN g % 50 = 0 THEN timestamptz '2026-01-01' END,
            timestamptz '2024-01-01' + g * interval '10 minutes', timestamptz '2024-01-01' + ((g * 7919) % 500000) * interval '1 minute'
       FROM generate_series(1, $2::int) g, generate_series(1, cardinality($1::uuid[])) a, ports, lines`,
    [ids, shipments],
  );
  await db.query(
    `INSERT INTO containers (account_id, shipment_id, number, ref_numbers, state, created_at, updated_at)
     SELECT s.account_id, s.id, ($1::text[])[1 + (k * 7 + hashtext(s.request_number) & 1023) % 10] || lpad((abs(hashtext(s.request_number || k)) % 10000000)::text, 7, '0'),
            '{}', jsonb_build_object('current_status', ($2::text[])[1 + (abs(hashtext(s.request_number)) + k) % 9])
                  || CASE WHEN hashtext(s.request_number || k) % 100 = 0 THEN '{"holds_at_pod_terminal": [{"name": "customs", "status": "hold"}]}'::jsonb ELSE '{}' END,
            s.created_at, s.updated_at
       FROM shipments s, generate_series(1, 2) k
      WHERE s.account_id = ANY($3::uuid[])`,
    [OWNERS, STATUSES, ids],
  );
  await db.query(
    `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, status, ref_numbers, shipment_id, created_at, updated_at)
     SELECT account_id, request_number, 'bill_of_lading', scac,
            CASE WHEN g % 20 = 0 THEN 'pending' WHEN g % 20 = 1 THEN 'failed' ELSE 'created' END, ref_numbers, id, created_at, created_at
       FROM (SELECT s.*, row_number() OVER () AS g FROM shipments s WHERE s.account_id = ANY($1::uuid[])) x`,
    [ids],
  );
  await db.query(
    `WITH w AS (INSERT INTO webhooks (account_id, url, events, secret, created_at, updated_at)
                SELECT id, 'https://example.com/hook' || k, '{container.transport.vessel_arrived}', 'secret', now(), now()
                  FROM unnest($1::uuid[]) id, generate_series(1, 100) k RETURNING id, account_id, url),
          d AS (INSERT INTO domain_events (account_id, name, reference_type, reference_id, created_at)
                SELECT c.account_id, 'container.transport.vessel_arrived', 'transport_event', c.id, c.created_at
                  FROM containers c WHERE c.account_id = ANY($1::uuid[]) RETURNING id, account_id, created_at)
     INSERT INTO webhook_notifications (account_id, webhook_id, domain_event_id, event, delivery_status, created_at, updated_at)
     SELECT d.account_id, w.id, d.id, 'container.transport.vessel_arrived', 'succeeded', d.created_at, d.created_at
       FROM d JOIN w USING (account_id) WHERE w.url = 'https://example.com/hook1'`,
    [ids],
  );
  await db.query(
    `INSERT INTO webhook_notification_logs (account_id, webhook_notification_id, attempt, url, succeeded, status_code, duration_ms, created_at)
     SELECT account_id, id, 1, 'https://example.com/hook1', true, 200, 20, created_at FROM webhook_notifications WHERE account_id = ANY($1::uuid[])`,
    [ids],
  );
  await db.query(
    `INSERT INTO parties (account_id, company_name, created_at, updated_at)
     SELECT id, 'Party ' || k, now(), now() FROM unnest($1::uuid[]) id, generate_series(1, 100) k`,
    [ids],
  );
  await db.query('VACUUM ANALYZE accounts, shipments, containers, tracking_requests, webhooks, domain_events, webhook_notifications, webhook_notification_logs, parties');
  const { rows } = await db.query<{ number: string; port: string }>(
    `SELECT c.number, s.state->>'port_of_discharge_locode' AS port FROM containers c JOIN shipments s ON s.id = c.shipment_id
      WHERE c.account_id = $1 ORDER BY c.created_at, c.number LIMIT 1 OFFSET $2`,
    [ids[0], Math.floor(containersPerAccount / 3)],
  );
  return { accounts: ids, number: rows[0].number, port: rows[0].port };
}
