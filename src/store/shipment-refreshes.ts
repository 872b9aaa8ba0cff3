// A shipment's refresh schedule (migration 029): when to look it up next and the lease of the
// worker looking it up, in a narrow table of their own, so that claiming a refresh and recording
// one that found nothing new never write a new version of the wide, much-indexed shipments row.
// Such a check's time is kept here too (last_checked_at, migration 039): the shipment's
// line_tracking_last_attempted_at and _succeeded_at are those of its last lookup that wrote the
// shipment, and what the API shows of them is the later of that and the last check.

/**
 * The time of the shipment's last check recorded on its schedule row alone, as the column
 * line_tracking_last_checked_at of a statement reading the shipments table as `shipments`
 * (ShipmentRow; lineTrackingTimes combines it with the row's own times).
 */
export const lastCheckedColumn = (shipments: string) =>
  `(SELECT last_checked_at FROM shipment_refreshes WHERE shipment_id = ${shipments}.id) AS line_tracking_last_checked_at`;

/** When the line last answered, counting the checks recorded on the schedule row alone: an expression to sort by. */
export const lastSucceededExpression = (shipments: string) =>
  `greatest(${shipments}.line_tracking_last_succeeded_at, (SELECT last_checked_at FROM shipment_refreshes WHERE shipment_id = ${shipments}.id))`;

/**
 * The statement that schedules refreshes and releases their leases: `rows` is a query giving
 * (shipment_id, next_refresh_at) pairs; next_refresh_at null: not scheduled (tracking stopped).
 * A shipment never scheduled before gets its row.
 */
export const scheduleRefreshes = (rows: string) =>
  `INSERT INTO shipment_refreshes (shipment_id, next_refresh_at) ${rows}
   ON CONFLICT (shipment_id) DO UPDATE SET next_refresh_at = EXCLUDED.next_refresh_at, locked_until = NULL`;
