// Shipments, containers and their events as resources: store reads composed with serializers,
// batched so a page of records costs a fixed number of queries, not one per record.
import type { Resource } from '../jsonapi/document.ts';
import { rawEventResource } from '../jsonapi/serializers/raw-event.ts';
import { containerResource, shipmentResource } from '../jsonapi/serializers/tracking.ts';
import type { Queryable } from '../store/db.ts';
import { companyNamesOf } from '../store/parties.ts';
import { shippingLineNamesOf } from '../store/reference.ts';
import { containersOfShipments, type ContainerRow, type ShipmentRow } from '../store/shipments.ts';
import { eventNamesBySourceEvent, rawEventsOfContainer, transportEventsOfContainers } from '../store/transport-events.ts';

/** Shipment resources with their container ids, shipping line names and customer names. */
export async function shipmentResources(db: Queryable, rows: ShipmentRow[]): Promise<Resource[]> {
  // One after another: `db` may be a transaction's client, which runs one query at a time.
  const containers = await containersOfShipments(db, rows.map((r) => r.id));
  const lineOf = await shippingLineNamesOf(db, [...new Set(rows.map((r) => r.scac))]);
  const customerName = await companyNamesOf(db, [...new Set(rows.map((r) => r.customer_id).filter((id): id is string => !!id))]);
  return rows.map((r) =>
    shipmentResource(r, containers.filter((c) => c.shipment_id === r.id).map((c) => c.id), lineOf.get(r.scac), r.customer_id ? customerName.get(r.customer_id) : null),
  );
}

/** Container resources with their transport event ids, so `include=transport_events` has something to follow. */
export async function containerResources(db: Queryable, rows: ContainerRow[]): Promise<Resource[]> {
  const events = await transportEventsOfContainers(db, rows.map((r) => r.id));
  return rows.map((r) => containerResource(r, events.filter((e) => e.container_id === r.id).map((e) => e.id)));
}

/** What a container's carrier sent, oldest first, each with the transport event it became. */
export async function rawEventResources(db: Queryable, container: ContainerRow): Promise<Resource[]> {
  const raw = await rawEventsOfContainer(db, container.shipment_id, container.number);
  const normalised = await eventNamesBySourceEvent(db, container.id);
  return raw.map((r, index) => rawEventResource(r, index, container.id, normalised.get(r.source_event_id)));
}
