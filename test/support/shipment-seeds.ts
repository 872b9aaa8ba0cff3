// Shipments as tracking leaves them, written straight to the store: ports and times in the state,
// containers with their status and holds, the last lookup, a stop. For the web pages' tests, which
// need many varied shipments quickly rather than a carrier's whole journey.
import type { Queryable } from '../../src/store/db.ts';
import { insertShipment, markLookupFailed, markLookupSucceeded, saveShipmentState, stopShipment, upsertContainer } from '../../src/store/shipments.ts';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

export interface ShipmentSeed {
  number: string;
  scac: string;
  booking?: string;
  /** [UN/LOCODE, name] */
  pol?: [string, string];
  /** [UN/LOCODE, name, IANA zone] */
  pod?: [string, string, string];
  /** Days from now. */
  eta?: number;
  ata?: number;
  refs?: string[];
  containers?: { number: string; status: string; holds?: string[] }[];
  stopped?: boolean;
  checkedMinutesAgo?: number;
  failedMinutesAgo?: number;
}

let created = 0;

/** The shipment's id; shipments seeded later are newer (a minute apart, ten days before `now`). */
export async function seedShipment(db: Queryable, accountId: string, now: Date, s: ShipmentSeed): Promise<string> {
  const at = new Date(now.getTime() - 10 * DAY + ++created * MINUTE);
  const row = await insertShipment(db, { account_id: accountId, scac: s.scac, request_type: 'bill_of_lading', request_number: s.number, ref_numbers: s.refs ?? [], customer_id: null, at });
  for (const c of s.containers ?? []) {
    const holds = (c.holds ?? []).map((name) => ({ name, status: 'hold', description: null }));
    await upsertContainer(db, { account_id: accountId, shipment_id: row.id, number: c.number, ref_numbers: [], state: { current_status: c.status, holds_at_pod_terminal: holds }, at });
  }
  const iso = (days?: number) => (days === undefined ? null : new Date(now.getTime() + days * DAY).toISOString());
  const state = {
    port_of_lading_locode: s.pol?.[0] ?? null,
    port_of_lading_name: s.pol?.[1] ?? null,
    port_of_discharge_locode: s.pod?.[0] ?? null,
    port_of_discharge_name: s.pod?.[1] ?? null,
    pod_timezone: s.pod?.[2] ?? null,
    pod_eta_at: iso(s.eta ?? s.ata),
    pod_ata_at: iso(s.ata),
  };
  await saveShipmentState(db, row.id, { state, billOfLadingNumber: null, bookingNumber: s.booking ?? null, at });
  if (s.checkedMinutesAgo !== undefined) await markLookupSucceeded(db, row.id, new Date(now.getTime() - s.checkedMinutesAgo * MINUTE), at);
  if (s.failedMinutesAgo !== undefined) await markLookupFailed(db, row.id, new Date(now.getTime() - s.failedMinutesAgo * MINUTE), now);
  if (s.stopped) await stopShipment(db, row.id, 'cancelled_by_user', at);
  return row.id;
}
