// JSON:API resources of the events webhooks announce besides transport events: ETA changes of a
// shipment, terminal-data changesets of a container, and a container's creation.
import type { ContainerRow } from '../../store/shipments.ts';
import type { ContainerUpdatedEventRow, EstimatedEventRow } from '../../store/transport-events.ts';
import { iso, toOne, type Resource } from '../document.ts';
import { locationId, vesselId, withEventOrigin } from './tracking.ts';

export function estimatedEventResource(row: EstimatedEventRow): Resource {
  return {
    id: row.id,
    type: 'estimated_event',
    attributes: withEventOrigin(
      { event: row.event, estimated_timestamp: iso(row.estimated_timestamp), previous_estimated_timestamp: iso(row.previous_timestamp), voyage_number: row.voyage_number },
      row,
    ),
    relationships: {
      shipment: toOne('shipment', row.shipment_id),
      port: toOne('port', locationId(row.location_locode)),
      vessel: toOne('vessel', vesselId(row.vessel_imo)),
    },
    links: { self: `/v2/estimated_events/${row.id}` },
  };
}

export function containerUpdatedEventResource(row: ContainerUpdatedEventRow): Resource {
  return {
    id: row.id,
    type: 'container_updated_event',
    attributes: {
      // attribute → [before, after]
      changeset: row.changeset,
      timestamp: iso(row.timestamp),
      timezone: row.timezone,
      data_source: row.data_source,
      created_at: iso(row.created_at),
    },
    relationships: {
      container: toOne('container', row.container_id),
      shipment: toOne('shipment', row.shipment_id),
      terminal: toOne('terminal', row.terminal_id),
    },
    links: { self: `/v2/container_updated_events/${row.id}` },
  };
}

/** A container's creation (container.created): the container's own id, its time when svc recorded it; no place, so no time zone. */
export function containerCreatedEventResource(row: Pick<ContainerRow, 'id' | 'shipment_id' | 'created_at'>): Resource {
  return {
    id: row.id,
    type: 'container_created_event',
    attributes: { timestamp: iso(row.created_at), timezone: null },
    relationships: { container: toOne('container', row.id), shipment: toOne('shipment', row.shipment_id) },
  };
}
