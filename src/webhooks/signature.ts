// How svc signs a delivery. Two signatures over the exact body bytes, both keyed by the webhook's
// secret:
// - X-SVC-Webhook-Signature: lowercase hex HMAC-SHA256 of the body, as the reference service
//   sends it, so receivers written for it verify unchanged;
// - the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature), whose
//   signature also covers the message id and the time, so a receiver using a Standard Webhooks
//   library rejects replays and stale deliveries. Those libraries read the secret as base64 (with
//   an optional whsec_ prefix); svc's hex secrets are valid base64, so the key is that decoding.
import { createHmac } from 'node:crypto';

const SIGNATURE_HEADER = 'x-svc-webhook-signature';

// A webhook's two keys, decoded once per secret rather than once per delivery (a bounded cache,
// dropped whole when full; it lives in the worker's memory, which holds the secrets anyway).
// Plain bytes, not KeyObjects: createHmac starts about 1.3 µs sooner from bytes, twice a delivery.
const keys = new Map<string, { legacy: Buffer; standard: Buffer }>();
function keysOf(secret: string): { legacy: Buffer; standard: Buffer } {
  let k = keys.get(secret);
  if (!k) {
    if (keys.size >= 10_000) keys.clear();
    k = { legacy: Buffer.from(secret, 'utf8'), standard: Buffer.from(secret.replace(/^whsec_/, ''), 'base64') };
    keys.set(secret, k);
  }
  return k;
}

/**
 * Adds every signature header of one delivery to `headers`; a body given as bytes is not encoded
 * again for each signature. Written into the request's own headers: no object per signature.
 */
export function addSignatureHeaders(headers: Record<string, string>, secret: string, messageId: string, at: Date, body: string | Buffer): void {
  const k = keysOf(secret);
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  headers[SIGNATURE_HEADER] = createHmac('sha256', k.legacy).update(body).digest('hex');
  headers['webhook-id'] = messageId;
  headers['webhook-timestamp'] = timestamp;
  headers['webhook-signature'] = `v1,${createHmac('sha256', k.standard).update(`${messageId}.${timestamp}.`).update(body).digest('base64')}`;
}
