// A tracking request as an assistant reads it: the number asked, where it stands, and the
// shipment it became.
import { z } from 'zod';
import { bool, instant, rec, str, strs, type Rec } from './read.ts';

export const trackingRequestSchema = z.object({
  id: z.string(),
  requestNumber: z.string().nullable(),
  requestType: z.string().nullable(),
  scac: z.string().nullable(),
  status: z.string().nullable().describe('pending, awaiting_manifest, created, failed or tracking_stopped'),
  failedReason: z.string().nullable(),
  isRetrying: z.boolean().nullable(),
  refNumbers: z.array(z.string()),
  shipmentId: z.string().nullable().describe('The shipment created for it (status created)'),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

export function toTrackingRequest(t: Rec): z.input<typeof trackingRequestSchema> {
  const tracked = rec(t.tracked_object);
  return {
    id: String(t.id),
    requestNumber: str(t.request_number),
    requestType: str(t.request_type),
    scac: str(t.scac),
    status: str(t.status),
    failedReason: str(t.failed_reason),
    isRetrying: bool(t.is_retrying),
    refNumbers: strs(t.ref_numbers),
    shipmentId: tracked?.type === 'shipment' ? String(tracked.id) : null,
    createdAt: instant(t.created_at),
    updatedAt: instant(t.updated_at),
  };
}
