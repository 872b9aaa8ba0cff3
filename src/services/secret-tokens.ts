// Random bearer secrets (API keys, session cookies, sign-in links) and the digest stored in their
// place. They are 240-bit random, so a fast hash is enough: nothing to guess, nothing to stretch.
import { createHash, randomBytes } from 'node:crypto';

export function newSecretToken(prefix = ''): string {
  return prefix + randomBytes(30).toString('base64url');
}

export function digestSecret(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
