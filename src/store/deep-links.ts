// SQL for the find link: the account's best match for a number, in one statement.
import type { DeepLinkOutcome } from '../domain/deep-link.ts';
import type { Queryable } from './db.ts';
import { likeLiteral } from './like.ts';
import { bare } from './search.ts';

export interface DeepLinkMatch {
  outcome: Exclude<DeepLinkOutcome, 'none'>;
  shipment_id: string;
  /** The container whose number or reference number matched; null for a shipment's own number or reference. */
  container_id: string | null;
}

/** The kinds of match, best first. */
const RANKS: DeepLinkMatch['outcome'][] = ['container', 'shipment', 'partial_container', 'partial_shipment'];

/** One of `array`'s elements, compared bare, passes `test`. */
const anyBare = (array: string, test: (element: string) => string) => `EXISTS (SELECT 1 FROM unnest(${array}) r WHERE ${test(bare('r'))})`;

/**
 * The branches of one kind of match (`is` tests a bare number): containers by number, shipments by
 * their numbers and reference numbers, tracking requests that became a shipment by their
 * reference numbers, and containers by reference number (which select the container).
 */
function branches(container: string, shipment: string, is: (number: string) => string, onlyIf: string): string {
  return `SELECT '${container}' AS outcome, c.shipment_id, c.id AS container_id, c.number AS container_number
            FROM containers c WHERE ${onlyIf} c.account_id = $1 AND ${is('c.number')}
          UNION ALL
          SELECT '${shipment}', s.id, NULL, NULL FROM shipments s
           WHERE ${onlyIf} s.account_id = $1
             AND (${is(bare('s.request_number'))} OR ${is(bare('s.bill_of_lading_number'))} OR ${is(bare('s.booking_number'))}
                  OR ${anyBare('s.ref_numbers', is)})
          UNION ALL
          SELECT '${shipment}', t.shipment_id, NULL, NULL FROM tracking_requests t
           WHERE ${onlyIf} t.account_id = $1 AND t.shipment_id IS NOT NULL AND ${anyBare('t.ref_numbers', is)}
          UNION ALL
          SELECT '${shipment}', c.shipment_id, c.id, c.number FROM containers c
           WHERE ${onlyIf} c.account_id = $1 AND ${anyBare('c.ref_numbers', is)}`;
}

/**
 * The account's best match for `number`, already bare (deepLinkNumber): an exact container number,
 * else an exact shipment or reference number, else part of a container number, else part of a
 * shipment or reference number. Container numbers are stored normalised (the diff engine writes
 * them so), so an exact one is read off the (account_id, number) index; the rest scan the
 * account's rows, as the search does, and the partial ones only when nothing matched exactly.
 *
 * Among equal matches the first is the shipments list's first: newest shipment first (created_at,
 * then id, descending); within one shipment its own number or reference before a container's,
 * and containers in number order, as the shipment page lists them. `%` and `_` are literal.
 */
export async function findDeepLinkMatch(db: Queryable, accountId: string, number: string): Promise<DeepLinkMatch | undefined> {
  const { rows } = await db.query<DeepLinkMatch>(
    `WITH exact AS MATERIALIZED (
       ${branches('container', 'shipment', (n) => `${n} = $2`, '')}
     ), partial AS (
       ${branches('partial_container', 'partial_shipment', (n) => `${n} LIKE $3`, 'NOT EXISTS (SELECT 1 FROM exact) AND')}
     )
     SELECT h.outcome, h.shipment_id, h.container_id
       FROM (SELECT * FROM exact UNION ALL SELECT * FROM partial) h JOIN shipments s ON s.id = h.shipment_id
      ORDER BY array_position($4::text[], h.outcome), s.created_at DESC, s.id DESC, h.container_number NULLS FIRST
      LIMIT 1`,
    [accountId, number, `%${likeLiteral(number)}%`, RANKS],
  );
  return rows[0];
}
