// What the diff of a lookup starts from, read in one statement rather than four: the carrier
// events stored, the containers, the milestones already recorded and the places the answer names.
import type { CarrierEvent } from '../domain/tracking/carrier-events.ts';
import type { Queryable } from './db.ts';
import { carrierEventOf } from './events.ts';

export interface StoredTracking {
  carrierEvents: CarrierEvent[];
  containers: { id: string; number: string; state: Record<string, unknown> }[];
  /** The milestones recorded, by key, with the event each is recorded under and its source. */
  milestones: { key: string; event: string; data_source: string }[];
  places: Map<string, { name: string; time_zone: string | null }>;
}

/**
 * Milestones are found through the shipment's containers: (container_id, key) is indexed, and
 * every milestone belongs to a container of its shipment, so no read here grows with the table.
 */
/** `locodes`: those of the answer's events; the stored events' are added, as the diff sees both. */
export async function storedTrackingOf(db: Queryable, shipmentId: string, locodes: string[]): Promise<StoredTracking> {
  const { rows } = await db.query<{
    raw: Record<string, unknown>[];
    containers: StoredTracking['containers'];
    milestones: StoredTracking['milestones'];
    places: { locode: string; name: string; time_zone: string | null }[];
  }>(
    `SELECT (SELECT coalesce(json_agg(normalized), '[]') FROM raw_events WHERE shipment_id = $1) AS raw,
            (SELECT coalesce(json_agg(json_build_object('id', id, 'number', number, 'state', state) ORDER BY number), '[]')
               FROM containers WHERE shipment_id = $1) AS containers,
            (SELECT coalesce(json_agg(json_build_object('key', key, 'event', event, 'data_source', data_source)), '[]')
               FROM transport_events WHERE container_id IN (SELECT id FROM containers WHERE shipment_id = $1)) AS milestones,
            (SELECT coalesce(json_agg(json_build_object('locode', locode, 'name', name, 'time_zone', time_zone)), '[]')
               FROM locations
              WHERE locode IN (SELECT unnest($2::text[]) UNION SELECT normalized->>'locode' FROM raw_events WHERE shipment_id = $1)) AS places`,
    [shipmentId, locodes],
  );
  const r = rows[0];
  return {
    carrierEvents: r.raw.map(carrierEventOf),
    containers: r.containers,
    milestones: r.milestones,
    places: new Map(r.places.map((p) => [p.locode, { name: p.name, time_zone: p.time_zone }])),
  };
}
