// People of an account who sign in to the web app: passwords (argon2id) and one-time sign-in links.
import argon2 from 'argon2';
import type { Clock } from '../clock.ts';
import { Conflict, Invalid, NotFound } from '../domain/errors.ts';
import type { Db } from '../store/db.ts';
import { findUserByEmail, firstUserOfAccount, insertSignInLink, insertUser, setPasswordHash, signInLinkUser, type UserRow } from '../store/users.ts';
import { digestSecret, newSecretToken } from './secret-tokens.ts';

export const MIN_PASSWORD_LENGTH = 10;
/** Longer inputs cost argon2 time for nothing (a passphrase of 256 characters is plenty). */
const MAX_PASSWORD_LENGTH = 256;
/** How long a sign-in link printed by the command line or at first start stays usable. */
export const SIGN_IN_LINK_TTL_MS = 24 * 3_600_000;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function normaliseEmail(email: string): string {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed) || trimmed.length > 254) throw new Invalid(['email'], `"${email}" is not an e-mail address.`);
  return trimmed;
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new Invalid(['password'], `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`, 'password_too_short');
  if (password.length > MAX_PASSWORD_LENGTH) throw new Invalid(['password'], `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`, 'password_too_long');
}

// argon2id with the library's defaults (64 MiB, 3 passes): memory-hard, about 50 ms here.
const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

export async function createUser(db: Db, clock: Clock, input: { accountId: string; email: string; name?: string; password?: string }): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  if (input.password !== undefined) checkPassword(input.password);
  const user = await insertUser(db, {
    account_id: input.accountId,
    email,
    name: input.name?.trim() ?? '',
    password_hash: input.password === undefined ? null : await hashPassword(input.password),
    at: clock.now(),
  });
  if (!user) throw new Conflict('email_taken', `A user with the e-mail address ${email} exists already.`, ['email']);
  return user;
}

export async function userByEmail(db: Db, email: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email.trim());
  if (!user) throw new NotFound(`No user has the e-mail address ${email.trim()}.`);
  return user;
}

// A hash to verify against when the address is unknown, so a wrong address takes as long as a
// wrong password and response times do not tell which addresses have accounts.
let decoy: Promise<string> | undefined;

/** The user when the address and password match; undefined otherwise (without saying which was wrong). */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<UserRow | undefined> {
  if (password.length === 0 || password.length > MAX_PASSWORD_LENGTH) return undefined;
  const user = await findUserByEmail(db, email.trim());
  const hash = user?.password_hash ?? (await (decoy ??= hashPassword(newSecretToken())));
  const ok = await argon2.verify(hash, password).catch(() => false);
  return ok && user?.password_hash ? user : undefined;
}

/** Sets a new password; every session of the user ends (src/store/users.ts). */
export async function changePassword(db: Db, clock: Clock, userId: string, password: string): Promise<void> {
  checkPassword(password);
  await setPasswordHash(db, userId, await hashPassword(password), clock.now());
}

/** Where one-time sign-in links point, under the web app's origin. */
export const SIGN_IN_LINK_PATH = '/sign-in/link';

/** A one-time sign-in link's address. */
export const signInLinkUrl = (appUrl: string, token: string): string => `${appUrl}${SIGN_IN_LINK_PATH}/${token}`;

/** A one-time link token; the caller turns it into a link (signInLinkUrl). */
export async function issueSignInLink(db: Db, clock: Clock, userId: string, ttlMs = SIGN_IN_LINK_TTL_MS): Promise<string> {
  const token = newSecretToken();
  const at = clock.now();
  await insertSignInLink(db, { token_hash: digestSecret(token), user_id: userId, at, expires_at: new Date(at.getTime() + ttlMs) });
  return token;
}

/** The user a live link signs in; `consume` uses the link up. */
export async function signInLinkOwner(db: Db, clock: Clock, token: string, consume: boolean): Promise<UserRow | undefined> {
  if (token.length > 100) return undefined;
  return signInLinkUser(db, digestSecret(token), clock.now(), consume);
}

/**
 * At start-up: the account's first user (created with `email` when there is none) and, while that
 * user has never chosen a password, a fresh one-time link to sign in with and choose one.
 */
export async function ensureOwnerSignIn(db: Db, clock: Clock, accountId: string, email: string): Promise<{ user: UserRow; linkToken?: string }> {
  let user = await firstUserOfAccount(db, accountId);
  if (!user) {
    user = await createUser(db, clock, { accountId, email, name: 'Owner' }).catch(async (err: unknown) => {
      // Another process created the first user at the same moment.
      const existing = await firstUserOfAccount(db, accountId);
      if (!existing) throw err;
      return existing;
    });
  }
  return { user, linkToken: user.has_password ? undefined : await issueSignInLink(db, clock, user.id) };
}
