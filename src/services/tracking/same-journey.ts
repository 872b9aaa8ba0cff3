// The shipment a found tracking request becomes: the one svc already has for that journey in the
// account (tracked again after it stopped, or through another of its numbers), else a new one.
import type { CarrierSnapshot } from '../../domain/tracking/carrier-events.ts';
import { isSameJourney } from '../../domain/tracking/same-journey.ts';
import type { Tx } from '../../store/db.ts';
import { insertShipment, resumeShipment, shipmentsNamedBy, type ShipmentRow } from '../../store/shipments.ts';
import type { TrackingRequestRow } from '../../store/tracking-requests.ts';

export async function shipmentForFoundRequest(tx: Tx, tr: TrackingRequestRow, snapshot: CarrierSnapshot, now: Date): Promise<{ shipment: ShipmentRow; isNew: boolean }> {
  const answer = { request_type: tr.request_type, number: tr.request_number, billOfLadingNumber: snapshot.billOfLadingNumber, bookingNumber: snapshot.bookingNumber };
  const known = (await shipmentsNamedBy(tx, tr.account_id, tr.scac, tr.request_number)).find((s) => isSameJourney(s, answer));
  if (known) return { shipment: await resumeShipment(tx, known.id, tr.ref_numbers, now), isNew: false };
  return { shipment: await insertShipment(tx, { ...tr, at: now }), isNew: true };
}
