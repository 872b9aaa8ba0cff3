// SQL for web app sessions: a cookie's token digest to its user and account.
import type { Queryable } from './db.ts';

export interface SessionRow {
  id: string;
  user_id: string;
  email: string;
  user_name: string;
  account_id: string;
  account_name: string;
  csrf_secret: string;
  via_link: boolean;
  last_seen_at: Date;
  expires_at: Date;
}

export async function insertSession(db: Queryable, session: { token_hash: Buffer; user_id: string; csrf_secret: string; via_link: boolean; at: Date; expires_at: Date }): Promise<void> {
  await db.query(
    'INSERT INTO web_sessions (token_hash, user_id, csrf_secret, via_link, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $5, $5, $6)',
    [session.token_hash, session.user_id, session.csrf_secret, session.via_link, session.at, session.expires_at],
  );
}

/** The live session of a token: not past its absolute expiry, and seen within `idleMs`. */
export async function findSession(db: Queryable, tokenHash: Buffer, now: Date, idleMs: number): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionRow>(
    `SELECT s.id, s.user_id, u.email, u.name AS user_name, u.account_id, a.name AS account_name, s.csrf_secret, s.via_link, s.last_seen_at, s.expires_at
       FROM web_sessions s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.id = u.account_id
      WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.last_seen_at > $2 - make_interval(secs => $3::double precision / 1000)`,
    [tokenHash, now, idleMs],
  );
  return rows[0];
}

export async function touchSession(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query('UPDATE web_sessions SET last_seen_at = $2 WHERE id = $1', [id, now]);
}

export async function deleteSession(db: Queryable, tokenHash: Buffer): Promise<void> {
  await db.query('DELETE FROM web_sessions WHERE token_hash = $1', [tokenHash]);
}

/** Sessions past their expiry or idle limit, and used or expired sign-in links: housekeeping. */
export async function deleteStaleSessions(db: Queryable, now: Date, idleMs: number): Promise<void> {
  await db.query(
    `DELETE FROM web_sessions WHERE expires_at <= $1 OR last_seen_at <= $1 - make_interval(secs => $2::double precision / 1000)`,
    [now, idleMs],
  );
  await db.query('DELETE FROM sign_in_links WHERE expires_at <= $1', [now]);
}
