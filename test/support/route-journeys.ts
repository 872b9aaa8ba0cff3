// Container journeys for the route map and route tests (and bench:map), written through the store
// functions the tracking engine uses: a shipment's state, a container's milestones, the carrier's
// planned calls, and AIS positions of the vessels.
import { randomUUID } from 'node:crypto';
import type { CarrierEvent } from '../../src/domain/tracking/carrier-events.ts';
import type { Diff, NewTransportEvent, ShipmentState, TransportEventName } from '../../src/domain/tracking/types.ts';
import { normalizeLon, seaRoute } from '../../src/geo/searoute.ts';
import type { Queryable } from '../../src/store/db.ts';
import { insertTrackingEvents } from '../../src/store/events.ts';
import { insertShipment, saveShipmentState, upsertContainer } from '../../src/store/shipments.ts';
import { insertVesselPositions, upsertAisIdentity, type VesselPosition } from '../../src/store/vessel-positions.ts';

export interface Vessel {
  imo: string;
  name: string;
  mmsi: number;
}

export interface MilestoneSpec {
  event: string;
  at: string;
  locode: string;
  vessel?: Vessel;
  voyage?: string;
}

export interface PlannedCallSpec {
  code: 'ARRI' | 'DEPA';
  locode: string;
  at: string;
  vessel?: Vessel;
  voyage?: string;
}

export interface JourneySpec {
  accountId: string;
  state: Partial<ShipmentState>;
  milestones?: MilestoneSpec[];
  planned?: PlannedCallSpec[];
  now?: Date;
}

const BASE_STATE: ShipmentState = {
  bill_of_lading_number: null,
  booking_number: null,
  shipping_line_scac: 'MAEU',
  port_of_lading_locode: null,
  port_of_discharge_locode: null,
  destination_locode: null,
  transshipment_locodes: [],
  pod_vessel_name: null,
  pod_vessel_imo: null,
  pod_voyage_number: null,
  pol_etd_at: null,
  pol_atd_at: null,
  pod_eta_at: null,
  pod_original_eta_at: null,
  pod_ata_at: null,
  destination_eta_at: null,
  destination_ata_at: null,
  pol_timezone: null,
  pod_timezone: null,
  destination_timezone: null,
};

function plannedEvent(p: PlannedCallSpec, publishedAt: Date): CarrierEvent {
  return {
    id: randomUUID(),
    type: 'TRANSPORT',
    code: p.code,
    classifier: 'EST',
    occurredAt: new Date(p.at),
    publishedAt,
    utcOffset: null,
    equipmentReference: null,
    emptyIndicator: null,
    locode: p.locode,
    facilitySmdgCode: null,
    facilityType: 'POTE',
    modeOfTransport: 'VESSEL',
    vessel: p.vessel ? { imo: p.vessel.imo, name: p.vessel.name } : null,
    voyageNumber: p.voyage ?? null,
    transportCallSequence: null,
    isoEquipmentCode: null,
    seals: [],
    documentType: null,
    documentReferences: [],
    raw: {},
  };
}

/** A shipment of one container with the given state, milestones and planned calls. */
export async function insertJourney(db: Queryable, spec: JourneySpec): Promise<{ shipmentId: string; containerId: string }> {
  const now = spec.now ?? new Date('2026-01-01T00:00:00Z');
  const number = `MSCU${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const shipment = await insertShipment(db, { account_id: spec.accountId, scac: 'MAEU', request_type: 'bill_of_lading', request_number: `BL${randomUUID().slice(0, 8)}`, ref_numbers: [], customer_id: null, at: now });
  const state = { ...BASE_STATE, ...spec.state };
  await saveShipmentState(db, shipment.id, { state, billOfLadingNumber: null, bookingNumber: null, at: now });
  const { row: container } = await upsertContainer(db, { account_id: spec.accountId, shipment_id: shipment.id, number, ref_numbers: [], state: {}, at: now });
  const transportEvents = (spec.milestones ?? []).map(
    (m, i): NewTransportEvent => ({
      containerNumber: number,
      event: `container.transport.${m.event}` as TransportEventName,
      timestamp: new Date(m.at),
      utcOffset: null,
      timezone: null,
      locode: m.locode,
      terminalCode: null,
      vessel: m.vessel ? { imo: m.vessel.imo, name: m.vessel.name } : null,
      voyageNumber: m.voyage ?? null,
      dataSource: 'shipping_line',
      sourceEventId: null,
      publishedAt: now,
      key: `${m.event}:${m.locode}:${i}`,
    }),
  );
  const diff: Diff = { shipment: state, containers: [], transportEvents, estimatedEvents: [], containerChanges: [] };
  await insertTrackingEvents(db, {
    account_id: spec.accountId,
    shipment_id: shipment.id,
    containerIds: new Map([[number, container.id]]),
    diff,
    rawEvents: (spec.planned ?? []).map((p) => plannedEvent(p, now)),
    now,
  });
  return { shipmentId: shipment.id, containerId: container.id };
}

/**
 * `count` positions from `from` to `to`, evenly spaced in time along the line through `path`
 * (longitudes unwrapped while interpolating, so a Pacific crossing does not sweep round the world).
 */
export function positionsAlong(vessel: Vessel, path: readonly (readonly [number, number])[], from: Date, to: Date, count: number): VesselPosition[] {
  const unwrapped: [number, number][] = [];
  for (const [lon, lat] of path) {
    const prior = unwrapped.at(-1);
    let l = lon;
    if (prior) while (l - prior[0] > 180) l -= 360;
    if (prior) while (prior[0] - l > 180) l += 360;
    unwrapped.push([l, lat]);
  }
  const cumulative = [0];
  for (let i = 1; i < unwrapped.length; i++) cumulative.push(cumulative[i - 1] + Math.hypot(unwrapped[i][0] - unwrapped[i - 1][0], unwrapped[i][1] - unwrapped[i - 1][1]));
  const total = cumulative.at(-1)!;
  const positions: VesselPosition[] = [];
  let segment = 1;
  for (let k = 0; k < count; k++) {
    const f = count === 1 ? 0 : k / (count - 1);
    const d = f * total;
    while (segment < unwrapped.length - 1 && cumulative[segment] < d) segment++;
    const [a, b] = [unwrapped[segment - 1], unwrapped[segment]];
    const span = cumulative[segment] - cumulative[segment - 1];
    const t = span === 0 ? 0 : (d - cumulative[segment - 1]) / span;
    positions.push({
      mmsi: vessel.mmsi,
      at: new Date(from.getTime() + f * (to.getTime() - from.getTime())),
      longitude: normalizeLon(a[0] + t * (b[0] - a[0])),
      latitude: a[1] + t * (b[1] - a[1]),
      speedKnots: 18.5,
      courseDegrees: 90,
      headingDegrees: 88,
    });
  }
  return positions;
}

/** The sea route between two places as a path for positionsAlong. */
export function seaPath(from: readonly [number, number], to: readonly [number, number]): [number, number][] {
  const route = seaRoute(from, to);
  if (!route) throw new Error(`no sea route from ${from} to ${to}`);
  return route.coordinates;
}

/** Stores the vessel's AIS identity (MMSI → IMO) and its positions. */
export async function insertTrack(db: Queryable, vessel: Vessel, positions: VesselPosition[]): Promise<void> {
  await upsertAisIdentity(db, { mmsi: vessel.mmsi, imo: vessel.imo, name: vessel.name, callSign: null, shipType: 70, destination: null, at: new Date('2025-01-01T00:00:00Z') });
  for (let i = 0; i < positions.length; i += 5000) await insertVesselPositions(db, positions.slice(i, i + 5000));
}
