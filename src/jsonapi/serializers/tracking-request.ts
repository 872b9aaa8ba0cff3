import type { TrackingRequestRow } from '../../store/tracking-requests.ts';
import { iso, toOne, type Resource } from '../document.ts';

export function trackingRequestResource(row: TrackingRequestRow): Resource {
  return {
    id: row.id,
    type: 'tracking_request',
    attributes: {
      request_number: row.request_number,
      request_type: row.request_type,
      scac: row.scac,
      status: row.status,
      failed_reason: row.failed_reason,
      ref_numbers: row.ref_numbers,
      tags: row.tags,
      is_retrying: row.is_retrying,
      retry_count: row.retry_count,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    },
    relationships: {
      tracked_object: toOne('shipment', row.shipment_id),
      customer: toOne('party', row.customer_id),
    },
    links: { self: `/v2/tracking_requests/${row.id}` },
  };
}
