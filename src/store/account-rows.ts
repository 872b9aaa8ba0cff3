// The statements every account-owned table answers alike: a page of the account's rows, rows by
// id, and the labels users may edit. The table name is one of a closed set of identifiers, never
// user input, so it is written into the statement; every value travels as a parameter.
import { Conditions } from './conditions.ts';
import { plannedPerRun, type Queryable } from './db.ts';
import { isUuid } from './uuid.ts';

type AccountTable = 'shipments' | 'containers' | 'tracking_requests' | 'transport_events' | 'estimated_events' | 'parties' | 'webhooks';
type LabelledTable = 'shipments' | 'tracking_requests';

/** The labels a user edits on shipments and tracking requests; one left out stays as it is. */
export interface LabelEdit {
  ref_numbers?: string[];
  tags?: string[];
}

/** The account's id in the conditions `pageOfAccount` hands its filter: always the first value. */
export const ACCOUNT = '$1';

/**
 * The account's rows that `filter`'s conditions keep (all without one), newest first unless
 * `orderBy` (an ORDER BY expression of the caller's closed set, never user input) says otherwise,
 * with how many there are in all. The conditions name the table's columns unqualified or as `${table}.x`.
 */
export async function pageOfAccount<Row>(
  db: Queryable,
  table: AccountTable,
  accountId: string,
  limit: number,
  offset: number,
  filter?: (where: Conditions) => void,
  orderBy = 'created_at DESC',
): Promise<{ rows: Row[]; total: number }> {
  const where = new Conditions().when(accountId, (p) => `${table}.account_id = ${p}`);
  filter?.(where);
  const params = [...where.params];
  const matching = `SELECT * FROM ${table} WHERE ${where.sql}`;
  // Unfiltered, the newest rows are read off the (account_id, created_at) index. Filtered, the
  // planner would read that index too and skip what does not match, expecting matches to come
  // every few rows: a filter that matches little (a port no shipment of the account has called
  // at) then reads the whole account for one page. OFFSET 0 keeps the ORDER BY and LIMIT out of
  // the matching query's plan, so the matches are found by the filters' own indexes and only
  // they are sorted: a page costs what counting them costs, whatever the filter.
  const filtered = where.size > 1;
  const order = `ORDER BY ${orderBy}, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
  const pageText = filtered ? `SELECT * FROM (${matching} OFFSET 0) ${table} ${order}` : `${matching} ${order}`;
  const countText = `SELECT count(*) AS n FROM ${table} WHERE ${where.sql}`;
  // How much a filter's value matches decides the plan, so filtered statements are planned per run.
  const [page, count] = await Promise.all(
    filtered
      ? [db.query<Row & object>(plannedPerRun(pageText, [...params, limit, offset])), db.query<{ n: number }>(plannedPerRun(countText, params))]
      : [db.query<Row & object>(pageText, [...params, limit, offset]), db.query<{ n: number }>(countText, params)],
  );
  return { rows: page.rows, total: count.rows[0].n };
}

/** The account's rows with these ids; ids that are not uuids simply find nothing. */
export async function findOfAccount<Row>(db: Queryable, table: AccountTable, accountId: string, ids: string[]): Promise<Row[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<Row & object>(`SELECT * FROM ${table} WHERE account_id = $1 AND id = ANY($2::uuid[])`, [accountId, valid]);
  return rows;
}

/** Replaces the labels given (a label left out stays as it is); undefined when the account has no such row. */
export async function updateLabelsOfAccount<Row>(
  db: Queryable,
  table: LabelledTable,
  accountId: string,
  id: string,
  labels: LabelEdit,
  at: Date,
): Promise<Row | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<Row & object>(
    `UPDATE ${table} SET ref_numbers = coalesce($3, ref_numbers), tags = coalesce($4, tags), updated_at = $5
      WHERE account_id = $1 AND id = $2 RETURNING *`,
    [accountId, id, labels.ref_numbers ?? null, labels.tags ?? null, at],
  );
  return rows[0];
}
