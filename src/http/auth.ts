// `Authorization: Token <key>` (the reference scheme) or `Bearer <key>`.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../jsonapi/errors.ts';
import { hashApiKey } from '../services/api-keys.ts';
import { findActiveKeyByHash } from '../store/accounts.ts';
import type { Queryable } from '../store/db.ts';

export interface AuthenticatedKey {
  id: string;
  account_id: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: AuthenticatedKey;
  }
}

const unauthorized = (detail: string) =>
  ApiError.of(401, { detail, code: 'unauthorized' }, { 'www-authenticate': 'Token realm="svc"' });

/** The key the request carries, from the Authorization header; throws a 401 otherwise. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^\s*(?:Token|Bearer)\s+(?:token=)?"?([^\s"]{1,512})"?\s*$/i.exec(header ?? '');
  return match?.[1];
}

export async function authenticate(db: Queryable, req: FastifyRequest): Promise<AuthenticatedKey> {
  const header = req.headers.authorization;
  if (!header) throw unauthorized('Invalid or missing API token: send the header "Authorization: Token <API_KEY>".');
  const token = bearerToken(header);
  if (!token) throw unauthorized('Invalid or missing API token: the Authorization header must be "Token <API_KEY>".');
  const key = await findActiveKeyByHash(db, hashApiKey(token));
  if (!key) throw unauthorized('Invalid or missing API token: the API key could not be verified.');
  return key;
}
