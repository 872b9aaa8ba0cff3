// Shipments, containers and their events as resources: store reads composed with serializers,
// batched so a page of records costs a fixed number of queries, not one per record, and the
// independent ones run at once.
import type { Resource } from '../jsonapi/document.ts';
import type { LoadContext } from '../jsonapi/include.ts';
import { rawEventResource, rejectedEventResource } from '../jsonapi/serializers/raw-event.ts';
import { toMany } from '../jsonapi/document.ts';
import { containerResource, EVENTS_FILLED_BY_INCLUDE, shipmentResource, transportEventResource } from '../jsonapi/serializers/tracking.ts';
import { inParallel } from '../store/concurrent.ts';
import type { Queryable } from '../store/db.ts';
import { companyNamesOf } from '../store/parties.ts';
import { shippingLineNamesOf } from '../store/reference.ts';
import { freshAisPortEtas, type AisEtaShown } from '../store/ais-arrivals.ts';
import { freshnessOf, freshnessOfContainers, freshnessOfShipments, type DataFreshness } from '../store/freshness.ts';
import { containerIdsOfShipments, findContainers, type ContainerRow, type ShipmentRow } from '../store/shipments.ts';
import { shownContainers, shownShipments, transportEventIdsOf } from '../store/tracking-reads.ts';
import { rejectedEventsOfContainer } from '../store/rejected-events.ts';
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

const NEVER = { checked_at: null, changed_at: null };

/** A record's freshness as read beside it; none for a record deleted between the two reads. */
const freshnessIn = (read: Map<string, DataFreshness>, id: string): DataFreshness => read.get(id) ?? { shipping_line: NEVER, terminal: NEVER, ais: NEVER };

const aisSince = (now: Date) => new Date(now.getTime() - AIS_ETA_MAX_AGE_MS);

/**
 * Shipment resources with their container ids, shipping line names, customer names and AIS
 * estimates; `now` is the tracking clock's time, which an estimate's age is measured on.
 */
export async function shipmentResources(db: Queryable, rows: ShipmentRow[], now: Date): Promise<Resource[]> {
  const aisKeys = rows.map(aisEtaKey);
  const ids = rows.map((r) => r.id);
  const [containers, lineOf, customerName, aisEtas, freshness] = await inParallel(db, [
    () => containerIdsOfShipments(db, ids),
    () => shippingLineNamesOf(db, [...new Set(rows.map((r) => r.scac))]),
    () => companyNamesOf(db, [...new Set(rows.map((r) => r.customer_id).filter((id): id is string => !!id))]),
    () => freshAisPortEtas(db, aisKeys.filter((k) => k !== null), aisSince(now)),
    () => freshnessOfShipments(db, ids),
  ] as const);
  const aisEtaOf = (k: { imo: string; locode: string } | null): AisEtaShown | null => (k && aisEtas.get(`${k.imo}|${k.locode}`)) ?? null;
  return rows.map((r, i) =>
    shipmentResource(r, containers.filter((c) => c.shipment_id === r.id).map((c) => c.id), freshnessIn(freshness, r.id), lineOf.get(r.scac), r.customer_id ? customerName.get(r.customer_id) : null, aisEtaOf(aisKeys[i])),
  );
}

/** The account's shipments with these ids as resources: one statement, whatever they show. */
export async function shipmentResourcesById({ db, accountId, now }: LoadContext, ids: string[]): Promise<Resource[]> {
  return (await shownShipments(db, accountId, ids, aisSince(now))).map((r) =>
    shipmentResource(r, r.container_ids, freshnessOf(r.data_freshness), r.line_name === null ? undefined : { name: r.line_name, short_name: r.line_short_name! }, r.customer_name, aisEtaKey(r) && r.ais_eta_at && r.ais_computed_at ? { eta_at: r.ais_eta_at, computed_at: r.ais_computed_at } : null),
  );
}

/** Container resources with their transport event ids, so `include=transport_events` has something to follow. */
export async function containerResources(db: Queryable, rows: ContainerRow[]): Promise<Resource[]> {
  const ids = rows.map((r) => r.id);
  const [eventIds, freshness] = await inParallel(db, [() => transportEventIdsOf(db, ids), () => freshnessOfContainers(db, ids)] as const);
  return rows.map((r) => containerResource(r, freshnessIn(freshness, r.id), eventIds.get(r.id) ?? []));
}

/**
 * The account's containers with these ids as resources, with their events' ids: one statement.
 * When the include that follows reads their transport events (containerEventsAttached), the
 * containers are read alone and the ids come with the events.
 */
export async function containerResourcesById({ db, accountId }: LoadContext, ids: string[], filledByInclude?: ReadonlySet<string>): Promise<Resource[]> {
  if (filledByInclude?.has('transport_events')) {
    const [rows, freshness] = await inParallel(db, [() => findContainers(db, accountId, ids), () => freshnessOfContainers(db, ids)] as const);
    return rows.map((r) => containerResource(r, freshnessIn(freshness, r.id), EVENTS_FILLED_BY_INCLUDE));
  }
  return (await shownContainers(db, accountId, ids)).map((r) => containerResource(r, freshnessOf(r.data_freshness), r.transport_event_ids));
}

/**
 * include=transport_events on containers read without their events' ids: the events, read by
 * container in their listed order, fill in each container's linkage. One statement, as reading
 * the ids with the containers and then the events by id would take two.
 */
export async function containerEventsAttached({ db }: LoadContext, records: Resource[]): Promise<Resource[]> {
  const events = await transportEventsOfContainers(db, records.map((r) => r.id));
  for (const record of records) {
    const ids: string[] = [];
    for (const e of events) if (e.container_id === record.id) ids.push(e.id);
    (record.relationships ??= {}).transport_events = toMany('transport_event', ids);
  }
  return events.map(transportEventResource);
}

/**
 * What a container's carrier sent, oldest first, each with the transport event it became; then
 * the events svc could not read, in the order received, each with why.
 */
export async function rawEventResources(db: Queryable, container: ContainerRow): Promise<Resource[]> {
  const [raw, normalised, rejected] = await inParallel(db, [
    () => rawEventsOfContainer(db, container.shipment_id, container.number),
    () => eventNamesBySourceEvent(db, container.id),
    () => rejectedEventsOfContainer(db, container.shipment_id, container.number),
  ] as const);
  return [
    ...raw.map((r, index) => rawEventResource(r, index, container.id, normalised.get(r.source_event_id))),
    ...rejected.map((r, i) => rejectedEventResource(r, raw.length + i, container.id)),
  ];
}
