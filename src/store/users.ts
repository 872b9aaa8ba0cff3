// SQL for the people who sign in to the web app, and their one-time sign-in links.
import type { Queryable } from './db.ts';

export interface UserRow {
  id: string;
  account_id: string;
  email: string;
  name: string;
  has_password: boolean;
  created_at: Date;
}

const USER_COLUMNS = 'u.id, u.account_id, u.email, u.name, u.password_hash IS NOT NULL AS has_password, u.created_at';

/** Undefined when the address is taken (addresses are unique without case). */
export async function insertUser(db: Queryable, user: { account_id: string; email: string; name: string; password_hash: string | null; at: Date }): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO users AS u (account_id, email, name, password_hash, password_changed_at, created_at)
     VALUES ($1, $2, $3, $4, CASE WHEN $4::text IS NULL THEN NULL ELSE $5::timestamptz END, $5)
     ON CONFLICT (lower(email)) DO NOTHING
     RETURNING ${USER_COLUMNS}`,
    [user.account_id, user.email, user.name, user.password_hash, user.at],
  );
  return rows[0];
}

export async function findUserByEmail(db: Queryable, email: string): Promise<(UserRow & { password_hash: string | null }) | undefined> {
  const { rows } = await db.query<UserRow & { password_hash: string | null }>(`SELECT ${USER_COLUMNS}, u.password_hash FROM users u WHERE lower(u.email) = lower($1)`, [email]);
  return rows[0];
}

export async function listUsers(db: Queryable, accountId?: string): Promise<(UserRow & { account_name: string })[]> {
  const { rows } = await db.query<UserRow & { account_name: string }>(
    `SELECT ${USER_COLUMNS}, a.name AS account_name FROM users u JOIN accounts a ON a.id = u.account_id
      WHERE $1::uuid IS NULL OR u.account_id = $1 ORDER BY a.created_at, u.created_at, u.id`,
    [accountId ?? null],
  );
  return rows;
}

/** The first user of an account (its owner, for the default account's first sign-in link). */
export async function firstUserOfAccount(db: Queryable, accountId: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.account_id = $1 ORDER BY u.created_at, u.id LIMIT 1`, [accountId]);
  return rows[0];
}

/** Sets the password and ends every session of the user: a changed password signs out elsewhere. */
export async function setPasswordHash(db: Queryable, userId: string, hash: string, at: Date): Promise<void> {
  await db.query(
    `WITH changed AS (UPDATE users SET password_hash = $2, password_changed_at = $3 WHERE id = $1 RETURNING id)
     DELETE FROM web_sessions WHERE user_id IN (SELECT id FROM changed)`,
    [userId, hash, at],
  );
}

export async function insertSignInLink(db: Queryable, link: { token_hash: Buffer; user_id: string; at: Date; expires_at: Date }): Promise<void> {
  await db.query('INSERT INTO sign_in_links (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [link.token_hash, link.user_id, link.at, link.expires_at]);
}

/** The link's user if the link is live (unused, unexpired); without `consume` it stays usable. */
export async function signInLinkUser(db: Queryable, tokenHash: Buffer, now: Date, consume: boolean): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    consume
      ? `WITH used AS (UPDATE sign_in_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id)
         SELECT ${USER_COLUMNS} FROM users u JOIN used ON used.user_id = u.id`
      : `SELECT ${USER_COLUMNS} FROM users u JOIN sign_in_links l ON l.user_id = u.id
          WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > $2`,
    [tokenHash, now],
  );
  return rows[0];
}
