// What an open shipment page hears about its vessels: positions reach svc without a domain event
// (the AIS ingester stores them, or demo time passes one already stored), so the page's stream
// asks now and then whether the newest position of a vessel of the shipment has changed.
import type { Clock } from '../clock.ts';
import type { Queryable } from '../store/db.ts';
import { newestPositionsOfShipment } from '../store/vessel-positions.ts';

/**
 * A text that changes when a vessel of the account's shipment has a newer position at the
 * tracking clock's now ('' when none, or when the shipment is not the account's). Positions
 * stamped after now (demo time not there yet) do not count, as the route map does not draw them.
 */
export function shipmentVesselsSignal(db: Queryable, trackingClock: Clock, accountId: string, shipmentId: string): Promise<string> {
  return newestPositionsOfShipment(db, accountId, shipmentId, trackingClock.now());
}
