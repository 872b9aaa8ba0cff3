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

/**
 * Everything that names a shipment of its own: the number it was tracked by, its B/L and booking
 * numbers, its reference numbers. Migration 013 indexes bare_numbers of exactly this expression.
 */
const shipmentNumbers = (s: string) => `ARRAY[${s}.request_number, ${s}.bill_of_lading_number, ${s}.booking_number] || ${s}.ref_numbers`;

/** `numbers` (an array) holds the bare number $2: the GIN indexes of migration 013 serve it. */
const holds = (numbers: string) => `bare_numbers(${numbers}) @> ARRAY[$2::text]`;

/** One of `numbers` (an array), bare, has the pattern $3 in it. */
const holdsPart = (numbers: string) => `EXISTS (SELECT 1 FROM unnest(${numbers}) n WHERE ${bare('n')} LIKE $3)`;

/** A stage runs only when the stages before it found nothing. */
const unless = (stages: string[]) => stages.map((stage) => `NOT EXISTS (SELECT 1 FROM ${stage}) AND `).join('');

/**
 * The branches of a stage that match shipments by number: the shipment's own numbers, the
 * reference numbers of the tracking requests it came from, and its containers' reference numbers
 * (which select the container).
 */
function shipmentBranches(outcome: string, match: (numbers: string) => string, only: string): string {
  return `SELECT '${outcome}', s.id, s.created_at, NULL::uuid, NULL::text FROM shipments s WHERE ${only} s.account_id = $1 AND ${match(shipmentNumbers('s'))}
          UNION ALL
          SELECT '${outcome}', s.id, s.created_at, NULL, NULL FROM tracking_requests t JOIN shipments s ON s.id = t.shipment_id
           WHERE ${only} t.account_id = $1 AND t.shipment_id IS NOT NULL AND ${match('t.ref_numbers')}
          UNION ALL
          SELECT '${outcome}', s.id, s.created_at, c.id, c.number FROM containers c JOIN shipments s ON s.id = c.shipment_id
           WHERE ${only} c.account_id = $1 AND ${match('c.ref_numbers')}`;
}

/** Containers by number: `match` tests c.number. */
const containerBranch = (outcome: string, match: string, only: string) =>
  `SELECT '${outcome}' AS outcome, s.id AS shipment_id, s.created_at, c.id AS container_id, c.number AS container_number
     FROM containers c JOIN shipments s ON s.id = c.shipment_id WHERE ${only} c.account_id = $1 AND ${match}`;

/**
 * The account's best match for `number`, already bare (deepLinkNumber), in four stages, each run
 * only when the ones before found nothing: an exact container number, an exact shipment or
 * reference number, part of a container number, part of a shipment or reference number.
 * Container numbers are stored normalised (the diff engine writes them so), so an exact one is
 * read off the (account_id, number) index and part of one is compared as stored; exact shipment
 * and reference numbers are found through migration 013's indexes. Parts scan the account's rows,
 * as the search does. `%` and `_` in the number are literal.
 *
 * Among equal matches the first is the shipments list's first: the newest shipment (created_at,
 * then id, descending); within one shipment its own number or reference before a container's, and
 * containers in number order, as the shipment page lists them.
 */
export async function findDeepLinkMatch(db: Queryable, accountId: string, number: string): Promise<DeepLinkMatch | undefined> {
  const { rows } = await db.query<DeepLinkMatch>(
    `WITH container AS MATERIALIZED (
       ${containerBranch('container', 'c.number = $2', '')}
     ), shipment AS MATERIALIZED (
       ${shipmentBranches('shipment', holds, unless(['container']))}
     ), partial_container AS MATERIALIZED (
       ${containerBranch('partial_container', 'c.number LIKE $3', unless(['container', 'shipment']))}
     ), partial_shipment AS (
       ${shipmentBranches('partial_shipment', holdsPart, unless(['container', 'shipment', 'partial_container']))}
     )
     SELECT outcome, shipment_id, container_id
       FROM (SELECT * FROM container UNION ALL SELECT * FROM shipment UNION ALL SELECT * FROM partial_container UNION ALL SELECT * FROM partial_shipment) hits
      ORDER BY created_at DESC, shipment_id DESC, container_number NULLS FIRST
      LIMIT 1`,
    [accountId, number, `%${likeLiteral(number)}%`],
  );
  return rows[0];
}
