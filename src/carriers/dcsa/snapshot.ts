// What one lookup's events say about the shipment as a whole: its containers, its booking and
// B/L numbers, and whether the booking was cancelled.
import type { CarrierEvent, CarrierSnapshot, SnapshotContainer } from '../../domain/tracking/carrier-events.ts';
import type { LookupRequest } from '../types.ts';

/** The snapshot of a lookup, without terminal data (the connector adds it). */
export function buildSnapshot(request: LookupRequest, events: CarrierEvent[], fetchedAt: Date): CarrierSnapshot {
  return {
    scac: request.scac,
    // The number asked about is the one the user tracks; the other comes from the events.
    billOfLadingNumber: request.numberType === 'bill_of_lading' ? request.number : firstDocument(events, 'TRD'),
    bookingNumber: request.numberType === 'booking_number' ? request.number : firstDocument(events, 'BKG'),
    containers: containersOf(request, events),
    events,
    terminal: [],
    fetchedAt,
  };
}

/**
 * Containers in the order the carrier first names them (a container asked about comes first,
 * even when only shipment-level events came back). Size-type and seal come from the most
 * recently published equipment event that gives them, since seals change (RSEA) and carriers
 * correct ISO codes. T&T carries no weights.
 */
function containersOf(request: LookupRequest, events: CarrierEvent[]): SnapshotContainer[] {
  const containers = new Map<string, SnapshotContainer>();
  const numbers = [
    ...(request.numberType === 'container' ? [request.number] : []),
    ...events.flatMap((e) => (e.equipmentReference ? [e.equipmentReference] : [])),
  ];
  for (const number of numbers) {
    if (!containers.has(number)) containers.set(number, { number, isoEquipmentCode: null, sealNumber: null, weightKg: null });
  }
  const newestFirst = events.filter((e) => e.type === 'EQUIPMENT').sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
  for (const event of newestFirst) {
    const container = event.equipmentReference ? containers.get(event.equipmentReference) : undefined;
    if (!container) continue;
    container.isoEquipmentCode ??= event.isoEquipmentCode;
    container.sealNumber ??= event.seals[0] ?? null;
  }
  return [...containers.values()];
}

function firstDocument(events: CarrierEvent[], type: string): string | null {
  for (const event of events) {
    const found = event.documentReferences.find((d) => d.type === type);
    if (found) return found.value;
  }
  return null;
}

// CANC: Cancelled (2.3 and 3.0); CACF: Cancellation Confirmed (3.0).
const CANCELLED = new Set(['CANC', 'CACF']);

/** The actual shipment event cancelling this booking (any booking when its number is unknown), if any. */
export function bookingCancellation(events: CarrierEvent[], bookingNumber: string | null): CarrierEvent | undefined {
  return events.find(
    (e) =>
      e.type === 'SHIPMENT' &&
      e.classifier === 'ACT' &&
      CANCELLED.has(e.code) &&
      e.documentType === 'BKG' &&
      (bookingNumber === null || e.documentReferences.some((d) => d.type === 'BKG' && d.value === bookingNumber)),
  );
}
