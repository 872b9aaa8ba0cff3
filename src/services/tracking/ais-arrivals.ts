// The AIS pass of the tracking engine. For every vessel carrying tracked cargo to its port of
// discharge (departed, not arrived), it reads the vessel's recent AIS track and:
//  - when the vessel has stopped inside the port's area, records the arrival at once with
//    data_source 'ais' (container.transport.vessel_arrived per box, under the same milestone key
//    the carrier's event will have, so that event later corrects this record instead of adding a
//    second one: see apply.ts), and makes the shipment due so the carrier and terminal are asked;
//  - otherwise re-estimates the arrival from distance to go along the sea route and the recent
//    average speed, kept per vessel and port in ais_port_etas (never written over pod_eta_at).
// Reads are grouped by vessel and port: a ship carries many tracked shipments.
import type { Clock } from '../../clock.ts';
import { arrivalInPortArea, arrivalIsThisVoyage, DEFAULT_STOP_RULE, withAisArrival, type AisArrival, type AisFix, type StopRule } from '../../domain/tracking/ais-arrival.ts';
import { aisEta, DEFAULT_ETA_RULE, type EtaRule } from '../../domain/tracking/ais-eta.ts';
import { milestoneKey } from '../../domain/tracking/milestones.ts';
import type { ContainerState, ShipmentState } from '../../domain/tracking/types.ts';
import { domainEvent } from '../../domain/events/domain-event.ts';
import { DAY, HOUR, MINUTE } from '../../domain/time-units.ts';
import { distance, recordAisMoves, stateOf, toFix } from './ais-moves.ts';
import { seaRoute } from '../../geo/searoute.ts';
import {
  aisPortEtasOf,
  insertAisArrival,
  insertAisMilestones,
  lockShipmentsAtSea,
  saveAisPortEta,
  shipmentsAtSea,
  type ShipmentAtSea,
} from '../../store/ais-arrivals.ts';
import { withTransaction, type Db } from '../../store/db.ts';
import { portPositions } from '../../store/reference.ts';
import { recordEvents } from '../../store/domain-events.ts';
import { containersOfShipments, makeDueNow, saveShipmentState, upsertContainer } from '../../store/shipments.ts';
import { vesselTracksOfImos } from '../../store/vessel-positions.ts';

export interface AisSettings {
  stop: StopRule;
  eta: EtaRule;
  /** How far back the track is read each pass: long enough to bridge a pass or two missed. */
  lookbackMs: number;
  /** An estimate is recomputed from a position at least this much newer than the one it came from. */
  etaEveryMs: number;
}

export const DEFAULT_AIS_SETTINGS: AisSettings = { stop: DEFAULT_STOP_RULE, eta: DEFAULT_ETA_RULE, lookbackMs: DAY, etaEveryMs: HOUR };

export interface AisPassResult {
  /** Shipments whose arrival at the port of discharge this pass recorded. */
  arrivals: number;
  /** Departures and transshipment arrivals this pass recorded (one per shipment, port and kind). */
  moves: number;
  /** Vessel-and-port estimates written. */
  estimates: number;
}

/** Vessels whose tracks one statement reads: a day of positions a minute is ~1,400 rows a vessel. */
const TRACKS_AT_ONCE = 50;

export class AisArrivals {
  readonly settings: AisSettings;

  constructor(
    private readonly deps: { db: Db; clock: Clock },
    settings: Partial<AisSettings> = {},
  ) {
    this.settings = { ...DEFAULT_AIS_SETTINGS, ...settings };
  }

  async run(): Promise<AisPassResult> {
    const now = this.deps.clock.now();
    // Moves first: a departure from the port of lading puts the shipment at sea for the arrival below.
    const moves = await recordAisMoves(this.deps.db, now, this.settings.lookbackMs);
    const groups = new Map<string, { imo: string; pod: string; shipments: ShipmentAtSea[] }>();
    for (const s of await shipmentsAtSea(this.deps.db)) {
      const { pod_vessel_imo: imo, port_of_discharge_locode: pod } = stateOf(s);
      if (!imo || !pod) continue;
      const key = `${imo}|${pod}`;
      if (!groups.has(key)) groups.set(key, { imo, pod, shipments: [] });
      groups.get(key)!.shipments.push(s);
    }
    if (groups.size === 0) return { arrivals: 0, moves, estimates: 0 };
    const ports = await portPositions(this.deps.db, [...groups.values()].map((g) => g.pod));
    const etas = await aisPortEtasOf(this.deps.db, [...new Set([...groups.values()].map((g) => g.imo))]);

    const result: AisPassResult = { arrivals: 0, moves, estimates: 0 };
    const tracked = [...groups].filter(([, { pod }]) => ports.has(pod));
    // The tracks are read TRACKS_AT_ONCE vessels to a statement, not one statement a vessel: what
    // the pass writes (arrivals, estimates) is never a position, so reading them ahead is the same.
    for (let first = 0; first < tracked.length; first += TRACKS_AT_ONCE) {
      const part = tracked.slice(first, first + TRACKS_AT_ONCE);
      const wanted = part.map(([, { imo, shipments }]) => {
        const departed = Math.min(...shipments.map((s) => new Date(stateOf(s).pol_atd_at!).getTime()));
        return { imo, from: new Date(Math.max(departed, now.getTime() - this.settings.lookbackMs)) };
      });
      const tracks = await vesselTracksOfImos(this.deps.db, wanted, now);
      for (const [i, [key, group]] of part.entries()) await this.#vessel(key, group, ports.get(group.pod)!, tracks[i].map(toFix), etas, now, result);
    }
    return result;
  }

  /** One vessel bound for one port: its arrival recorded when the track shows it, else its ETA estimated (at most every etaEveryMs of track). */
  async #vessel(
    key: string,
    { imo, pod, shipments }: { imo: string; pod: string; shipments: ShipmentAtSea[] },
    port: [number, number],
    track: AisFix[],
    etas: Awaited<ReturnType<typeof aisPortEtasOf>>,
    now: Date,
    result: AisPassResult,
  ): Promise<void> {
    if (track.length === 0) return;
    const arrival = arrivalInPortArea(track, port, distance, this.settings.stop);
    if (arrival) {
      const mine = shipments.filter((s) => arrivalIsThisVoyage(stateOf(s), arrival.arrivedAt));
      if (mine.length > 0) result.arrivals += await this.#recordArrival(imo, pod, arrival, mine.map((s) => s.id), now);
      return;
    }
    const latest = track[track.length - 1];
    // The sea route is the costly part (A* over the network, a few ms): at most once per etaEveryMs of track.
    if (latest.at.getTime() - (etas.get(key)?.position_at.getTime() ?? -Infinity) < this.settings.etaEveryMs) return;
    const route = seaRoute([latest.lon, latest.lat], port);
    const eta = route && aisEta(track, route.distanceNm, distance, now, this.settings.eta);
    if (!eta) return;
    await saveAisPortEta(this.deps.db, {
      vessel_imo: imo,
      port_locode: pod,
      eta_at: eta.etaAt,
      distance_nm: eta.distanceNm,
      speed_knots: eta.speedKnots,
      position_at: latest.at,
      latitude: latest.lat,
      longitude: latest.lon,
      computed_at: now,
    });
    result.estimates++;
  }

  /** Records the arrival for each shipment no worker is refreshing right now; the rest wait for the next pass. */
  async #recordArrival(imo: string, pod: string, arrival: AisArrival, shipmentIds: string[], now: Date): Promise<number> {
    return withTransaction(this.deps.db, async (tx) => {
      const locked = await lockShipmentsAtSea(tx, shipmentIds, now);
      for (const shipment of locked) {
        const state = stateOf(shipment);
        const stored = await containersOfShipments(tx, [shipment.id]);
        const next = withAisArrival(state, stored.map((c) => c.state as unknown as ContainerState), arrival.arrivedAt);
        const owner = { account_id: shipment.account_id, shipment_id: shipment.id };
        const ids = new Map(stored.map((c) => [c.number, c]));
        for (const c of next.containers) {
          const row = ids.get(c.number)!;
          await upsertContainer(tx, { ...owner, number: c.number, ref_numbers: row.ref_numbers, state: c, at: now });
        }
        const inserted = await insertAisMilestones(
          tx,
          owner,
          next.containers.map((c) => ({
            container_id: ids.get(c.number)!.id,
            event: 'container.transport.vessel_arrived',
            key: milestoneKey(c.number, 'vessel_arrived', pod),
            timestamp: arrival.arrivedAt,
            timezone: state.pod_timezone,
            location_locode: pod,
            vessel_imo: imo,
            vessel_name: state.pod_vessel_name,
            voyage_number: state.pod_voyage_number,
            published_at: arrival.confirmedAt,
          })),
          now,
        );
        await saveShipmentState(tx, shipment.id, { state: next.shipment, billOfLadingNumber: null, bookingNumber: null, at: now });
        await insertAisArrival(tx, { ...owner, vessel_imo: imo, port_locode: pod, arrived_at: arrival.arrivedAt, detected_at: now, latitude: arrival.lat, longitude: arrival.lon });
        // The same announcement a carrier's arrival makes, one per box; the carrier's own event later corrects the record silently.
        await recordEvents(tx, inserted.map((r) => domainEvent('container.transport.vessel_arrived', { ...owner, reference_id: r.id, container_id: r.container_id })), now);
        // The vessel is in: ask the carrier (and, now that it is near, the terminal) without waiting for the at-sea cadence.
        await makeDueNow(tx, shipment.id, now);
      }
      return locked.length;
    });
  }
}

/** Runs the pass at most once per `everyMs` of the clock, however often it is asked. */
export class AisSchedule {
  #nextAt = -Infinity;

  constructor(
    readonly pass: AisArrivals,
    readonly everyMs = 10 * MINUTE,
  ) {}

  async runIfDue(now: Date): Promise<AisPassResult | null> {
    if (now.getTime() < this.#nextAt) return null;
    this.#nextAt = now.getTime() + this.everyMs;
    return this.pass.run();
  }
}
