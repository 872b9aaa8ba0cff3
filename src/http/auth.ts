// `Authorization: Token <key>` (the reference scheme) or `Bearer <key>`.
// Each request is authenticated and counted against its rate-limit bucket by the rate limiter
// (src/services/rate-limiters.ts): in the auth query itself, or in memory or Redis after it.
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { apiKeyOfHeader } from '../domain/api-key-header.ts';
import { ApiError } from '../jsonapi/errors.ts';
import { hashApiKey } from '../services/api-keys.ts';
import { postgresRateLimiter, type RateLimiter } from '../services/rate-limiters.ts';
import { findAccount } from '../store/accounts.ts';
import { accountOfInProcessToken } from './in-process-auth.ts';
import type { Queryable } from '../store/db.ts';
import { LIMITS, tooManyRequests, WINDOW_MS, type Bucket } from './rate-limit.ts';

export interface AuthenticatedKey {
  id: string;
  account_id: string;
  /** The account's switched-off features, read with the key (src/services/features.ts). */
  disabled_features: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: AuthenticatedKey;
  }
}

const unauthorized = (detail: string) =>
  ApiError.of(401, { detail, code: 'unauthorized' }, { 'www-authenticate': 'Token realm="svc"' });

// Apps built without a limiter (tests, benchmarks, several apps on one database) count in
// PostgreSQL: exact however many share the database.
const sharedByDefault = postgresRateLimiter();

/** The request's key, counted in `bucket`; throws a 401 without a live key, a 429 over the limit. */
export async function authenticate(
  db: Queryable,
  clock: Clock,
  req: FastifyRequest,
  bucket: Bucket,
  limiter: RateLimiter = sharedByDefault,
): Promise<AuthenticatedKey> {
  const header = req.headers.authorization;
  if (!header) throw unauthorized('Invalid or missing API token: send the header "Authorization: Token <API_KEY>".');
  const token = apiKeyOfHeader(header);
  if (!token) throw unauthorized('Invalid or missing API token: the Authorization header must be "Token <API_KEY>".');
  const inProcessAccount = accountOfInProcessToken(token);
  if (inProcessAccount !== undefined) {
    const account = await findAccount(db, inProcessAccount);
    if (!account) throw unauthorized('Invalid or missing API token: the account no longer exists.');
    return { id: '', account_id: account.id, disabled_features: account.disabled_features };
  }
  const key = await limiter.admit(db, hashApiKey(token), { bucket, max: LIMITS[bucket].limit, windowMs: WINDOW_MS }, clock.now());
  if (!key) throw unauthorized('Invalid or missing API token: the API key could not be verified.');
  if (key.wait_ms > 0) throw tooManyRequests(bucket, key.wait_ms);
  return { id: key.id, account_id: key.account_id, disabled_features: key.disabled_features };
}
