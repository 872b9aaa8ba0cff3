// Finds an account's shipments, containers and tracking requests by number or reference number.
import { plannedPerRun, type Queryable } from './db.ts';
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
 */
export const bare = (sql: string) => `bare_number(${sql})`;

/** Everything that names a shipment of its own, as an array: its tracked, B/L and booking numbers and its reference numbers. */
export const shipmentNumbers = (s: string) => `ARRAY[${s}.request_number, ${s}.bill_of_lading_number, ${s}.booking_number] || ${s}.ref_numbers`;
/** A container's number and reference numbers, as an array. */
export const containerNumbers = (c: string) => `ARRAY[${c}.number] || ${c}.ref_numbers`;
/** A tracking request's number and reference numbers, as an array. */
export const trackingRequestNumbers = (t: string) => `ARRAY[${t}.request_number] || ${t}.ref_numbers`;

/**
 * One of `numbers` (one of the arrays above), bare, has `text` in it: `text` is a search string
 * made literal for LIKE (likeLiteral) and compared bare. Substrings are no B-tree's business, so
 * migration 015 indexes bare_numbers_text of each of the arrays above with trigrams: only rows
 * holding the text's three-letter pieces are read. Run the statement planned for its values
 * (plannedPerRun): the pattern is then a constant the planner weighs, which tells a whole
 * container number (a row or two) from a line's prefix (a quarter of the rows, better read in the
 * list's order until a page is full).
 */
export const holdsPart = (numbers: string, text: string) => `bare_numbers_text(${numbers}) LIKE '%' || ${bare(text)} || '%'`;

/**
 * `numbers` (one of the arrays above) holds `number` exactly, up to case: the GIN index of
 * migration 013 on bare_numbers narrows the rows, `exactly` (the comparison the caller means,
 * which implies the bare one) decides.
 */
export const holdsNumber = (numbers: string, number: string, exactly: string) => `bare_numbers(${numbers}) @> ARRAY[${bare(number)}] AND ${exactly}`;

/**
 * The serial of a container number (owner code, serial, perhaps its check digit: "MSCU123456",
 * "MSCU 123456-7") given as a search: among containers, an owner code is shared by all of a
 * line's boxes, so its three-letter pieces match a large share of the rows and are the costliest
 * part of the trigram index to read (at a million containers, half the search's time), while the
 * digits' pieces are as rare as any. The containers are then looked up by the serial and checked
 * against the whole number (see search). Only spaces and dashes are dropped here, which the bare
 * rule in SQL drops too, so the serial is a part of the bare number there; anything else goes the
 * usual way.
 */
export function containerSerialOf(query: string): string | undefined {
  return /^[A-Za-z]{4}(\d{6,7})$/.exec(query.replace(/[ -]/g, ''))?.[1];
}

/**
 * Substring matches, ranked shipments → containers → tracking requests, then newest first; a
 * tracking request whose number already names a shipment is left out. Each kind is cut to the
 * limit on its own, so none reads more than a page of its matches (in its created_at order, or
 * through the trigram index when the matches are few).
 */
export async function search(db: Queryable, accountId: string, query: string, limit = 25): Promise<SearchHit[]> {
  // Only dashes and spaces would match everything.
  if (query.replace(/[\s-]/g, '') === '') return [];
  const newest = (table: string) => `ORDER BY ${table}.created_at DESC, ${table}.id LIMIT $3`;
  // A container number's serial ($4) finds the containers through the index; the whole text
  // then decides (strpos, which no index serves, so the planner does not read the owner code's
  // pieces after all).
  const serial = containerSerialOf(query);
  const containerMatch = serial
    ? `${holdsPart(containerNumbers('c'), '$4')} AND strpos(bare_numbers_text(${containerNumbers('c')}), ${bare('$2')}) > 0`
    : holdsPart(containerNumbers('c'), '$2');
  const { rows } = await db.query<SearchHit>(
    plannedPerRun(
      `SELECT * FROM (
       (SELECT 'shipment' AS entity_type, s.id, coalesce(s.bill_of_lading_number, s.request_number) AS number, NULL::uuid AS shipment_id,
              s.scac, s.ref_numbers, NULL AS status, NULL AS failed_reason, s.line_tracking_stopped_at IS NOT NULL AS tracking_stopped,
              s.line_tracking_stopped_reason AS tracking_stopped_reason,
              (SELECT count(*)::int FROM containers c WHERE c.shipment_id = s.id) AS containers_count,
              s.state->>'port_of_lading_name' AS port_of_lading_name, s.state->>'port_of_discharge_name' AS port_of_discharge_name,
              s.created_at, s.updated_at, 1 AS rank
         FROM shipments s
        WHERE s.account_id = $1 AND ${holdsPart(shipmentNumbers('s'), '$2')}
        ${newest('s')})
       UNION ALL
       (SELECT 'cargo', c.id, c.number, c.shipment_id, s.scac, c.ref_numbers, c.state->>'current_status', NULL, NULL, NULL, NULL,
              s.state->>'port_of_lading_name', s.state->>'port_of_discharge_name', c.created_at, c.updated_at, 2
         FROM containers c JOIN shipments s ON s.id = c.shipment_id
        WHERE c.account_id = $1 AND ${containerMatch}
        ${newest('c')})
       UNION ALL
       (SELECT 'tracking_request', t.id, t.request_number, t.shipment_id, t.scac, t.ref_numbers, t.status, t.failed_reason, NULL, NULL, NULL,
              NULL, NULL, t.created_at, t.updated_at, 3
         FROM tracking_requests t
        WHERE t.account_id = $1 AND ${holdsPart(trackingRequestNumbers('t'), '$2')}
          AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.account_id = $1 AND upper(coalesce(s.bill_of_lading_number, s.request_number)) = upper(t.request_number))
        ${newest('t')})
     ) hits ORDER BY rank, created_at DESC, id LIMIT $3`,
      [accountId, likeLiteral(query), limit, ...(serial ? [serial] : [])],
    ),
  );
  return rows.map(({ rank: _rank, ...hit }: SearchHit & { rank?: number }) => hit);
}
