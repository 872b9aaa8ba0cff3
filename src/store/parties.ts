// SQL for parties (an account's customers).
import type { Queryable } from './db.ts';
import { isUuid } from './uuid.ts';

export interface PartyRow {
  id: string;
  account_id: string;
  company_name: string;
  created_at: Date;
  updated_at: Date;
}


export async function listParties(db: Queryable, accountId: string, limit: number, offset: number): Promise<{ rows: PartyRow[]; total: number }> {
  const [page, count] = await Promise.all([
    db.query<PartyRow>(
      'SELECT * FROM parties WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3',
      [accountId, limit, offset],
    ),
    db.query<{ n: number }>('SELECT count(*) AS n FROM parties WHERE account_id = $1', [accountId]),
  ]);
  return { rows: page.rows, total: count.rows[0].n };
}

export async function findParties(db: Queryable, accountId: string, ids: string[]): Promise<PartyRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<PartyRow>('SELECT * FROM parties WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, valid]);
  return rows;
}

/** Company names by party id, whatever the account (the ids come from records already scoped to one). */
export async function companyNamesOf(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; company_name: string }>('SELECT id, company_name FROM parties WHERE id = ANY($1::uuid[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.company_name]));
}

/** Inserts, or returns undefined when the account already has a party of that name. */
export async function insertParty(db: Queryable, accountId: string, companyName: string, at: Date): Promise<PartyRow | undefined> {
  const { rows } = await db.query<PartyRow>(
    `INSERT INTO parties (account_id, company_name, created_at, updated_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (account_id, lower(company_name)) DO NOTHING RETURNING *`,
    [accountId, companyName, at],
  );
  return rows[0];
}

export type UpdateResult<T> = { row: T } | { missing: true } | { conflict: true };

export async function updateParty(db: Queryable, accountId: string, id: string, companyName: string, at: Date): Promise<UpdateResult<PartyRow>> {
  if (!isUuid(id)) return { missing: true };
  try {
    const { rows } = await db.query<PartyRow>(
      'UPDATE parties SET company_name = $3, updated_at = $4 WHERE account_id = $1 AND id = $2 RETURNING *',
      [accountId, id, companyName, at],
    );
    return rows[0] ? { row: rows[0] } : { missing: true };
  } catch (err) {
    if ((err as { code?: string }).code === '23505') return { conflict: true };
    throw err;
  }
}
