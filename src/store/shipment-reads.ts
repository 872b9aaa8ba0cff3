// Shipments read to be shown: each row with what its resource names beside it (shipping line,
// customer, container ids, the AIS estimate of its arrival), joined in one statement instead of
// one statement per related table.
import type { AisEtaShown } from './ais-arrivals.ts';
import type { Queryable } from './db.ts';
import type { ShipmentRow } from './shipments.ts';
import { isUuid } from './uuid.ts';

export interface ShownShipmentRow extends ShipmentRow {
  line_name: string | null;
  line_short_name: string | null;
  customer_name: string | null;
  /** Its containers' ids, by container number. */
  container_ids: string[];
  /**
   * The estimate for the vessel and port the shipment's state names, computed at or after the
   * date given; whether the shipment shows it (only while at sea) is the caller's to judge.
   */
  ais_eta: AisEtaShown | null;
}

/** The account's shipments with these ids, joined to what they show; ids that are not uuids find nothing. */
export async function shownShipments(db: Queryable, accountId: string, ids: string[], aisComputedSince: Date): Promise<ShownShipmentRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<ShipmentRow & Omit<ShownShipmentRow, 'ais_eta'> & { ais_eta_at: Date | null; ais_computed_at: Date | null }>(
    `SELECT s.*, l.name AS line_name, l.short_name AS line_short_name, p.company_name AS customer_name,
            ARRAY(SELECT c.id FROM containers c WHERE c.shipment_id = s.id ORDER BY c.number) AS container_ids,
            e.eta_at AS ais_eta_at, e.computed_at AS ais_computed_at
       FROM shipments s
       LEFT JOIN shipping_lines l ON l.scac = s.scac
       LEFT JOIN parties p ON p.id = s.customer_id
       LEFT JOIN ais_port_etas e ON e.vessel_imo = s.state->>'pod_vessel_imo' AND e.port_locode = s.state->>'port_of_discharge_locode'
                                AND e.computed_at >= $3
      WHERE s.account_id = $1 AND s.id = ANY($2::uuid[])`,
    [accountId, valid, aisComputedSince],
  );
  return rows.map(({ ais_eta_at, ais_computed_at, ...row }) => ({
    ...row,
    ais_eta: ais_eta_at && ais_computed_at ? { eta_at: ais_eta_at, computed_at: ais_computed_at } : null,
  }));
}
