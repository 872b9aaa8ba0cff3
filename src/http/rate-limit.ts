// Per-key request limits over a rolling minute: the buckets, their limits and the 429. Where the
// requests are counted (memory, Redis or PostgreSQL) is the rate limiter's business
// (src/services/rate-limiters.ts); the rule and these answers are the same for all.
import { ApiError } from '../jsonapi/errors.ts';

export type Bucket = 'default' | 'tracking_requests.create' | 'tracking_requests.infer_number' | 'containers.refresh';

/** Requests per rolling minute and the message a client sees past the limit. */
export const LIMITS: Record<Bucket, { limit: number; detail: string }> = {
  default: {
    limit: 100,
    detail: 'Your account has exceeded its API rate limit of 100 requests per minute. Reduce the request rate, or use webhooks instead of polling.',
  },
  'tracking_requests.create': {
    limit: 100,
    detail: "You've hit the create tracking requests limit (100 per minute). Please try again in a minute.",
  },
  'tracking_requests.infer_number': { limit: 200, detail: 'Rate limit exceeded (200 number inferences per minute).' },
  'containers.refresh': { limit: 10, detail: "You've hit the refresh limit (10 per minute). Please try again in a minute." },
};

export const WINDOW_MS = 60_000;

/** The 429 for a request `waitMs` too early; Retry-After in whole seconds, at least 1. */
export function tooManyRequests(bucket: Bucket, waitMs: number): ApiError {
  const { limit, detail } = LIMITS[bucket];
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return ApiError.of(
    429,
    { detail, code: 'rate_limited', meta: { limit, window_seconds: WINDOW_MS / 1000, retry_after_seconds: retryAfter } },
    { 'retry-after': String(retryAfter) },
  );
}
