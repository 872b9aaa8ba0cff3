// A shipment's refresh schedule (migration 029): when to look it up next and the lease of the
// worker looking it up, in a narrow table of their own, so that claiming a refresh and recording
// one that found nothing new never write a new version of the wide, much-indexed shipments row.

/**
 * The statement that schedules refreshes and releases their leases: `rows` is a query giving
 * (shipment_id, next_refresh_at) pairs; next_refresh_at null: not scheduled (tracking stopped).
 * A shipment never scheduled before gets its row.
 */
export const scheduleRefreshes = (rows: string) =>
  `INSERT INTO shipment_refreshes (shipment_id, next_refresh_at) ${rows}
   ON CONFLICT (shipment_id) DO UPDATE SET next_refresh_at = EXCLUDED.next_refresh_at, locked_until = NULL`;
