// `Authorization: Token <key>` (the reference scheme) or `Bearer <key>`.
// Each request is authenticated and counted against its rate-limit bucket in one query.
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { apiKeyOfHeader } from '../domain/api-key-header.ts';
import { ApiError } from '../jsonapi/errors.ts';
import { hashApiKey } from '../services/api-keys.ts';
import { authenticateKey, findAccount } from '../store/accounts.ts';
import { accountOfInProcessToken } from './in-process-auth.ts';
import type { Queryable } from '../store/db.ts';
import { LIMITS, tooManyRequests, WINDOW, type Bucket } from './rate-limit.ts';

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

/** The request's key, counted in `bucket`; throws a 401 without a live key, a 429 over the limit. */
export async function authenticate(db: Queryable, clock: Clock, req: FastifyRequest, bucket: Bucket): Promise<AuthenticatedKey> {
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
  const key = await authenticateKey(db, hashApiKey(token), { bucket, max: LIMITS[bucket].limit, window: WINDOW, now: clock.now() });
  if (!key) throw unauthorized('Invalid or missing API token: the API key could not be verified.');
  if (key.wait_ms > 0) throw tooManyRequests(bucket, key.wait_ms);
  return { id: key.id, account_id: key.account_id, disabled_features: key.disabled_features };
}
