// Finds an account's shipments, containers and tracking requests by number or reference number.
import type { Queryable } from './db.ts';
import { likeLiteral } from './like.ts';

export interface SearchHit {
  entity_type: 'shipment' | 'cargo' | 'tracking_request';
  id: string;
  number: string;
  shipment_id: string | null;
  scac: string;
  ref_numbers: string[];
  status: string | null;
  failed_reason: string | null;
  tracking_stopped: boolean | null;
  tracking_stopped_reason: string | null;
  containers_count: number | null;
  port_of_lading_name: string | null;
  port_of_discharge_name: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Numbers are written with or without dashes and spaces ("TEST-RAIL", "MSCU 123456-7"), and stored
 * as the user or carrier wrote them, so both sides are compared without case, spaces and dashes
 * (bare_number, migration 013; the find link compares by it too).
 * The matches are substrings, which no B-tree index serves; every branch is bounded by its
 * account's rows instead.
 */
export const bare = (sql: string) => `bare_number(${sql})`;

/**
 * Substring matches, ranked shipments → containers → tracking requests, then newest first; a
 * tracking request whose number already names a shipment is left out.
 */
export async function search(db: Queryable, accountId: string, query: string, limit = 25): Promise<SearchHit[]> {
  // Only dashes and spaces would match everything.
  if (query.replace(/[\s-]/g, '') === '') return [];
  const { rows } = await db.query<SearchHit>(
    `WITH q AS (SELECT '%' || ${bare('$2')} || '%' AS p)
     SELECT * FROM (
       SELECT 'shipment' AS entity_type, s.id, coalesce(s.bill_of_lading_number, s.request_number) AS number, NULL::uuid AS shipment_id,
              s.scac, s.ref_numbers, NULL AS status, NULL AS failed_reason, s.line_tracking_stopped_at IS NOT NULL AS tracking_stopped,
              s.line_tracking_stopped_reason AS tracking_stopped_reason,
              (SELECT count(*)::int FROM containers c WHERE c.shipment_id = s.id) AS containers_count,
              s.state->>'port_of_lading_name' AS port_of_lading_name, s.state->>'port_of_discharge_name' AS port_of_discharge_name,
              s.created_at, s.updated_at, 1 AS rank
         FROM shipments s, q
        WHERE s.account_id = $1 AND (${bare('s.request_number')} LIKE q.p OR ${bare('s.bill_of_lading_number')} LIKE q.p OR ${bare('s.booking_number')} LIKE q.p
              OR EXISTS (SELECT 1 FROM unnest(s.ref_numbers) r WHERE ${bare('r')} LIKE q.p))
       UNION ALL
       SELECT 'cargo', c.id, c.number, c.shipment_id, s.scac, c.ref_numbers, c.state->>'current_status', NULL, NULL, NULL, NULL,
              s.state->>'port_of_lading_name', s.state->>'port_of_discharge_name', c.created_at, c.updated_at, 2
         FROM containers c JOIN shipments s ON s.id = c.shipment_id, q
        WHERE c.account_id = $1 AND (${bare('c.number')} LIKE q.p OR EXISTS (SELECT 1 FROM unnest(c.ref_numbers) r WHERE ${bare('r')} LIKE q.p))
       UNION ALL
       SELECT 'tracking_request', t.id, t.request_number, t.shipment_id, t.scac, t.ref_numbers, t.status, t.failed_reason, NULL, NULL, NULL,
              NULL, NULL, t.created_at, t.updated_at, 3
         FROM tracking_requests t, q
        WHERE t.account_id = $1 AND (${bare('t.request_number')} LIKE q.p OR EXISTS (SELECT 1 FROM unnest(t.ref_numbers) r WHERE ${bare('r')} LIKE q.p))
          AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.account_id = $1 AND upper(coalesce(s.bill_of_lading_number, s.request_number)) = upper(t.request_number))
     ) hits ORDER BY rank, created_at DESC, id LIMIT $3`,
    [accountId, likeLiteral(query), limit],
  );
  return rows.map(({ rank: _rank, ...hit }: SearchHit & { rank?: number }) => hit);
}
