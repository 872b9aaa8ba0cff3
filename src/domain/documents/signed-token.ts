// Signed, expiring tokens for the document links svc hands out: a download link, a direct-upload
// URL, a blob's signed id. Each is `<id>.<expires ms>.<HMAC-SHA256>` under the server's secret,
// with its purpose in the signed text, so a token made for one use is refused for another.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type TokenPurpose = 'download' | 'upload' | 'blob';

const mac = (secret: string, purpose: TokenPurpose, id: string, expires: number) =>
  createHmac('sha256', secret).update(`${purpose}\n${id}\n${expires}`).digest('base64url');

export function signToken(secret: string, purpose: TokenPurpose, id: string, expiresAt: Date): string {
  const expires = expiresAt.getTime();
  return `${id}.${expires}.${mac(secret, purpose, id, expires)}`;
}

export type VerifiedToken = { id: string } | { expired: true } | { invalid: true };

/** The id a token was signed for, if it was signed by `secret` for `purpose` and has not expired at `now`. */
export function verifyToken(secret: string, purpose: TokenPurpose, token: string, now: Date): VerifiedToken {
  const match = /^([0-9a-f-]{36})\.(\d{1,16})\.([\w-]{43})$/.exec(token);
  if (!match) return { invalid: true };
  const [, id, expiresText, given] = match;
  const expires = Number(expiresText);
  // Both are 43 base64url characters (the pattern above), as timingSafeEqual needs equal lengths.
  if (!timingSafeEqual(Buffer.from(mac(secret, purpose, id, expires)), Buffer.from(given))) return { invalid: true };
  return now.getTime() >= expires ? { expired: true } : { id };
}
