// What every delivery sends and how its answer reads: shared by the delivery worker and
// POST /v2/webhooks/trigger, so a test delivery is exactly a real one.
import { isSuccessStatus } from './policy.ts';
import { addSignatureHeaders } from './signature.ts';

export const USER_AGENT = 'svc-webhooks/1';

/**
 * The request headers of a delivery. Custom headers go first so they cannot replace the content
 * type or a signature; without a secret (a trigger without one) nothing is signed.
 */
export function deliveryHeaders(options: { secret: string | null; messageId: string; at: Date; body: string | Buffer; custom?: readonly { name: string; value: string }[] | null }): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.custom) for (const h of options.custom) headers[h.name.toLowerCase()] = h.value;
  headers['content-type'] = 'application/json';
  headers['user-agent'] = USER_AGENT;
  if (options.secret) addSignatureHeaders(headers, options.secret, options.messageId, options.at, options.body);
  return headers;
}

/** Why an answer counts as a failed delivery, or null when it counts as delivered. */
export function answerProblem(statusCode: number | null, error: string | null): string | null {
  if (error) return error;
  if (isSuccessStatus(statusCode)) return null;
  return `HTTP ${statusCode}: not 200, 201, 202 or 204${statusCode === 410 ? ' (410 Gone: the webhook is deactivated)' : ''}`;
}
