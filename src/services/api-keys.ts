// API keys: random, shown once, stored as a digest.
import type { Db } from '../store/db.ts';
import { digestSecret, newSecretToken } from './secret-tokens.ts';
import { findDefaultAccount, hasKeyWithHash, insertAccount, insertApiKey, type Account, type ApiKeyRow } from '../store/accounts.ts';

const KEY_PREFIX = 'svc_';

export function generateApiKey(): string {
  return newSecretToken(KEY_PREFIX);
}

export const hashApiKey = digestSecret;

/** How a key is shown after creation: enough to recognise it, not enough to use it. */
export function maskApiKey(row: Pick<ApiKeyRow, 'key_prefix' | 'key_last4'>): string {
  return `${row.key_prefix}…${row.key_last4}`;
}

export async function createApiKey(db: Db, accountId: string, name = '', key = generateApiKey()): Promise<{ key: string; row: ApiKeyRow }> {
  const row = await insertApiKey(db, {
    account_id: accountId,
    name,
    key_hash: hashApiKey(key),
    key_prefix: key.slice(0, 8),
    key_last4: key.slice(-4),
  });
  if (!row) throw new Error('that API key already exists');
  return { key, row };
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
