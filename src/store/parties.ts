// SQL for parties (an account's customers).
import type { Queryable } from './db.ts';
import { findOfAccount, pageOfAccount } from './account-rows.ts';
import { isUuid } from './uuid.ts';

export interface PartyRow {
  id: string;
  account_id: string;
  company_name: string;
  created_at: Date;
  updated_at: Date;
}


export const listParties = (db: Queryable, accountId: string, limit: number, offset: number): Promise<{ rows: PartyRow[]; total: number }> =>
  pageOfAccount(db, 'parties', accountId, limit, offset);

export const findParties = (db: Queryable, accountId: string, ids: string[]): Promise<PartyRow[]> => findOfAccount(db, 'parties', accountId, ids);

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
