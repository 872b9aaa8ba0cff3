// The find link (`/shipments/find?q=…`): what a typed or pasted identifier is compared as, what it
// resolved to, and the app page that shows it. Which rows match is the store's (store/deep-links.ts).
import { normaliseContainerNumber } from './carrier-numbers.ts';

/**
 * How the identifier matched, best first; the store tries them in this order.
 * - container: a container number, exactly;
 * - shipment: a shipment's number (B/L, booking or the number it was tracked by) or a reference
 *   number (of the shipment, of one of its containers or of a tracking request that became it), exactly;
 * - partial_container: part of a container number;
 * - partial_shipment: part of a shipment's number or of a reference number;
 * - none: nothing of the account's matched.
 */
export type DeepLinkOutcome = 'container' | 'shipment' | 'partial_container' | 'partial_shipment' | 'none';

export interface DeepLinkTarget {
  outcome: DeepLinkOutcome;
  /** Set unless the outcome is none. */
  shipmentId?: string;
  /** The container to select: the one whose number or reference number matched. */
  containerId?: string;
}

export const NO_DEEP_LINK: DeepLinkTarget = Object.freeze({ outcome: 'none' });

/**
 * The identifier as every number is compared: case, blanks and dashes are no part of it, on both
 * sides. That is the container number's own rule (ISO 6346 "MSCU 123456-7" is MSCU1234567), and the
 * search of store/search.ts already compares B/L, booking and reference numbers this way; one rule
 * for all numbers (bare_number in SQL, migration 013) means a B/L pasted as "MAEU-123 456" finds
 * MAEU123456 too. Null when nothing is left (empty, blanks or dashes only): such a query names
 * nothing and would match everything.
 */
export function deepLinkNumber(q: string): string | null {
  const number = normaliseContainerNumber(q);
  return number === '' ? null : number;
}

/**
 * The app's path for a target: the shipment page, with its container selected when one matched, or
 * the shipments list with the query, as typed less surrounding blanks, in its search box.
 */
export function deepLinkPath(target: DeepLinkTarget, q: string): string {
  if (target.outcome === 'none' || target.shipmentId === undefined) return `/shipments?q=${encodeURIComponent(q.trim())}`;
  const page = `/shipments/${encodeURIComponent(target.shipmentId)}`;
  return target.containerId === undefined ? page : `${page}?container=${encodeURIComponent(target.containerId)}`;
}
