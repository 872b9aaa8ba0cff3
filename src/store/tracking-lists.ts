// SQL for the lists of shipments and containers and their filters. Shipment and container share
// the filters on a journey (status, ports, line, updated_at): a shipment matches on its own
// columns and its containers' statuses, a container on its own status and updated_at and on its
// shipment's ports and line. Migration 008 indexes each of them beside account_id.
import { ACCOUNT, pageOfAccount } from './account-rows.ts';
import type { Conditions, TimeRange } from './conditions.ts';
import type { Queryable } from './db.ts';
import { likeLiteral } from './like.ts';
import { recordedScacs } from './reference.ts';
import type { ContainerRow, ShipmentRow } from './shipments.ts';
import { isUuid } from './uuid.ts';

/** Lists mean "any of"; codes arrive in capitals, as stored. */
export interface JourneyFilters {
  /** Containers' current_status. */
  status?: string[];
  /** The port of lading, of discharge or the destination. */
  port?: string[];
  /** The port of discharge. */
  pod_locode?: string[];
  /** The shipping line, by SCAC or alternative SCAC. */
  line_scac?: string[];
  /** The listed record's own updated_at. */
  updated?: TimeRange;
}

export interface ShipmentFilters extends JourneyFilters {
  /** Part of a number: the shipment's, a reference number or a container's. */
  q?: string;
  /** The tracked, B/L or booking number, exactly. */
  number?: string;
  tracking_stopped?: boolean;
}

export interface ContainerFilters extends JourneyFilters {
  number?: string;
  shipment_id?: string;
}

/**
 * A container's status as the API reports it: the stored one, else new. The expression is the
 * one migration 008 indexes, so write it exactly so.
 */
const containerStatus = (c: string) => `coalesce(${c}.state->>'current_status', 'new')`;

/** What a shipment answers for its ports and line, `s` naming the shipments table. */
function onShipment(where: Conditions, s: string, f: JourneyFilters): Conditions {
  return where
    .when(f.port, (p) => `(${s}.state->>'port_of_lading_locode' = ANY(${p}) OR ${s}.state->>'port_of_discharge_locode' = ANY(${p}) OR ${s}.state->>'destination_locode' = ANY(${p}))`)
    .when(f.pod_locode, (p) => `${s}.state->>'port_of_discharge_locode' = ANY(${p})`)
    .when(f.line_scac, (p) => `${s}.scac = ANY(${p})`);
}

/** The filters with line_scac as shipments record it (an alternative SCAC becomes its line's own). */
async function resolved<F extends JourneyFilters>(db: Queryable, f: F): Promise<F> {
  return f.line_scac ? { ...f, line_scac: await recordedScacs(db, f.line_scac) } : f;
}

export async function listShipments(db: Queryable, accountId: string, filters: ShipmentFilters, limit: number, offset: number): Promise<{ rows: ShipmentRow[]; total: number }> {
  const f = await resolved(db, filters);
  return pageOfAccount(db, 'shipments', accountId, limit, offset, (where) => {
    where
      .when(likeLiteral(f.q) ?? undefined, (p) =>
        `(upper(request_number) LIKE '%' || upper(${p}) || '%' OR upper(bill_of_lading_number) LIKE '%' || upper(${p}) || '%'
         OR upper(booking_number) LIKE '%' || upper(${p}) || '%'
         OR EXISTS (SELECT 1 FROM unnest(ref_numbers) r WHERE upper(r) LIKE '%' || upper(${p}) || '%')
         OR EXISTS (SELECT 1 FROM containers c WHERE c.shipment_id = shipments.id AND c.number LIKE '%' || upper(${p}) || '%'))`)
      .when(f.number, (p) => `upper(${p}) IN (upper(request_number), upper(bill_of_lading_number), upper(booking_number))`)
      .when(f.tracking_stopped, (p) => `(line_tracking_stopped_at IS NOT NULL) = ${p}`)
      .when(f.status, (p) => `id IN (SELECT c.shipment_id FROM containers c WHERE c.account_id = ${ACCOUNT} AND ${containerStatus('c')} = ANY(${p}))`)
      .within('updated_at', f.updated);
    onShipment(where, 'shipments', f);
  });
}

export async function listContainers(db: Queryable, accountId: string, filters: ContainerFilters, limit: number, offset: number): Promise<{ rows: ContainerRow[]; total: number }> {
  // A shipment id that is not a uuid names no shipment; a uuid is compared as one, so the index on shipment_id serves it.
  if (filters.shipment_id !== undefined && !isUuid(filters.shipment_id)) return { rows: [], total: 0 };
  const f = await resolved(db, filters);
  return pageOfAccount(db, 'containers', accountId, limit, offset, (where) =>
    where
      .when(f.number, (p) => `number = upper(regexp_replace(${p}, '[\\s-]', '', 'g'))`)
      .when(f.shipment_id, (p) => `shipment_id = ${p}`)
      .when(f.status, (p) => `${containerStatus('containers')} = ANY(${p})`)
      .within('updated_at', f.updated)
      .whenAny(onShipment(where.nested(), 's', f), (sql) => `shipment_id IN (SELECT s.id FROM shipments s WHERE s.account_id = ${ACCOUNT} AND ${sql})`),
  );
}
