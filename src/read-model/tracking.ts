// Shipments, containers and their events as resources: store reads composed with serializers,
// batched so a page of records costs a fixed number of queries, not one per record.
import type { Resource } from '../jsonapi/document.ts';
import { rawEventResource } from '../jsonapi/serializers/raw-event.ts';
import { containerResource, shipmentResource } from '../jsonapi/serializers/tracking.ts';
import type { Queryable } from '../store/db.ts';
import { companyNamesOf } from '../store/parties.ts';
import { shippingLineNamesOf } from '../store/reference.ts';
import { freshAisPortEtas, type AisEtaShown } from '../store/ais-arrivals.ts';
import { containersOfShipments, type ContainerRow, type ShipmentRow } from '../store/shipments.ts';
import { eventNamesBySourceEvent, rawEventsOfContainer, transportEventsOfContainers } from '../store/transport-events.ts';

/**
 * How long an AIS estimate is shown after svc computed it. The AIS pass recomputes it about once
 * an hour of track while the vessel makes way; one that has not been recomputed for this long
 * comes from a vessel gone silent, waiting or drifting, and says nothing reliable any more.
 */
export const AIS_ETA_MAX_AGE_MS = 12 * 3_600_000;

/** The vessel and port whose AIS estimate a shipment shows: only while that vessel carries it at sea (as the AIS pass sees it). */
function aisEtaKey(r: ShipmentRow): { imo: string; locode: string } | null {
  const s = r.state;
  const imo = s.pod_vessel_imo, locode = s.port_of_discharge_locode;
  if (typeof imo !== 'string' || typeof locode !== 'string' || !s.pol_atd_at || s.pod_ata_at || r.line_tracking_stopped_at) return null;
  return { imo, locode };
}

/**
 * Shipment resources with their container ids, shipping line names, customer names and AIS
 * estimates; `now` is the tracking clock's time, which an estimate's age is measured on.
 */
export async function shipmentResources(db: Queryable, rows: ShipmentRow[], now: Date): Promise<Resource[]> {
  // One after another: `db` may be a transaction's client, which runs one query at a time.
  const containers = await containersOfShipments(db, rows.map((r) => r.id));
  const lineOf = await shippingLineNamesOf(db, [...new Set(rows.map((r) => r.scac))]);
  const customerName = await companyNamesOf(db, [...new Set(rows.map((r) => r.customer_id).filter((id): id is string => !!id))]);
  const aisKeys = rows.map(aisEtaKey);
  const atSea = aisKeys.filter((k) => k !== null);
  const aisEtas = await freshAisPortEtas(db, atSea, new Date(now.getTime() - AIS_ETA_MAX_AGE_MS));
  const aisEtaOf = (k: { imo: string; locode: string } | null): AisEtaShown | null => (k && aisEtas.get(`${k.imo}|${k.locode}`)) ?? null;
  return rows.map((r, i) =>
    shipmentResource(r, containers.filter((c) => c.shipment_id === r.id).map((c) => c.id), lineOf.get(r.scac), r.customer_id ? customerName.get(r.customer_id) : null, aisEtaOf(aisKeys[i])),
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
