// The find link: an identifier typed or pasted into `/shipments/find?q=…` resolved to what of the
// account it names. The web layer turns the target into a redirect with deepLinkPath.
import { deepLinkNumber, NO_DEEP_LINK, type DeepLinkTarget } from '../domain/deep-link.ts';
import type { Queryable } from '../store/db.ts';
import { findDeepLinkMatch } from '../store/deep-links.ts';

/** The account's best match for `q` (see findDeepLinkMatch for the order); none for a blank query. */
export async function resolveDeepLink(db: Queryable, accountId: string, q: string): Promise<DeepLinkTarget> {
  const number = deepLinkNumber(q);
  if (number === null) return NO_DEEP_LINK;
  const match = await findDeepLinkMatch(db, accountId, number);
  if (!match) return NO_DEEP_LINK;
  return match.container_id === null
    ? { outcome: match.outcome, shipmentId: match.shipment_id }
    : { outcome: match.outcome, shipmentId: match.shipment_id, containerId: match.container_id };
}
