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

/** A search string as the bare rule leaves it, but for case: what is left to match. */
const withoutDashesAndSpaces = (query: string) => query.replace(/[\s-]/g, '');

/**
 * Whether a search string is looked up by its five-character pieces (migration 036) rather than
 * its three-letter ones: when it has five characters or more once bare (dashes and spaces
 * dropped, as the bare rule in SQL drops them; should the two rules ever disagree on a string,
 * search_pieces gives no piece and the search is right, only slower). A three-letter piece of
 * digits is in one number of a few hundred, so its list in the trigram index grows with the data
 * and the search with it; a five-character piece is in one of tens of thousands.
 */
export const byPieces = (query: string): boolean => withoutDashesAndSpaces(query).length >= 5;

/**
 * `numbers` (one of the arrays above) holds `text` (a search string as typed, not made literal for
 * LIKE): the GIN index of migration 036 finds the rows holding its pieces, strpos (which no index
 * serves, so the planner looks no further) keeps those holding the whole string.
 */
export const holdsPieces = (numbers: string, text: string) =>
  `number_pieces(${numbers}) @> search_pieces(${text}) AND strpos(bare_numbers_text(${numbers}), ${bare(text)}) > 0`;

/**
 * How a search string is matched (the search here, and `q` on the lists): the value its
 * placeholder takes and the condition on a record's numbers, by five-character pieces or, for a
 * shorter string, by three-letter ones. Undefined for no string, or one of dashes and spaces
 * only, which would match everything: no search at all.
 */
export const searchText = (query: string | undefined): { value: string; holds: (numbers: string, placeholder: string) => string } | undefined => {
  if (!query || withoutDashesAndSpaces(query) === '') return undefined;
  return byPieces(query) ? { value: query, holds: holdsPieces } : { value: likeLiteral(query), holds: holdsPart };
};

/**
 * Substring matches, ranked shipments → containers → tracking requests, then newest first; a
 * tracking request whose number already names a shipment is left out. Each kind is cut to the
 * limit on its own, so none reads more than a page of its matches (in its created_at order, or
 * through an index of pieces when the matches are few: five-character pieces for a string that
 * has five characters, else three-letter ones).
 */
export async function search(db: Queryable, accountId: string, query: string, limit = 25): Promise<SearchHit[]> {
  const match = searchText(query);
  if (!match) return [];
  const newest = (table: string) => `ORDER BY ${table}.created_at DESC, ${table}.id LIMIT $3`;
  const holds = (numbers: string) => match.holds(numbers, '$2');
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
        WHERE s.account_id = $1 AND ${holds(shipmentNumbers('s'))}
        ${newest('s')})
       UNION ALL
       (SELECT 'cargo', c.id, c.number, c.shipment_id, s.scac, c.ref_numbers, c.state->>'current_status', NULL, NULL, NULL, NULL,
              s.state->>'port_of_lading_name', s.state->>'port_of_discharge_name', c.created_at, c.updated_at, 2
         FROM containers c JOIN shipments s ON s.id = c.shipment_id
        WHERE c.account_id = $1 AND ${holds(containerNumbers('c'))}
        ${newest('c')})
       UNION ALL
       (SELECT 'tracking_request', t.id, t.request_number, t.shipment_id, t.scac, t.ref_numbers, t.status, t.failed_reason, NULL, NULL, NULL,
              NULL, NULL, t.created_at, t.updated_at, 3
         FROM tracking_requests t
        WHERE t.account_id = $1 AND ${holds(trackingRequestNumbers('t'))}
          AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.account_id = $1 AND upper(coalesce(s.bill_of_lading_number, s.request_number)) = upper(t.request_number))
        ${newest('t')})
     ) hits ORDER BY rank, created_at DESC, id LIMIT $3`,
      [accountId, match.value, limit],
    ),
  );
  return rows.map(({ rank: _rank, ...hit }: SearchHit & { rank?: number }) => hit);
}
