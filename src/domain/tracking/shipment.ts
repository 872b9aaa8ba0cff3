// The shipment's attributes: ports from the route, the vessel and voyage that reach the port of
// discharge, departure and arrival times (estimated and actual) with each place's zone, and the
// shipment.estimated.arrival event when the port-of-discharge ETA moves. A value the snapshot
// does not give keeps the stored one: carriers drop estimates once the actual is in, and drop
// old events altogether.
import type { CarrierEvent, CarrierSnapshot } from './carrier-events.ts';
import { byPreference, isOceanMove, leavesPort, preferred } from './facts.ts';
import type { Milestone } from './milestones.ts';
import type { Leg, Route } from './route.ts';
import { isoOrNull, sameInstant } from './time.ts';
import type { DiffContext, NewEstimatedEvent, ShipmentState } from './types.ts';

export interface NextShipment {
  state: ShipmentState;
  /** The carrier events behind pod_eta_at and destination_eta_at, for the events announcing them. */
  podEta: CarrierEvent | null;
  inlandEta: CarrierEvent | null;
}

function podVessel(leg: Leg | null, pod: string | null) {
  // The import voyage and the vessel as named at the discharge call come first.
  const atPod = (e: CarrierEvent) => e.locode === pod && !leavesPort(e);
  const ordered = [...(leg?.events ?? [])].sort((a, b) => Number(atPod(b)) - Number(atPod(a)) || byPreference(a, b));
  const first = (pick: (e: CarrierEvent) => string | null | undefined) => ordered.map((e) => pick(e)?.trim()).find((v) => v) ?? null;
  return { imo: first((e) => e.vessel?.imo), name: first((e) => e.vessel?.name), voyage: first((e) => e.voyageNumber) };
}

export function nextShipment(
  prev: ShipmentState | null,
  snapshot: CarrierSnapshot,
  events: readonly CarrierEvent[],
  route: Route,
  milestones: readonly Milestone[],
  ctx: DiffContext,
): NextShipment {
  const vesselCalls = events.filter((e) => e.type === 'TRANSPORT' && isOceanMove(e));
  const call = (code: 'ARRI' | 'DEPA', locode: string | null, actual: boolean) =>
    locode === null ? null : preferred(vesselCalls.filter((e) => e.code === code && e.locode === locode && (e.classifier === 'ACT') === actual));
  const inlandEta = preferred(
    events.filter(
      (e) =>
        e.type === 'TRANSPORT' &&
        e.code === 'ARRI' &&
        e.classifier !== 'ACT' &&
        (e.modeOfTransport === 'RAIL' || e.modeOfTransport === 'TRUCK') &&
        route.destination !== null &&
        e.locode === route.destination,
    ),
  );
  const inlandArrivals = milestones.filter((m) => m.name === 'arrived_at_inland_destination').map((m) => m.event.occurredAt.getTime());
  const podEta = call('ARRI', route.pod, false);
  const vessel = podVessel([...route.legs].reverse().find((l) => l.to === route.pod) ?? null, route.pod);

  const pol = route.pol ?? prev?.port_of_lading_locode ?? null;
  const pod = route.pod ?? prev?.port_of_discharge_locode ?? null;
  const destination = route.destination ?? prev?.destination_locode ?? null;
  const zone = (locode: string | null) => (locode === null ? null : ctx.timezoneOf(locode));
  const podEtaAt = isoOrNull(podEta?.occurredAt) ?? prev?.pod_eta_at ?? null;

  return {
    podEta,
    inlandEta,
    state: {
      bill_of_lading_number: snapshot.billOfLadingNumber ?? prev?.bill_of_lading_number ?? null,
      booking_number: snapshot.bookingNumber ?? prev?.booking_number ?? null,
      shipping_line_scac: snapshot.scac,
      port_of_lading_locode: pol,
      port_of_discharge_locode: pod,
      destination_locode: destination,
      transshipment_locodes: route.legs.length > 0 ? route.transshipments : (prev?.transshipment_locodes ?? []),
      pod_vessel_name: vessel.name ?? prev?.pod_vessel_name ?? null,
      pod_vessel_imo: vessel.imo ?? prev?.pod_vessel_imo ?? null,
      pod_voyage_number: vessel.voyage ?? prev?.pod_voyage_number ?? null,
      pol_etd_at: isoOrNull(call('DEPA', route.pol, false)?.occurredAt) ?? prev?.pol_etd_at ?? null,
      pol_atd_at: isoOrNull(call('DEPA', route.pol, true)?.occurredAt) ?? prev?.pol_atd_at ?? null,
      pod_eta_at: podEtaAt,
      pod_original_eta_at: prev?.pod_original_eta_at ?? podEtaAt,
      pod_ata_at: isoOrNull(call('ARRI', route.pod, true)?.occurredAt) ?? prev?.pod_ata_at ?? null,
      destination_eta_at: isoOrNull(inlandEta?.occurredAt) ?? prev?.destination_eta_at ?? null,
      destination_ata_at: (inlandArrivals.length > 0 ? isoOrNull(new Date(Math.min(...inlandArrivals))) : null) ?? prev?.destination_ata_at ?? null,
      pol_timezone: zone(pol) ?? prev?.pol_timezone ?? null,
      pod_timezone: zone(pod) ?? prev?.pod_timezone ?? null,
      destination_timezone: zone(destination) ?? prev?.destination_timezone ?? null,
    },
  };
}

/**
 * shipment.estimated.arrival, when the port-of-discharge ETA of a shipment we already knew
 * differs from the stored one, including its first appearance after creation. A new shipment's
 * first ETA is not an event: the shipment itself (tracking_request.succeeded) carries it.
 */
export function estimatedArrival(prev: ShipmentState | null, next: NextShipment): NewEstimatedEvent | null {
  const { state } = next;
  if (prev === null || state.pod_eta_at === null || sameInstant(prev.pod_eta_at, state.pod_eta_at)) return null;
  return {
    event: 'shipment.estimated.arrival',
    estimatedTimestamp: new Date(state.pod_eta_at),
    previousTimestamp: prev.pod_eta_at ? new Date(prev.pod_eta_at) : null,
    timezone: state.pod_timezone,
    locode: state.port_of_discharge_locode,
    voyageNumber: state.pod_voyage_number,
    vessel: state.pod_vessel_imo || state.pod_vessel_name ? { imo: state.pod_vessel_imo, name: state.pod_vessel_name } : null,
    dataSource: 'shipping_line',
    publishedAt: next.podEta?.publishedAt ?? null,
  };
}
