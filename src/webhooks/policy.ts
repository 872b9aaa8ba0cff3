// When and how often svc tries a delivery again, and when it gives up on a webhook.
import { HOUR } from '../domain/time-units.ts';

export interface DeliveryPolicy {
  /** An attempt that has no complete answer by then has failed. */
  timeoutMs: number;
  /** Retries after the first attempt; then the notification is `failed`. */
  maxRetries: number;
  /** The first retry comes after about this long; each next one waits twice as long… */
  retryBaseMs: number;
  /** …but never longer than this. */
  retryMaxMs: number;
  /** Each wait is spread by ±this fraction, so receivers that fail together do not retry together. */
  jitter: number;
  /** A webhook whose deliveries have all failed for this long is deactivated. */
  deactivateAfterMs: number;
  /** Deliveries in flight at once, per worker. */
  concurrency: number;
  /** Deliveries one receiver (webhook) may have claimed or in flight at once, per worker. */
  receiverConcurrency: number;
}

// 30 s, 1, 2, 4, 8, 16, 32 min, 1.1, 2.1, 4.3 h, then 6 h twice: 12 retries over about a day.
export const defaultDeliveryPolicy: DeliveryPolicy = {
  timeoutMs: 10_000,
  maxRetries: 12,
  retryBaseMs: 30_000,
  retryMaxMs: 6 * HOUR,
  jitter: 0.2,
  deactivateAfterMs: 72 * HOUR,
  concurrency: 32,
  receiverConcurrency: 8,
};

/** The wait before retry number `retry` (1-based); `random` in [0, 1). */
export function retryDelay(policy: DeliveryPolicy, retry: number, random: number): number {
  const base = Math.min(policy.retryBaseMs * 2 ** (retry - 1), policy.retryMaxMs);
  return Math.round(base * (1 + policy.jitter * (2 * random - 1)));
}

/** What the reference service counts as delivered. */
export const isSuccessStatus = (status: number | null) => status === 200 || status === 201 || status === 202 || status === 204;
