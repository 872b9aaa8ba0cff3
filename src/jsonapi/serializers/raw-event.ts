// A container's raw events: what its carrier sent, with the transport event each became.
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
    },
    relationships: { container: { data: { type: 'container', id: containerId } } },
  };
}
