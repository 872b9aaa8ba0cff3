// The database cannot be reached (down, restarting): 503 with Retry-After, so clients retry
// instead of reporting a 500 for what is an outage.
import type { FastifyReply } from 'fastify';
import { errorObject } from '../jsonapi/errors.ts';
import { isDatabaseUnavailable } from '../store/database-unavailable.ts';
import { JSONAPI } from './route.ts';

const RETRY_AFTER_SECONDS = 5;

/** Sends the 503 and returns true when `err` says the database is unreachable; false otherwise. */
export function replyDatabaseUnavailable(err: unknown, reply: FastifyReply): boolean {
  if (!isDatabaseUnavailable(err)) return false;
  void reply
    .code(503)
    .type(JSONAPI)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .send({ errors: [errorObject(503, { detail: `The database is unreachable right now; retry in ${RETRY_AFTER_SECONDS} seconds.`, code: 'database_unavailable' })] });
  return true;
}
