// `Authorization: Token <key>` (the reference scheme) or `Bearer <key>`.
// Each request is authenticated and counted against its rate-limit bucket by the rate limiter
// (src/services/rate-limiters.ts): in the auth query itself, or in memory or Redis after it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  return authenticateToken(db, clock, token, bucket, limiter);
}

/**
 * The key `token` is, `hits` requests of it counted in `bucket` together (all or none); throws a
 * 401 without a live key, a 429 when they do not all fit.
 */
export async function authenticateToken(
  db: Queryable,
  clock: Clock,
  token: string,
  bucket: Bucket,
  limiter: RateLimiter = sharedByDefault,
  hits = 1,
): Promise<AuthenticatedKey> {
  const inProcessAccount = accountOfInProcessToken(token);
  if (inProcessAccount !== undefined) {
    const account = await findAccount(db, inProcessAccount);
    if (!account) throw unauthorized('Invalid or missing API token: the account no longer exists.');
    return { id: '', account_id: account.id, disabled_features: account.disabled_features };
  }
  const key = await limiter.admit(db, hashApiKey(token), { bucket, max: LIMITS[bucket].limit, windowMs: WINDOW_MS }, clock.now(), hits);
  if (!key) throw unauthorized('Invalid or missing API token: the API key could not be verified.');
  if (key.wait_ms > 0) throw tooManyRequests(bucket, key.wait_ms);
  return { id: key.id, account_id: key.account_id, disabled_features: key.disabled_features };
}

/** Counts `hits` requests of a key in the default bucket as the app's routes count (see authenticateToken). */
export type KeyRequests = (token: string, hits: number) => Promise<AuthenticatedKey>;

const keyRequestsOfApp = new WeakMap<FastifyInstance, KeyRequests>();

/** Lets what is mounted on `app` count requests with the app's own limiter and database (buildApp calls it). */
export function countKeyRequestsIn(app: FastifyInstance, db: Queryable, clock: Clock, limiter?: RateLimiter): void {
  keyRequestsOfApp.set(app, (token, hits) => authenticateToken(db, clock, token, 'default', limiter, hits));
}

/** How `app`'s routes count a key's requests; undefined for an app not made by buildApp. */
export function keyRequestsOf(app: FastifyInstance): KeyRequests | undefined {
  return keyRequestsOfApp.get(app);
}
