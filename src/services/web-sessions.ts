// Web app sessions: a random cookie token, its digest stored with a CSRF secret, an absolute and an
// idle lifetime. Seeing a session moves its idle deadline, written at most every few minutes.
import Tokens from '@fastify/csrf';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { deleteSession, deleteStaleSessions, findSession, insertSession, touchSession, type SessionRow } from '../store/web-sessions.ts';
import { digestSecret, newSecretToken } from './secret-tokens.ts';

export const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;
export const SESSION_IDLE_MS = 7 * 24 * 3_600_000;
const TOUCH_EVERY_MS = 5 * 60_000;

export type WebSession = SessionRow;

const csrf = Tokens();

/** `viaLink`: started by a one-time sign-in link, which lets the user set a password without the old one. */
export async function startSession(db: Db, clock: Clock, userId: string, viaLink = false): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecretToken();
  const at = clock.now();
  const expiresAt = new Date(at.getTime() + SESSION_LIFETIME_MS);
  await deleteStaleSessions(db, at, SESSION_IDLE_MS);
  await insertSession(db, { token_hash: digestSecret(token), user_id: userId, csrf_secret: csrf.secretSync(), via_link: viaLink, at, expires_at: expiresAt });
  return { token, expiresAt };
}

export async function sessionOfToken(db: Db, clock: Clock, token: string): Promise<WebSession | undefined> {
  if (token.length > 100) return undefined;
  const now = clock.now();
  const session = await findSession(db, digestSecret(token), now, SESSION_IDLE_MS);
  if (session && now.getTime() - session.last_seen_at.getTime() > TOUCH_EVERY_MS) await touchSession(db, session.id, now);
  return session;
}

export async function endSession(db: Db, token: string): Promise<void> {
  await deleteSession(db, digestSecret(token));
}

/** A new secret for forms shown before sign-in (kept in a cookie of its own). */
export const newCsrfSecret = (): string => csrf.secretSync();
export const csrfToken = (secret: string): string => csrf.create(secret);
export const csrfTokenMatches = (secret: string, token: string): boolean => csrf.verify(secret, token);
