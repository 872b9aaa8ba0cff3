// A container's raw events: what its carrier sent, with the transport event each became.
import type { RejectedEventRow } from '../../store/rejected-events.ts';
import type { RawEventRow } from '../../store/transport-events.ts';
import type { Resource } from '../document.ts';

/**
 * `index` is the event's position in the container's list; `normalisedEvent` is the transport
 * event it became (container.transport.<milestone>), if any.
 */
export function rawEventResource(row: RawEventRow, index: number, containerId: string, normalisedEvent: string | undefined): Resource {
  return {
    id: row.id,
    type: 'raw_event',
    attributes: {
      event: normalisedEvent?.replace(/^container\.transport\./, '') ?? null,
      original_event: `${row.event_type} ${row.code}`,
      estimated: row.classifier !== 'ACT',
      timestamp: row.occurred_at.toISOString(),
      location_locode: row.location_locode,
      index,
      data_source: 'shipping_line',
      published_at: row.published_at.toISOString(),
      created_at: row.received_at.toISOString(),
      payload: row.payload,
      rejected: false,
      rejection: null,
    },
    relationships: { container: { data: { type: 'container', id: containerId } } },
  };
}

/** An event the carrier sent that svc could not read: as sent, with why, and what of it could be read. */
export function rejectedEventResource(row: RejectedEventRow, index: number, containerId: string): Resource {
  return {
    id: row.id,
    type: 'raw_event',
    attributes: {
      event: null,
      original_event: [row.event_type, row.code].filter(Boolean).join(' ') || 'unknown',
      estimated: row.classifier !== null && row.classifier !== 'ACT',
      timestamp: row.occurred_at?.toISOString() ?? null,
      location_locode: null,
      index,
      data_source: row.data_source,
      published_at: row.published_at?.toISOString() ?? null,
      created_at: row.received_at.toISOString(),
      payload: row.payload,
      rejected: true,
      rejection: { reason: row.reason_kind, field: row.field, detail: row.reason },
    },
    relationships: { container: { data: { type: 'container', id: containerId } } },
  };
}
