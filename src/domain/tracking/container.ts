// One container's next state: equipment, weight and seal, the milestone times, the inland ETA,
// terminal data and current_status. As for the shipment, a value the snapshot does not give
// keeps the stored one.
import type { CarrierEvent, SnapshotContainer, TerminalStatus } from './carrier-events.ts';
import { decodeSizeType, kgToLbs } from './equipment.ts';
import { preferred } from './facts.ts';
import type { Milestone } from './milestones.ts';
import type { Route } from './route.ts';
import { currentStatus } from './status.ts';
import { carrierHoldSignals, carrierPodTerminal, terminalAttributes } from './terminal.ts';
import { isoInstant, isoOrNull } from './time.ts';
import type { ContainerState, DiffContext, MilestoneName, ShipmentState } from './types.ts';

export interface ContainerInput {
  number: string;
  previous: ContainerState | null;
  /** The container as the snapshot lists it, when it does. */
  listed: SnapshotContainer | null;
  /** The carrier events that concern it (scope.ts). */
  events: CarrierEvent[];
  shipmentEvents: CarrierEvent[];
  milestones: Milestone[];
  route: Route;
  /** The shipment's next state (ports and destination, merged with what was stored). */
  shipment: ShipmentState;
  report: TerminalStatus | null;
  ctx: DiffContext;
}

// The moves that carry the box from place to place (not the gate moves at either end).
const MOVES = /^(vessel|transshipment|feeder|rail)_/;

const RESEAL = new Set(['RSEA', 'RMVD', 'INSP']);

/** Row 28: a reseal, seal removal or inspection reports the seals now on the box. */
function sealNumber(events: CarrierEvent[], listed: SnapshotContainer | null): string | null {
  const resealed = preferred(events.filter((e) => e.type === 'EQUIPMENT' && e.classifier === 'ACT' && RESEAL.has(e.code) && e.seals.length > 0));
  return resealed?.seals.join(', ') ?? listed?.sealNumber ?? null;
}

export function nextContainer(input: ContainerInput): ContainerState {
  const { number, previous: prev, listed, events, milestones, route, shipment, ctx } = input;
  const pol = shipment.port_of_lading_locode;
  const pod = shipment.port_of_discharge_locode;
  const destination = shipment.destination_locode;
  const zone = (locode: string | null) => (locode === null ? null : ctx.timezoneOf(locode));

  // Milestones are in journey order, so the first match is the earliest.
  const first = (name: MilestoneName, where?: (locode: string | null) => boolean) => milestones.find((m) => m.name === name && (!where || where(m.event.locode))) ?? null;
  const at = (m: Milestone | null) => isoOrNull(m?.event.occurredAt);
  const atPol = (l: string | null) => l === pol;
  const atDestination = (l: string | null) => destination !== null && l === destination;
  const emptyIn = first('empty_in');

  const isoCode = listed?.isoEquipmentCode ?? preferred(events.filter((e) => e.isoEquipmentCode !== null))?.isoEquipmentCode ?? null;
  const equipment = decodeSizeType(isoCode);
  const inlandEta = preferred(
    events.filter((e) => e.type === 'TRANSPORT' && e.code === 'ARRI' && e.modeOfTransport === 'RAIL' && e.classifier !== 'ACT' && atDestination(e.locode)),
  );

  const times = {
    empty_out_at: at(first('empty_out')),
    pol_full_in_at: at(first('full_in')),
    pol_vessel_loaded_at: at(first('vessel_loaded') ?? first('feeder_loaded', atPol)),
    pol_vessel_departed_at: at(first('vessel_departed') ?? first('feeder_departed', atPol)),
    pod_arrived_at: at(first('vessel_arrived')),
    pod_discharged_at: at(first('vessel_discharged')),
    pod_full_out_at: at(first('full_out', (l) => !atDestination(l))),
    final_destination_full_out_at: at(first('full_out', atDestination)),
    empty_terminated_at: at(emptyIn),
    pod_rail_loaded_at: at(first('rail_loaded')),
    pod_rail_departed_at: at(first('rail_departed')),
    ind_eta_at: isoOrNull(inlandEta?.occurredAt),
    ind_ata_at: at(first('rail_arrived', atDestination)),
    ind_rail_unloaded_at: at(first('rail_unloaded', atDestination)),
  };
  // The rail moves' own events name their railroad: leaving the port (loaded, departed), reaching the ramp (arrived, unloaded).
  const railroad = (...found: (Milestone | null)[]) => found.map((m) => m?.event.railOperator).find((scac) => !!scac) ?? null;
  const railroads = {
    pod_rail_carrier_scac: railroad(first('rail_departed'), first('rail_loaded')) ?? prev?.pod_rail_carrier_scac ?? null,
    ind_rail_carrier_scac: railroad(first('rail_arrived', atDestination), first('rail_unloaded', atDestination)) ?? prev?.ind_rail_carrier_scac ?? null,
  };
  const kept = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, v ?? prev?.[k as keyof typeof times] ?? null])) as typeof times;

  const leftByRail = destination === null ? null : (kept.pod_rail_departed_at ?? kept.ind_ata_at ?? kept.ind_rail_unloaded_at);
  const terminal = terminalAttributes({
    previous: prev,
    report: input.report,
    carrierHolds: carrierHoldSignals(events, input.shipmentEvents),
    carrierTerminal: carrierPodTerminal(events, route),
    podZone: zone(pod),
    inland: leftByRail === null ? null : { since: new Date(leftByRail), zone: zone(destination) },
  });
  const move = milestones.filter((m) => MOVES.test(m.name)).at(-1);

  return {
    number,
    seal_number: sealNumber(events, listed) ?? prev?.seal_number ?? null,
    equipment_type: equipment.equipment_type ?? prev?.equipment_type ?? null,
    equipment_length: equipment.equipment_length ?? prev?.equipment_length ?? null,
    equipment_height: equipment.equipment_height ?? prev?.equipment_height ?? null,
    weight_in_lbs: kgToLbs(listed?.weightKg ?? null) ?? prev?.weight_in_lbs ?? null,
    ...kept,
    ...railroads,
    pod_timezone: zone(pod) ?? prev?.pod_timezone ?? null,
    final_destination_timezone: zone(destination) ?? prev?.final_destination_timezone ?? null,
    empty_terminated_timezone: zone(emptyIn?.event.locode ?? null) ?? prev?.empty_terminated_timezone ?? null,
    ...terminal,
    last_move: move ? { name: move.name, locode: move.event.locode, occurred_at: isoInstant(move.event.occurredAt), vessel: move.event.vessel, voyage_number: move.event.voyageNumber } : (prev?.last_move ?? null),
    empty_depot_locode: emptyIn?.event.locode ?? prev?.empty_depot_locode ?? null,
    current_status: currentStatus({
      milestones: milestones.map((m) => m.name),
      inland: destination !== null,
      atPod: kept.pod_arrived_at !== null || kept.pod_discharged_at !== null,
      availableForPickup: terminal.available_for_pickup,
      previous: prev?.current_status ?? null,
    }),
  };
}
