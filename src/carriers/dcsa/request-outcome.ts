// What a request to a DCSA carrier came to, for `svc carriers list`. Reasons are built from the
// status and the error's kind only, never from a message: those may quote the carrier's body,
// which can echo what was sent.
import type { RequestOutcome } from '../types.ts';
import { CarrierAuthError, DcsaUnreachableError, RateLimitedError } from './errors.ts';

/**
 * `status`: of the last answer the request got, if any; `error`: what the request (its reading
 * included) threw. A 404 counts as an answer read: the carrier read the query and knows no such
 * reference, which says nothing against the carrier (and is what `svc carriers check` expects).
 */
export function requestOutcome(at: Date, status: number | undefined, error: unknown, heldUntil: number): RequestOutcome {
  const failure = (reason: string): RequestOutcome => ({ at, ok: false, reason, ...(heldUntil > at.getTime() ? { heldUntil: new Date(heldUntil) } : {}) });
  if (error instanceof RateLimitedError) return failure(status === 429 ? 'rate limited (HTTP 429 with Retry-After)' : 'rate limited: held back by the carrier\'s Retry-After, not sent');
  if (error instanceof CarrierAuthError) return failure(tokenReason(error));
  if (error instanceof DcsaUnreachableError) return failure(unreachableReason(error));
  if (status !== undefined && (status < 200 || status > 299) && status !== 404) return failure(statusReason(status));
  if (error !== undefined) return failure(`unrecognized response (HTTP ${status ?? '?'}: not DCSA events as configured)`);
  return { at, ok: true };
}

function statusReason(status: number): string {
  if (status === 401 || status === 403) return `unauthorized (HTTP ${status})`;
  if (status === 429) return 'rate limited (HTTP 429)';
  if (status === 408) return 'timeout (HTTP 408)';
  if (status >= 500) return `carrier server error (HTTP ${status})`;
  if (status === 400) return 'query refused (HTTP 400)';
  return `unexpected answer (HTTP ${status})`;
}

function tokenReason(error: CarrierAuthError): string {
  const { status } = error;
  if (status === undefined) return error.cause instanceof DcsaUnreachableError ? `token endpoint ${unreachableReason(error.cause)}` : 'token endpoint: unrecognized response';
  if (status === 429) return 'token endpoint rate limited (HTTP 429)';
  if (status >= 500) return `token endpoint server error (HTTP ${status})`;
  if (status >= 200 && status <= 299) return `token endpoint: no access token in its answer (HTTP ${status})`;
  return `unauthorized: the token endpoint refused the credentials (HTTP ${status})`;
}

function unreachableReason(error: DcsaUnreachableError): string {
  const redirect = /redirect refused \(HTTP (\d+)\)/.exec(error.message);
  if (redirect) return `redirect refused (HTTP ${redirect[1]})`;
  const timeout = /no answer within (\d+) ms/.exec(error.message);
  if (timeout) return `timeout (no answer within ${Number(timeout[1]) / 1000} s)`;
  const code = codeOf(error.cause);
  return code ? `unreachable (${code})` : 'unreachable';
}

function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ('code' in e && typeof e.code === 'string' && /^[A-Z0-9_]{2,40}$/.test(e.code)) return e.code;
  }
  return undefined;
}
