// API keys: random, shown once, stored as a digest.
import { Invalid, NotFound } from '../domain/errors.ts';
import type { Db } from '../store/db.ts';
import { digestSecret, newSecretToken } from './secret-tokens.ts';
import { findDefaultAccount, hasKeyWithHash, insertAccount, insertApiKey, listApiKeys, revokeApiKey, type Account, type ApiKeyRow } from '../store/accounts.ts';

export type { ApiKeyRow };

const KEY_PREFIX = 'svc_';

export function generateApiKey(): string {
  return newSecretToken(KEY_PREFIX);
}

export const hashApiKey = digestSecret;

/** How a key is shown after creation: enough to recognise it, not enough to use it. */
export function maskApiKey(row: Pick<ApiKeyRow, 'key_prefix' | 'key_last4'>): string {
  return `${row.key_prefix}…${row.key_last4}`;
}

/** A key's name is a label for people: trimmed, short enough to show in a list. */
export const MAX_API_KEY_NAME_LENGTH = 100;

export async function createApiKey(db: Db, accountId: string, name = '', key = generateApiKey()): Promise<{ key: string; row: ApiKeyRow }> {
  const label = name.trim();
  if (label.length > MAX_API_KEY_NAME_LENGTH) throw new Invalid(['name'], `The name is too long: at most ${MAX_API_KEY_NAME_LENGTH} characters.`, 'too_long');
  const row = await insertApiKey(db, {
    account_id: accountId,
    name: label,
    key_hash: hashApiKey(key),
    key_prefix: key.slice(0, 8),
    key_last4: key.slice(-4),
  });
  if (!row) throw new Error('that API key already exists');
  return { key, row };
}

/** The account's keys, revoked ones too, oldest first. */
export function listAccountApiKeys(db: Db, accountId: string): Promise<ApiKeyRow[]> {
  return listApiKeys(db, accountId);
}

/** One of the account's keys; another account's key is as unknown as a key that never existed. */
export async function findAccountApiKey(db: Db, accountId: string, keyId: string): Promise<ApiKeyRow> {
  const key = (await listApiKeys(db, accountId)).find((k) => k.id === keyId);
  if (!key) throw new NotFound('There is no API key with this id in your account.');
  return key;
}

/**
 * Revokes one of the account's keys: every request with it is refused from now on (keys are
 * checked on every request, nothing caches them). Revoking it again keeps the first time.
 */
export async function revokeAccountApiKey(db: Db, accountId: string, keyId: string, at: Date): Promise<ApiKeyRow> {
  await findAccountApiKey(db, accountId, keyId);
  const row = await revokeApiKey(db, keyId, at);
  if (!row) throw new NotFound('There is no API key with this id in your account.');
  return row;
}

/**
 * Makes sure the default account exists. On its first creation a key is generated and returned
 * so it can be printed once; a bootstrap key from the configuration is added if it is new.
 */
export async function ensureDefaultAccount(
  db: Db,
  bootstrapKey?: string,
): Promise<{ account: Account; newKey?: string; bootstrapKeyCreated: boolean }> {
  let account = await findDefaultAccount(db);
  let newKey: string | undefined;
  if (!account) {
    account = await insertAccount(db, 'Default account', true).catch(async (err) => {
      // Another process created it at the same moment.
      const existing = await findDefaultAccount(db);
      if (!existing) throw err;
      return existing;
    });
    if (!bootstrapKey) newKey = (await createApiKey(db, account.id, 'first key')).key;
  }
  let bootstrapKeyCreated = false;
  if (bootstrapKey && !(await hasKeyWithHash(db, hashApiKey(bootstrapKey)))) {
    await createApiKey(db, account.id, 'bootstrap key', bootstrapKey).catch(() => undefined);
    bootstrapKeyCreated = true;
  }
  return { account, newKey, bootstrapKeyCreated };
}
