// The web app reaches the REST API in memory (app.inject, src/main/web.ts) as its signed-in
// user's account, without an API key of that account: it presents a token made of a secret only
// this process knows and the account id. The secret is random at every start and never leaves
// memory, so a token cannot be made or replayed from outside; such calls are not rate limited
// (a signed-in person clicking, not a program), and they have no API key.
import { timingSafeEqual } from 'node:crypto';
import { newSecretToken } from '../services/secret-tokens.ts';

const PREFIX = 'svcweb_';
const SECRET = Buffer.from(newSecretToken());

export function inProcessToken(accountId: string): string {
  return `${PREFIX}${SECRET.toString()}.${accountId}`;
}

/** The account an in-process token names; undefined for any other token (an API key, a forgery). */
export function accountOfInProcessToken(token: string): string | undefined {
  if (!token.startsWith(PREFIX)) return undefined;
  const dot = token.indexOf('.', PREFIX.length);
  if (dot < 0) return undefined;
  const secret = Buffer.from(token.slice(PREFIX.length, dot));
  return secret.length === SECRET.length && timingSafeEqual(secret, SECRET) ? token.slice(dot + 1) : undefined;
}
