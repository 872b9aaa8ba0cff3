// DCSA 2.2 signs each callback with `Notification-Signature: sha256=<hex>`: an HMAC-SHA256,
// keyed with the subscription secret, over the raw request body exactly as received (no
// headers, URL or timestamp). Verify before parsing: re-serialised JSON would not match.
import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER = /^\s*sha256=([0-9a-fA-F]{64})\s*$/;

/** True only for a well-formed sha256 signature of rawBody under secret; false for anything else. */
export function verifyNotificationSignature(rawBody: Buffer, header: string | undefined, secret: Buffer): boolean {
  // An empty key would let anyone sign.
  if (header === undefined || secret.length === 0) return false;
  const match = HEADER.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}
