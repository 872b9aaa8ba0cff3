// A lookup's tracking state in the database: what the diff starts from (the carrier events
// stored, the containers, the milestones already recorded and the places they name), read in one
// statement, for due shipments in the statement that claims them; and what a lookup writes, in
// one statement too: containers, events, vessels, the shipment row and the outbox.
import type { CarrierEvent } from '../domain/tracking/carrier-events.ts';
import type { ContainerState, ShipmentState } from '../domain/tracking/types.ts';
import type { DomainEvent } from '../domain/events/domain-event.ts';
import { EVENTS } from '../domain/events/vocabulary.ts';
import type { Queryable } from './db.ts';
import { recordingCtes } from './domain-events.ts';
import { announcedEvents, carrierEventOf, trackingEventCtes, trackingEventParams, type TrackingEvents } from './events.ts';
import { insertNewVessels, vesselColumns, type NamedVessel } from './learned-vessels.ts';
import { claimDueSql } from './leases.ts';
import { scheduleRefreshes } from './shipment-refreshes.ts';
import type { ShipmentRow } from './shipments.ts';

export interface StoredTracking {
  carrierEvents: CarrierEvent[];
  containers: { id: string; number: string; state: Record<string, unknown> }[];
  /** The milestones recorded, by key, with the event each is recorded under, its source and time. */
  milestones: { key: string; event: string; data_source: string; timestamp: string }[];
  places: Map<string, { name: string; time_zone: string | null }>;
}

interface StoredColumns {
  raw: Record<string, unknown>[];
  containers: StoredTracking['containers'];
  milestones: StoredTracking['milestones'];
  places: { locode: string; name: string; time_zone: string | null }[];
}

/** The containers stored for a shipment, as a json column of a statement that names it `id`. */
const storedContainers = (id: string) =>
  `(SELECT coalesce(json_agg(json_build_object('id', id, 'number', number, 'state', state) ORDER BY number), '[]') FROM containers WHERE shipment_id = ${id})`;

/**
 * The stored state of the shipment `id` names, as four json columns. Milestones are found
 * through the shipment's containers: (container_id, key) is indexed, and every milestone belongs
 * to a container of its shipment, so no read here grows with the table. `locodes`: those of the
 * answer's events; the stored events' are added, as the diff sees both. Containers and places
 * are matched as arrays (= ANY (ARRAY(…))), which the planner probes the indexes with, whatever
 * its row estimates: as joins, a table with stale statistics was read whole once per shipment.
 */
const storedColumns = (id: string, locodes: string) =>
  `(SELECT coalesce(json_agg(normalized), '[]') FROM raw_events WHERE shipment_id = ${id}) AS raw,
   ${storedContainers(id)} AS containers,
   (SELECT coalesce(json_agg(json_build_object('key', key, 'event', event, 'data_source', data_source, 'timestamp', timestamp)), '[]')
      FROM transport_events WHERE container_id = ANY (ARRAY(SELECT id FROM containers WHERE shipment_id = ${id}))) AS milestones,
   (SELECT coalesce(json_agg(json_build_object('locode', locode, 'name', name, 'time_zone', time_zone)), '[]')
      FROM locations
     WHERE locode = ANY (ARRAY(SELECT unnest(${locodes}::text[]) UNION SELECT normalized->>'locode' FROM raw_events WHERE shipment_id = ${id}))) AS places`;

const storedOf = (r: StoredColumns): StoredTracking => ({
  carrierEvents: r.raw.map(carrierEventOf),
  containers: r.containers,
  milestones: r.milestones,
  places: new Map(r.places.map((p) => [p.locode, { name: p.name, time_zone: p.time_zone }])),
});

/** What the diff of a lookup of the shipment starts from. */
export async function storedTrackingOf(db: Queryable, shipmentId: string, locodes: string[]): Promise<StoredTracking> {
  const { rows } = await db.query<StoredColumns>(`SELECT ${storedColumns('$1', '$2')}`, [shipmentId, locodes]);
  return storedOf(rows[0]);
}

/** What a refresh's diff reads of the shipment row itself, beside its stored tracking. */
export type StoredShipment = Pick<ShipmentRow, 'state' | 'ref_numbers'>;

/**
 * What the diffs of lookups of these shipments start from, in one statement (the worker groups
 * the reads of the lookups whose answers are new while one is on its way); in the order given.
 * The places named are those of the stored events (planSnapshot adds those only the answer names).
 */
export async function storedTrackingOfShipments(db: Queryable, shipmentIds: string[]): Promise<{ shipment: StoredShipment; stored: StoredTracking }[]> {
  const { rows } = await db.query<{ stored: StoredColumns & { shipment: StoredShipment } }>(
    `SELECT (SELECT to_json(s) FROM (SELECT ${storedColumns('k.id', "'{}'")},
              (SELECT json_build_object('state', state, 'ref_numbers', ref_numbers) FROM shipments WHERE id = k.id) AS shipment) AS s) AS stored
       FROM unnest($1::uuid[]) WITH ORDINALITY AS k(id, ord) ORDER BY k.ord`,
    [shipmentIds],
  );
  return rows.map((r) => ({ shipment: r.stored.shipment, stored: storedOf(r.stored) }));
}

/**
 * What the schedule's rules read of a shipment's stored states: when to look next (the phase of
 * the journey), whether tracking stops, and which boxes to ask the terminal about.
 */
export interface ScheduleFacts {
  journey: Pick<ShipmentState, 'pol_atd_at' | 'pod_eta_at' | 'pod_ata_at'>;
  boxes: { number: string; state: Pick<ContainerState, 'pod_full_out_at' | 'final_destination_full_out_at' | 'empty_terminated_at'> }[];
}

/** A shipment claimed for a refresh: what a lookup asks with and what an answer applied already needs (a check), no more. */
export type ClaimedRefresh = Pick<
  ShipmentRow,
  'id' | 'account_id' | 'scac' | 'request_type' | 'request_number' | 'carrier_answer_digest' | 'line_tracking_last_succeeded_at' | 'line_tracking_last_checked_at' | 'line_tracking_last_changed_at'
> &
  ScheduleFacts;

const member = (state: string, name: string) => `'${name}', ${state}->'${name}'`;
// Prepared, as claimDue is (leases.ts); its text made once.
const CLAIM_REFRESHES = `WITH claimed AS (${claimDueSql('shipment_refreshes')})
  SELECT sh.id, sh.account_id, sh.scac, sh.request_type, sh.request_number, sh.carrier_answer_digest,
         sh.line_tracking_last_succeeded_at, c.last_checked_at AS line_tracking_last_checked_at, sh.line_tracking_last_changed_at,
         json_build_object(${['pol_atd_at', 'pod_eta_at', 'pod_ata_at'].map((m) => member('sh.state', m)).join(', ')}) AS journey,
         (SELECT coalesce(json_agg(json_build_object('number', number, 'state', json_build_object(${['pod_full_out_at', 'final_destination_full_out_at', 'empty_terminated_at'].map((m) => member('state', m)).join(', ')})) ORDER BY number), '[]')
            FROM containers WHERE shipment_id = sh.id) AS boxes
    FROM claimed c JOIN shipments sh ON sh.id = c.shipment_id`;

/**
 * Claims up to `limit` shipments due for a refresh (claimDueSql on shipment_refreshes: leased
 * until `leaseUntil`), each with what a lookup asks with and what a check needs (ScheduleFacts:
 * a few members of its states, not the states themselves). Most answers are the one applied
 * already; the rest of what is stored (the states, events, milestones, places) is read only for
 * an answer that is new (storedTrackingOfShipments), while the lease keeps other writers away.
 */
export async function claimDueRefreshes(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedRefresh[]> {
  const { rows } = await db.query<ClaimedRefresh>(CLAIM_REFRESHES, [now, leaseUntil, limit]);
  return rows;
}

/** What a successful lookup writes on the shipment row (besides the lease it releases). */
export interface LookupRow {
  state: object;
  billOfLadingNumber: string | null;
  bookingNumber: string | null;
  /** The moment svc asked: the next incremental lookup asks for what the carrier published since. */
  askedAt: Date;
  /** null: tracking stops (stopShipment records why). */
  nextRefreshAt: Date | null;
  /** The digest of the carrier's answer (carrier_answer_digest), null when the connector gave none. */
  answerDigest: string | null;
}

/** SQL expressions of what a lookup writes on the shipment row. */
interface LookupValues {
  state: string;
  billOfLadingNumber: string;
  bookingNumber: string;
  askedAt: string;
  at: string;
  lastChangedAt: string;
  answerDigest: string;
}

/** The SET clause of a lookup's shipment row (its schedule and lease are written by scheduleRefreshes). */
const lookupSet = (v: LookupValues) =>
  `state = ${v.state}, bill_of_lading_number = coalesce(${v.billOfLadingNumber}, bill_of_lading_number), booking_number = coalesce(${v.bookingNumber}, booking_number),
   updated_at = ${v.at}, line_tracking_last_attempted_at = ${v.askedAt}, line_tracking_last_succeeded_at = ${v.askedAt},
   line_tracking_last_changed_at = ${v.lastChangedAt}, carrier_answer_digest = ${v.answerDigest}`;

export type SavedLookup = LookupRow & { shipmentId: string; at: Date; lastChangedAt: Date };

/**
 * What successful lookups write on their shipment rows, in one statement however many (the
 * worker groups the quiet answers that finish while a statement is on its way); leases released.
 */
export async function saveLookups(db: Queryable, lookups: SavedLookup[]): Promise<void> {
  if (lookups.length === 0) return;
  await db.query(
    `WITH v AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, state jsonb, bl text, booking text, asked_at timestamptz, next_refresh_at timestamptz, at timestamptz, last_changed_at timestamptz, digest text)
     ), saved AS (
       UPDATE shipments SET ${lookupSet({ state: 'v.state', billOfLadingNumber: 'v.bl', bookingNumber: 'v.booking', askedAt: 'v.asked_at', at: 'v.at', lastChangedAt: 'v.last_changed_at', answerDigest: 'v.digest' })}
         FROM v WHERE shipments.id = v.id
     )
     ${scheduleRefreshes('SELECT id, next_refresh_at FROM v')}`,
    [
      JSON.stringify(
        lookups.map((l) => ({ id: l.shipmentId, state: l.state, bl: l.billOfLadingNumber, booking: l.bookingNumber, asked_at: l.askedAt, next_refresh_at: l.nextRefreshAt, at: l.at, last_changed_at: l.lastChangedAt, digest: l.answerDigest })),
      ),
    ],
  );
}

/** A lookup whose answer was the one applied already (sameAnswer): only the check is recorded. */
export interface SavedCheck {
  shipmentId: string;
  askedAt: Date;
  nextRefreshAt: Date;
}

/**
 * Records checks that found nothing to apply, in one statement however many (grouped as
 * saveLookups' are): when svc asked and when to ask next; leases released. Only the schedule row
 * is written (migration 039): nothing of the shipment changed, so its row, its updated_at and its
 * index entries stay as they are. A check always follows its claim, so the row is there.
 */
export async function saveChecks(db: Queryable, checks: SavedCheck[]): Promise<void> {
  if (checks.length === 0) return;
  await db.query(
    `UPDATE shipment_refreshes r SET next_refresh_at = v.next_refresh_at, locked_until = NULL, last_checked_at = v.asked_at
       FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) AS v(id, asked_at, next_refresh_at)
      WHERE r.shipment_id = v.id`,
    [checks.map((c) => c.shipmentId), checks.map((c) => c.askedAt), checks.map((c) => c.nextRefreshAt)],
  );
}

/** What a lookup writes besides the shipment row. */
export interface TrackingChanges extends TrackingEvents {
  account_id: string;
  shipment_id: string;
  /** Given to new containers. */
  ref_numbers: string[];
  now: Date;
  /** The stored containers' ids, by number. */
  containerIds: Map<string, string>;
  /** Containers whose state is new or changed; isNew: not stored before, announced with container.created. */
  containerWrites: { number: string; state: object; isNew: boolean }[];
  /** Vessels the answer names (IMO validated), learned when new. */
  vessels: NamedVessel[];
  /** Every container's status after the writes ('new' without one), as the shipment row keeps them (migration 026); null when no container is written. */
  containerStatuses: string[] | null;
}

export interface SavedChanges {
  /** Whether anything new was announced (a container, a milestone, an estimate, a changeset). */
  changed: boolean;
  /** Whether a vessel named was known already: its sighting is left to learnVessels, after the commit. */
  knownVessels: boolean;
  /** The outbox records of what changed, in order; recorded by the statement when it finished the lookup. */
  events: DomainEvent[];
}

const json = (rows: unknown[]) => JSON.stringify(rows);

/**
 * Writes a lookup's changes in one statement, whatever their number: its containers, milestones,
 * estimates, changesets, raw events and new vessels. With `finish`, the same statement writes the
 * shipment row (the lease released, "last changed" now when anything was announced) and records
 * the outbox (the lookup's records, then `finish.later`) with its webhook fan-out: a lookup with
 * news then costs one round trip and no transaction, and nothing it found can be written without
 * the rest. Without it, the caller records `events` itself, in its own transaction.
 */
export async function saveTrackingChanges(db: Queryable, c: TrackingChanges, finish?: { lookup: LookupRow; later: DomainEvent[] }): Promise<SavedChanges> {
  const { imos, names } = vesselColumns(c.vessels);
  const created = EVENTS['container.created'].reference;
  const writes = `c_in AS (
       SELECT * FROM jsonb_to_recordset($9::jsonb) AS c(ord int, number text, state jsonb, is_new boolean)
     ), c_up AS (
       INSERT INTO containers (account_id, shipment_id, number, ref_numbers, state, created_at, updated_at)
       SELECT $1, $2, c.number, $11, c.state, $3, $3 FROM c_in c ORDER BY c.ord
       ON CONFLICT (shipment_id, number) DO UPDATE SET state = EXCLUDED.state,
         updated_at = CASE WHEN containers.state = EXCLUDED.state THEN containers.updated_at ELSE EXCLUDED.updated_at END
       RETURNING id, number, (xmax = 0) AS inserted
     ), ids AS (
       SELECT number, id FROM c_up
       UNION ALL
       SELECT k.number, k.id FROM jsonb_to_recordset($10::jsonb) AS k(number text, id uuid) WHERE k.number NOT IN (SELECT number FROM c_up)
     ), new_vessels AS (
       ${insertNewVessels('$12', '$13', '$3')}
     ), ${trackingEventCtes(4, `UNION ALL
       SELECT 0, c.ord, 'container.created', '${created}', u.id, u.id, true FROM c_up u JOIN c_in c USING (number) WHERE u.inserted AND c.is_new`)}`;
  const outcome = `EXISTS (SELECT 1 FROM announced WHERE news) AS changed, (SELECT count(*) FROM new_vessels) < cardinality($12::text[]) AS known_vessels`;
  const sql = finish
    ? `WITH ${writes}, saved AS (
         UPDATE shipments SET ${lookupSet({
           state: '$14',
           billOfLadingNumber: '$15',
           bookingNumber: '$16',
           askedAt: '$17',
           at: '$3',
           lastChangedAt: 'CASE WHEN EXISTS (SELECT 1 FROM announced WHERE news) THEN $3 ELSE coalesce(line_tracking_last_changed_at, $3) END',
           answerDigest: '$19',
         })},
         -- As the containers' trigger (migration 026) would make them at the end of the statement, which then
         -- finds them so and leaves the row alone: one new version of the shipment row (and its index entries), not two.
         container_statuses = CASE WHEN $20::text[] IS NULL THEN container_statuses ELSE ARRAY(SELECT DISTINCT unnest($20::text[]) ORDER BY 1) END
          WHERE id = $2
       ), scheduled AS (
         ${scheduleRefreshes('SELECT $2::uuid, $18::timestamptz')}
       ), input AS (
         SELECT $1::uuid AS account_id, a.name, a.reference_type, a.reference_id, $2::uuid AS shipment_id, a.container_id,
                row_number() OVER (ORDER BY a.grp, a.ord) AS ord
           FROM announced a
       ), ${recordingCtes('input', '$3')}
       SELECT ${outcome}, (SELECT count(*) FROM notices) AS notices`
    : `WITH ${writes}
       SELECT ${outcome}, (SELECT json_agg(a ORDER BY a.grp, a.ord) FROM announced a) AS announced`;
  const { rows } = await db.query<{ changed: boolean; known_vessels: boolean; announced?: Parameters<typeof announcedEvents>[0] }>(sql, [
    c.account_id,
    c.shipment_id,
    c.now,
    ...trackingEventParams(c, finish?.later),
    json(c.containerWrites.map((w, ord) => ({ ord, number: w.number, state: w.state, is_new: w.isNew }))),
    json([...c.containerIds].map(([number, id]) => ({ number, id }))),
    c.ref_numbers,
    imos,
    names,
    ...(finish
      ? [JSON.stringify(finish.lookup.state), finish.lookup.billOfLadingNumber, finish.lookup.bookingNumber, finish.lookup.askedAt, finish.lookup.nextRefreshAt, finish.lookup.answerDigest, c.containerStatuses]
      : []),
  ]);
  const r = rows[0];
  return { changed: r.changed, knownVessels: r.known_vessels, events: announcedEvents(r.announced ?? null, c) };
}
