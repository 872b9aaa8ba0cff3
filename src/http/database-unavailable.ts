// The database cannot be reached (down, restarting): 503 with Retry-After, so clients retry
// instead of reporting a 500 for what is an outage.
import { ApiError } from '../jsonapi/errors.ts';
import { isDatabaseUnavailable } from '../store/database-unavailable.ts';

export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The 503 for `err` when it says the database is unreachable; undefined otherwise. */
export function databaseUnavailableError(err: unknown): ApiError | undefined {
  if (!isDatabaseUnavailable(err)) return undefined;
  return ApiError.of(
    503,
    { detail: `The database is unreachable right now; retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`, code: 'database_unavailable' },
    { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  );
}
