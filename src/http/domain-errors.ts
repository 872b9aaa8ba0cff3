// The one place a service's refusal (src/domain/errors.ts) becomes a JSON:API error: its status,
// and where in the request the client finds the value at fault.
import { Conflict, DomainError, FeatureNotEnabled, Invalid, LimitExceeded, NotFound, TooLarge, type FieldPath } from '../domain/errors.ts';
import { pointerOf } from '../jsonapi/body.ts';
import { ApiError } from '../jsonapi/errors.ts';

/** The JSON:API error for `err` when it is a domain error; undefined otherwise (a bug: a 500). */
export function apiErrorOf(err: unknown): ApiError | undefined {
  if (!(err instanceof DomainError)) return undefined;
  const fields = (field?: FieldPath) => ({
    detail: err.detail,
    code: err.code,
    ...(field ? { source: { pointer: pointerOf(field) } } : {}),
    ...(err.meta ? { meta: err.meta } : {}),
  });
  if (err instanceof Invalid) return ApiError.of(422, fields(err.field));
  // A clash over one submitted value (a duplicate request number) is answered like any other
  // refused attribute, 422 at its pointer, as the reference service does; otherwise 409.
  if (err instanceof Conflict) return ApiError.of(err.field ? 422 : 409, fields(err.field));
  if (err instanceof NotFound) return ApiError.of(404, fields());
  if (err instanceof TooLarge) return ApiError.of(413, { title: 'Payload Too Large', ...fields() });
  // The reference service's body exactly (title, detail and nothing more): clients, its SDK among
  // them, tell "not enabled" from other 403s by this detail.
  if (err instanceof FeatureNotEnabled) return ApiError.of(403, { title: 'Forbidden', detail: err.detail });
  if (err instanceof LimitExceeded) {
    const headers = err.retryAfterMs === undefined ? undefined : { 'retry-after': String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))) };
    return ApiError.of(429, fields(), headers);
  }
  return undefined;
}
