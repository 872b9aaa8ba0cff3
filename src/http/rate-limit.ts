// Per-key request limits over a rolling minute. The counters live in PostgreSQL, so the limits
// hold however many API processes share the database.
import type { FastifyReply } from 'fastify';
import { ApiError } from '../jsonapi/errors.ts';
import type { Services } from './route.ts';

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

const WINDOW = '60 seconds';

export async function enforceRateLimit(services: Services, apiKeyId: string, bucket: Bucket, reply: FastifyReply): Promise<void> {
  const { limit, detail } = LIMITS[bucket];
  const { rows } = await services.db.query<{ wait_ms: number }>(
    'SELECT svc_rate_limit_hit($1, $2, $3, $4, $5) AS wait_ms',
    [apiKeyId, bucket, limit, WINDOW, services.clock.now()],
  );
  const waitMs = rows[0].wait_ms;
  if (waitMs > 0) {
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    reply.header('retry-after', retryAfter);
    throw ApiError.of(429, { detail, code: 'rate_limited', meta: { limit, window_seconds: 60, retry_after_seconds: Number(retryAfter) } }, { 'retry-after': retryAfter });
  }
}
