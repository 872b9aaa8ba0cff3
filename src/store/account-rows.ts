// The statements every account-owned table answers alike: a page of the account's rows, rows by
// id, and the labels users may edit. The table name is one of a closed set of identifiers, never
// user input, so it is written into the statement; every value travels as a parameter.
import { Conditions } from './conditions.ts';
import { plannedPerRun, type Queryable } from './db.ts';
import { lastCheckedColumn } from './shipment-refreshes.ts';
import { byIds, isUuid } from './uuid.ts';

type AccountTable = 'shipments' | 'containers' | 'tracking_requests' | 'transport_events' | 'estimated_events' | 'parties' | 'webhooks' | 'documents' | 'email_submissions' | 'custom_field_definitions' | 'custom_field_options' | 'custom_fields';
type LabelledTable = 'shipments' | 'tracking_requests';

/** The labels a user edits on shipments and tracking requests; one left out stays as it is. */
export interface LabelEdit {
  ref_numbers?: string[];
  tags?: string[];
}

/**
 * What a row of the table reads as: its columns, and for a shipment the time of its last check
 * recorded on its schedule row alone (migration 039), which the API's freshness attributes count.
 */
const rowColumns = (table: AccountTable) => (table === 'shipments' ? `shipments.*, ${lastCheckedColumn('shipments')}` : '*');

/** The account's id in the conditions `pageOfAccount` hands its filter: always the first value. */
export const ACCOUNT = '$1';

/**
 * A page of rows and how many rows there are in all, counted up to a bound: `total` is exact
 * unless `totalIsLowerBound`, when there are more than `total` (see countBounded).
 */
export interface CountedPage<Row> {
  rows: Row[];
  total: number;
  totalIsLowerBound?: boolean;
}

/**
 * How many rows past the start of a page a list's total counts. Counting every row of a large
 * account costs a read of its whole index on every page (20 ms for 250,000 rows), and a filtered
 * count a join over all its matches (100 ms for 10,000 shipments with a container status on a
 * loaded machine); counting up to this bound costs at most this many matches, a few milliseconds,
 * about what the page itself costs once its offset is that deep. README "Lists at scale".
 */
export const COUNT_AHEAD = 1_000;

/**
 * The total of a page starting at `offset`, from a query of one account table (`from`,
 * everything after SELECT's list) and its values: exact when the query matches at most `offset + COUNT_AHEAD` rows, else
 * that many and flagged as a lower bound. `plan` runs the count as the page is run (named or
 * planned per run).
 */
export async function countBounded(
  db: Queryable,
  from: CountPath['from'],
  params: unknown[],
  offset: number,
  plan: (text: string, values: unknown[]) => Promise<{ rows: { n: number }[] }> = (text, values) => db.query<{ n: number }>(text, values),
  order = 'created_at DESC',
): Promise<{ total: number; totalIsLowerBound: boolean }> {
  const bound = offset + COUNT_AHEAD;
  // One row past the bound tells "exactly the bound" from "more". Read in an order an index
  // holds (by default the lists' own: every account table has an (account_id, created_at DESC…)
  // index): unordered, a LIMIT lets the planner bet on a sequential scan of the whole table
  // meeting enough matches early on.
  const limit = `$${params.length + 1}`;
  const source = typeof from === 'string' ? from : from(limit);
  const { rows } = await plan(`SELECT count(*) AS n FROM (SELECT 1 ${source} ORDER BY ${order} LIMIT ${limit}) counted`, [...params, bound + 1]);
  const n = rows[0].n;
  return n > bound ? { total: bound, totalIsLowerBound: true } : { total: n, totalIsLowerBound: false };
}

/**
 * Another way to count a list's matches than walking the listed table in its order: `from` (a
 * FROM clause with its WHERE, using the conditions' values) yields one row per match, walked in
 * `order`. A list whose filters are all on another table (containers by their shipment's port)
 * counts faster walking that table's index in order and joining, than probing it for every row.
 * Given as a function, `from` is handed the placeholder of the count's limit (the bound and one),
 * so that parts of it can stop there too.
 */
export interface CountPath {
  from: string | ((limit: string) => string);
  order: string;
}

/**
 * What a filter may tell `pageOfAccount` beside its conditions: another path for the count
 * (CountPath), and another statement for the page's ids, handed the placeholders of the page's
 * limit and offset, which yields the ids of the same rows, in the list's order, as the
 * conditions would (a range's page read a day at a time: store/tracking-lists.ts).
 */
export interface ListPaths {
  count?: CountPath;
  ids?: (limit: string, offset: string) => string;
}

/**
 * The account's rows that `filter`'s conditions keep (all without one), newest first unless
 * `orderBy` (an ORDER BY expression of the caller's closed set, never user input) says otherwise,
 * with how many there are (countBounded). The conditions name the table's columns unqualified or
 * as `${table}.x`, and write only the filters given (conditions.ts), so the planner sees each
 * filter's own index; `filter` may return other paths for the count and the page's ids (ListPaths).
 */
export async function pageOfAccount<Row>(
  db: Queryable,
  table: AccountTable,
  accountId: string,
  limit: number,
  offset: number,
  // (A filter written as one chain of conditions returns them: that is no ListPaths.)
  filter?: (where: Conditions) => ListPaths | Conditions | void,
  orderBy = 'created_at DESC',
): Promise<CountedPage<Row>> {
  const where = new Conditions().when(accountId, (p) => `${table}.account_id = ${p}`);
  const path = filter?.(where);
  const paths = path instanceof Conditions ? undefined : path;
  const params = [...where.params];
  const from = `FROM ${table} WHERE ${where.sql}`;
  const order = `ORDER BY ${orderBy}, id DESC`;
  const page = `${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
  // How much a filter's value matches decides the plan: a value on a few rows is read through
  // the filter's index and sorted, one on many by walking the list's order until the page is
  // full, and a filter on one value with an index ordered like the list (migration 015) is read
  // off that index in order whatever it matches. So filtered statements are planned per run,
  // with their values, never by a generic plan made without them. They pick the page's ids
  // first, then read its rows: an index holding the filter's column and the list's order
  // (created_at, id) then yields the page from its entries alone, sorting them when the filter
  // is a range (migration 017), and only the page's rows are read. (Unfiltered, the page is the
  // start of an index in the list's order, and a generic plan, not knowing the page is small,
  // would join its ids to the whole table.)
  const filtered = where.size > 1;
  const ids = paths?.ids?.(`$${params.length + 1}`, `$${params.length + 2}`) ?? `SELECT id ${from} ${page}`;
  const pageText = filtered ? `SELECT ${rowColumns(table)} FROM ${table} WHERE id IN (${ids}) ${order}` : `SELECT ${rowColumns(table)} ${from} ${page}`;
  const run = <R extends object>(text: string, values: unknown[]) => (filtered ? db.query<R>(plannedPerRun(text, values)) : db.query<R>(text, values));
  const [rows, count] = await Promise.all([run<Row & object>(pageText, [...params, limit, offset]), countBounded(db, paths?.count?.from ?? from, params, offset, run, paths?.count?.order)]);
  return { rows: rows.rows, ...count };
}

/** The account's rows with these ids; ids that are not uuids simply find nothing. */
export async function findOfAccount<Row>(db: Queryable, table: AccountTable, accountId: string, ids: string[]): Promise<Row[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  let statement = ofAccountById.get(table);
  if (!statement) ofAccountById.set(table, (statement = byIds(2, (match) => `SELECT ${rowColumns(table)} FROM ${table} WHERE account_id = $1 AND id ${match}`)));
  const { text, ids: idsValue } = statement(valid);
  const { rows } = await db.query<Row & object>(text, [accountId, idsValue]);
  return rows;
}

const ofAccountById = new Map<AccountTable, ReturnType<typeof byIds>>();

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
      WHERE account_id = $1 AND id = $2 RETURNING ${rowColumns(table)}`,
    [accountId, id, labels.ref_numbers ?? null, labels.tags ?? null, at],
  );
  return rows[0];
}
