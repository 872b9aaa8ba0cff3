// SQL for accounts and their API keys.
import type { Queryable } from './db.ts';
import { isUuid } from './uuid.ts';

export interface Account {
  id: string;
  name: string;
  is_default: boolean;
  created_at: Date;
  /** Features the operator switched off for this account; the rest are on. */
  disabled_features: string[];
}

export interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  key_prefix: string;
  key_last4: string;
  created_at: Date;
  revoked_at: Date | null;
}

export async function insertAccount(db: Queryable, name: string, isDefault = false): Promise<Account> {
  const { rows } = await db.query<Account>(
    'INSERT INTO accounts (name, is_default) VALUES ($1, $2) RETURNING *',
    [name, isDefault],
  );
  return rows[0];
}

export async function listAccounts(db: Queryable): Promise<(Account & { active_keys: number })[]> {
  const { rows } = await db.query(
    `SELECT a.*, (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS active_keys
       FROM accounts a ORDER BY a.created_at, a.id`,
  );
  return rows;
}

export async function findDefaultAccount(db: Queryable): Promise<Account | undefined> {
  const { rows } = await db.query<Account>('SELECT * FROM accounts WHERE is_default');
  return rows[0];
}

/** By id (a primary-key lookup: every GET /v2/account makes it); not a uuid finds none. */
export async function findAccount(db: Queryable, id: string): Promise<Account | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<Account>('SELECT * FROM accounts WHERE id = $1', [id]);
  return rows[0];
}

export async function insertApiKey(
  db: Queryable,
  key: { account_id: string; name: string; key_hash: Buffer; key_prefix: string; key_last4: string },
): Promise<ApiKeyRow | undefined> {
  const { rows } = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (account_id, name, key_hash, key_prefix, key_last4)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key_hash) DO NOTHING
     RETURNING id, account_id, name, key_prefix, key_last4, created_at, revoked_at`,
    [key.account_id, key.name, key.key_hash, key.key_prefix, key.key_last4],
  );
  return rows[0];
}

export async function listApiKeys(db: Queryable, accountId?: string): Promise<ApiKeyRow[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT id, account_id, name, key_prefix, key_last4, created_at, revoked_at FROM api_keys
      WHERE $1::text IS NULL OR account_id::text = $1 ORDER BY created_at, id`,
    [accountId ?? null],
  );
  return rows;
}

export async function revokeApiKey(db: Queryable, id: string, at: Date): Promise<ApiKeyRow | undefined> {
  const { rows } = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id::text = $1
     RETURNING id, account_id, name, key_prefix, key_last4, created_at, revoked_at`,
    [id, at],
  );
  return rows[0];
}

/** A live API key with what every request needs of its account. */
export interface LiveKey {
  id: string;
  account_id: string;
  /** The account's switched-off features, read with the key so a feature check costs no query of its own. */
  disabled_features: string[];
}

/**
 * The live key with this digest, if any: the "auth read" of every authenticated request when
 * the rate limit is counted outside PostgreSQL (in memory or in Redis).
 */
export async function findLiveKey(db: Queryable, hash: Buffer): Promise<LiveKey | undefined> {
  const { rows } = await db.query<LiveKey>(
    `SELECT k.id, k.account_id, a.disabled_features
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [hash],
  );
  return rows[0];
}

/**
 * The live key with this digest and the request counted against its rate-limit bucket, in one
 * round trip (the PostgreSQL rate limiter). `wait_ms` is 0 when the request is within the limit,
 * else the time until the bucket has room.
 */
export async function findLiveKeyCountingHit(
  db: Queryable,
  hash: Buffer,
  limit: { bucket: string; max: number; windowMs: number; now: Date; hits?: number },
): Promise<(LiveKey & { wait_ms: number }) | undefined> {
  const { rows } = await db.query<LiveKey & { wait_ms: number }>(
    `SELECT k.id, k.account_id, a.disabled_features,
            svc_rate_limit_hit(k.id, $2, $3, make_interval(secs => $4::float8 / 1000), $5, $6) AS wait_ms
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [hash, limit.bucket, limit.max, limit.windowMs, limit.now, limit.hits ?? 1],
  );
  return rows[0];
}

/**
 * Switches one feature off (`enabled` false) or back on for an account; doing it twice changes
 * nothing. Undefined when there is no such account.
 */
export async function setAccountFeature(db: Queryable, id: string, feature: string, enabled: boolean): Promise<Account | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<Account>(
    `UPDATE accounts
        SET disabled_features = CASE WHEN $3 THEN array_remove(disabled_features, $2)
                                     WHEN $2 = ANY (disabled_features) THEN disabled_features
                                     ELSE array_append(disabled_features, $2) END
      WHERE id = $1 RETURNING *`,
    [id, feature, enabled],
  );
  return rows[0];
}

export async function hasKeyWithHash(db: Queryable, hash: Buffer): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [hash]);
  return (rowCount ?? 0) > 0;
}
