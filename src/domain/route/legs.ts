// The legs of a container's ocean journey, port of lading → transshipments → port of discharge,
// each with its vessel and its departure and arrival times, actual and estimated. Read from what
// svc already stores: the shipment's state (which ports, in order; the POL and POD times), the
// container's milestones (actual times and vessels at every port) and the carrier's estimated or
// planned calls (ETAs and ETDs at transshipment ports, vessels of legs not started yet).
import type { CarrierEvent } from '../tracking/carrier-events.ts';
import type { ShipmentState } from '../tracking/types.ts';

export interface RouteVessel {
  imo: string | null;
  name: string | null;
}

/** A milestone as stored (transport_events), reduced to what the journey needs. */
export interface Milestone {
  event: string;
  timestamp: Date | null;
  locode: string | null;
  vesselImo: string | null;
  vesselName: string | null;
  voyageNumber: string | null;
}

export interface PortCall {
  /** 1 = port of lading; the last is the port of discharge. */
  sequence: number;
  /** POL, TS1, TS2…, POD. */
  label: string;
  locode: string;
  inboundEta: Date | null;
  inboundAta: Date | null;
  outboundEtd: Date | null;
  outboundAtd: Date | null;
}

export interface Leg {
  /** The sequence of the port the leg leaves from. */
  sequence: number;
  from: PortCall;
  to: PortCall;
  /** A short feeder hop (the milestones say feeder_*) or a mainline vessel. */
  mode: 'vessel' | 'feeder';
  vessel: RouteVessel | null;
  voyageNumber: string | null;
}

export interface Journey {
  calls: PortCall[];
  legs: Leg[];
}

export type LegPhase = 'not_started' | 'at_sea' | 'arrived';

const DEPARTURES = new Set(['vessel_departed', 'transshipment_departed', 'feeder_departed']);
const ARRIVALS = new Set(['vessel_arrived', 'transshipment_arrived', 'feeder_arrived']);
const LOADS = new Set(['vessel_loaded', 'transshipment_loaded', 'feeder_loaded']);
const DISCHARGES = new Set(['vessel_discharged', 'transshipment_discharged', 'feeder_discharged']);

const milestoneName = (m: Milestone) => m.event.replace(/^container\.transport\./, '');

const iso = (text: string | null): Date | null => (text ? new Date(text) : null);

function labelOf(index: number, total: number): string {
  if (index === 0) return 'POL';
  if (index === total - 1) return 'POD';
  return `TS${index}`;
}

/** Milestones of one kind at one port, earliest first (a port called twice keeps its first call). */
function at(milestones: readonly Milestone[], kinds: ReadonlySet<string>, locode: string): Milestone[] {
  return milestones
    .filter((m) => m.locode === locode && kinds.has(milestoneName(m)))
    .sort((a, b) => (a.timestamp?.getTime() ?? Infinity) - (b.timestamp?.getTime() ?? Infinity));
}

/**
 * The newest word of the carrier on an estimated or planned call (ARRI or DEPA) at a port: EST
 * beats PLN, then the latest published wins, ties broken by the event id so the answer does not
 * depend on the order events were stored in.
 */
function plannedCall(events: readonly CarrierEvent[], code: 'ARRI' | 'DEPA', locode: string): CarrierEvent | null {
  const rank = (e: CarrierEvent) => (e.classifier === 'EST' ? 1 : 0);
  const candidates = events.filter((e) => e.type === 'TRANSPORT' && e.code === code && e.locode === locode && e.classifier !== 'ACT');
  candidates.sort((a, b) => rank(b) - rank(a) || b.publishedAt.getTime() - a.publishedAt.getTime() || (a.id < b.id ? -1 : 1));
  return candidates[0] ?? null;
}

const vesselOf = (m: Milestone | undefined): RouteVessel | null =>
  m && (m.vesselImo || m.vesselName) ? { imo: m.vesselImo, name: m.vesselName } : null;

/**
 * The journey of one container. Empty (no calls, no legs) when the shipment does not name both a
 * port of lading and a port of discharge: without both ends there is no route to draw.
 */
export function journeyOf(state: Partial<ShipmentState>, milestones: readonly Milestone[], carrierEvents: readonly CarrierEvent[] = []): Journey {
  const pol = state.port_of_lading_locode ?? null;
  const pod = state.port_of_discharge_locode ?? null;
  if (!pol || !pod || pol === pod) return { calls: [], legs: [] };
  const locodes = [pol, ...(state.transshipment_locodes ?? []).filter((l) => l !== pol && l !== pod), pod];
  const last = locodes.length - 1;

  const calls = locodes.map((locode, i): PortCall => {
    const arrival = i > 0 ? at(milestones, ARRIVALS, locode)[0] : undefined;
    const departure = i < last ? at(milestones, DEPARTURES, locode).at(-1) : undefined;
    const eta = i > 0 ? plannedCall(carrierEvents, 'ARRI', locode)?.occurredAt ?? null : null;
    const etd = i < last ? plannedCall(carrierEvents, 'DEPA', locode)?.occurredAt ?? null : null;
    return {
      sequence: i + 1,
      label: labelOf(i, locodes.length),
      locode,
      // The shipment's own POL and POD times are the engine's settled view; milestones and
      // planned calls fill in the ports between.
      inboundEta: i === last ? iso(state.pod_eta_at ?? null) ?? eta : eta,
      inboundAta: (i === last ? iso(state.pod_ata_at ?? null) : null) ?? arrival?.timestamp ?? null,
      outboundEtd: i === 0 ? iso(state.pol_etd_at ?? null) ?? etd : etd,
      outboundAtd: (i === 0 ? iso(state.pol_atd_at ?? null) : null) ?? departure?.timestamp ?? null,
    };
  });

  const legs = calls.slice(0, -1).map((from, i): Leg => {
    const to = calls[i + 1];
    // The vessel that carried the box on this leg, from the surest milestone that names one.
    const named = [
      at(milestones, DEPARTURES, from.locode).at(-1),
      at(milestones, ARRIVALS, to.locode)[0],
      at(milestones, LOADS, from.locode).at(-1),
      at(milestones, DISCHARGES, to.locode)[0],
    ].filter((m): m is Milestone => m !== undefined);
    const source = named.find((m) => vesselOf(m) !== null);
    const planned = plannedCall(carrierEvents, 'DEPA', from.locode) ?? plannedCall(carrierEvents, 'ARRI', to.locode);
    const lastLeg = i === calls.length - 2;
    const stateVessel = lastLeg && (state.pod_vessel_imo || state.pod_vessel_name) ? { imo: state.pod_vessel_imo ?? null, name: state.pod_vessel_name ?? null } : null;
    const plannedVessel = planned?.vessel && (planned.vessel.imo || planned.vessel.name) ? planned.vessel : null;
    return {
      sequence: from.sequence,
      from,
      to,
      mode: named.some((m) => milestoneName(m).startsWith('feeder_')) ? 'feeder' : 'vessel',
      vessel: vesselOf(source) ?? stateVessel ?? plannedVessel,
      voyageNumber: named.find((m) => m.voyageNumber)?.voyageNumber ?? (lastLeg ? state.pod_voyage_number ?? null : null) ?? planned?.voyageNumber ?? null,
    };
  });

  return { calls, legs };
}

/**
 * Where the container is on a leg. A later port reached, or the box departed from it, proves the
 * leg done even when its own arrival milestone is missing.
 */
export function legPhase(journey: Journey, leg: Leg): LegPhase {
  const later = journey.calls.filter((c) => c.sequence > leg.sequence);
  if (leg.to.inboundAta || later.some((c) => c.outboundAtd || (c.sequence > leg.to.sequence && c.inboundAta))) return 'arrived';
  return leg.from.outboundAtd ? 'at_sea' : 'not_started';
}
