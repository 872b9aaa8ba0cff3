// Reference records get name-based ids so that every install, and every re-seed,
// gives the same port, carrier or terminal the same UUID: ids handed out by one
// server stay valid after an upgrade and match ids seen on another server.
import { createHash } from 'node:crypto';

/** svc's own namespace for RFC 4122 version-5 ids; never change it, or every reference id changes. */
export const SVC_NAMESPACE = '085dd58e-f4d6-4228-a8c0-875ca12c2e0e';

const NAMESPACE_BYTES = Buffer.from(SVC_NAMESPACE.replace(/-/g, ''), 'hex');

/** Version-5 UUID of `kind:key`; the kind keeps equal keys of different record types apart. */
export function stableId(kind: string, key: string): string {
  const digest = createHash('sha1').update(NAMESPACE_BYTES).update(`${kind}:${key}`, 'utf8').digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
