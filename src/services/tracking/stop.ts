// When tracking a shipment ends by itself (the reference service's stop reasons).
import { withTransaction, type Db, type Queryable } from '../../store/db.ts';
import { domainEvent, type DomainEvent } from '../../domain/events/domain-event.ts';
import { recordEvents } from '../../store/domain-events.ts';
import { findShipments, resumeStoppedShipment, stopShipment, type ShipmentRow } from '../../store/shipments.ts';
import { resumeTrackingRequestsOfShipment, stopTrackingRequestsOfShipment } from '../../store/tracking-requests.ts';
import type { ContainerState, ShipmentState } from '../../domain/tracking/types.ts';
import type { TrackingPolicy } from './policy.ts';

export type StopReason = 'all_containers_terminated' | 'past_arrival_window' | 'no_updates_at_line';

/** What the stop rules read of a shipment's states (an ApplyResult, or a claim's ScheduleFacts). */
export interface StopFacts {
  shipmentState: Pick<ShipmentState, 'pod_ata_at'>;
  containerStates: Pick<ContainerState, 'empty_terminated_at'>[];
}

export function stopReason(policy: TrackingPolicy, applied: StopFacts, lastChangedAt: Date, now: Date): StopReason | null {
  const containers = applied.containerStates;
  if (containers.length > 0 && containers.every((c) => c.empty_terminated_at)) return 'all_containers_terminated';
  const arrived = applied.shipmentState.pod_ata_at;
  if (arrived && now.getTime() - new Date(arrived).getTime() >= policy.stopAfterArrivalMs) return 'past_arrival_window';
  if (now.getTime() - lastChangedAt.getTime() >= policy.stopAfterSilenceMs) return 'no_updates_at_line';
  return null;
}

/** Stops tracking a shipment and its tracking requests, announcing it after `earlier` events; in the caller's transaction. */
export async function stopTracking(tx: Queryable, shipment: Pick<ShipmentRow, 'id' | 'account_id'>, reason: string, now: Date, earlier: DomainEvent[] = []): Promise<void> {
  await stopShipment(tx, shipment.id, reason, now);
  const rows = await stopTrackingRequestsOfShipment(tx, shipment.id, now);
  await recordEvents(tx, [
    ...earlier,
    ...rows.map((r) => domainEvent('tracking_request.tracking_stopped', { account_id: shipment.account_id, reference_id: r.id, shipment_id: shipment.id })),
  ], now);
}

/**
 * The user's stop_tracking / resume_tracking; undefined when the shipment is not the account's.
 * `now` must come from the tracking worker's clock (accelerated in demo mode): the times written
 * here are compared with the worker's, and resuming with an older "last changed" time would have
 * the next refresh stop the shipment at once for want of carrier news.
 */
export async function setTracking(db: Db, accountId: string, id: string, track: boolean, now: Date): Promise<ShipmentRow | undefined> {
  return withTransaction(db, async (tx) => {
    const [shipment] = await findShipments(tx, accountId, [id]);
    if (!shipment) return undefined;
    if (!track) {
      if (!shipment.line_tracking_stopped_at) await stopTracking(tx, shipment, 'cancelled_by_user', now);
    } else if (shipment.line_tracking_stopped_at) {
      await resumeStoppedShipment(tx, shipment.id, now);
      // Its requests count as active again, unless the user has since made a new one for the number.
      await resumeTrackingRequestsOfShipment(tx, shipment.id, now);
    }
    return (await findShipments(tx, accountId, [id]))[0];
  });
}
