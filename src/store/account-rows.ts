// The statements every account-owned table answers alike: a page of the account's rows, rows by
// id, and the labels users may edit. The table name is one of a closed set of identifiers, never
// user input, so it is written into the statement; every value travels as a parameter.
import type { Queryable } from './db.ts';
import { isUuid } from './uuid.ts';

type AccountTable = 'shipments' | 'containers' | 'tracking_requests' | 'transport_events' | 'estimated_events' | 'parties' | 'webhooks';
type LabelledTable = 'shipments' | 'tracking_requests';

/** The labels a user edits on shipments and tracking requests; one left out stays as it is. */
export interface LabelEdit {
  ref_numbers?: string[];
  tags?: string[];
}

/** The account's rows, newest first, with how many there are in all. */
export async function pageOfAccount<Row>(
  db: Queryable,
  table: AccountTable,
  accountId: string,
  limit: number,
  offset: number,
): Promise<{ rows: Row[]; total: number }> {
  const [page, count] = await Promise.all([
    db.query<Row & object>(`SELECT * FROM ${table} WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, [accountId, limit, offset]),
    db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE account_id = $1`, [accountId]),
  ]);
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
