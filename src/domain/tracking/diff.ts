// The diff engine: from what is stored and what a carrier just said, the next state and what
// changed. Pure. The result does not depend on the order of the snapshot's events, containers
// or terminal reports, and once a result is applied (its state stored, its transport event keys
// added to emittedKeys and their names to emittedEvents) the same snapshot yields no event at all.
import { normaliseContainerNumber } from '../carrier-numbers.ts';
import type { CarrierEvent, CarrierSnapshot } from './carrier-events.ts';
import { changesetOf } from './changeset.ts';
import { nextContainer } from './container.ts';
import { withCallPlaces, withLocalTimes } from './facts.ts';
import { milestoneKey, milestonesOf, type Milestone } from './milestones.ts';
import { deriveRoute } from './route.ts';
import { eventsByContainer } from './scope.ts';
import { estimatedArrival, nextShipment } from './shipment.ts';
import { isoInstant, sameInstant } from './time.ts';
import { latestReport } from './terminal.ts';
import type { ContainerChange, ContainerState, Diff, DiffContext, NewTransportEvent, PreviousState, ShipmentState } from './types.ts';

function fromMilestone(m: Milestone, ctx: DiffContext, correctionOf?: string): NewTransportEvent {
  const e = m.event;
  return {
    containerNumber: m.container,
    event: `container.transport.${m.name}`,
    timestamp: e.occurredAt,
    utcOffset: e.utcOffset,
    timezone: e.locode === null ? null : ctx.timezoneOf(e.locode),
    locode: e.locode,
    terminalCode: e.facilitySmdgCode,
    vessel: e.vessel && (e.vessel.imo || e.vessel.name) ? { imo: e.vessel.imo, name: e.vessel.name } : null,
    voyageNumber: e.voyageNumber,
    dataSource: 'shipping_line',
    sourceEventId: e.id,
    publishedAt: e.publishedAt,
    key: m.key,
    ...(correctionOf === undefined ? {} : { correctionOf }),
  };
}

/**
 * The milestones to emit: those never recorded, and those recorded under another name than the
 * route now gives them (only the vessel, transshipment and feeder variants of one move share a
 * key, so a rename is always a leg re-read with more of the route known).
 */
function toEmit(own: Milestone[], previous: PreviousState, ctx: DiffContext): NewTransportEvent[] {
  return own.flatMap((m) => {
    if (!previous.emittedKeys.has(m.key)) return [fromMilestone(m, ctx)];
    const recorded = previous.emittedEvents?.get(m.key);
    const now = `container.transport.${m.name}`;
    return recorded !== undefined && recorded !== now ? [fromMilestone(m, ctx, recorded)] : [];
  });
}

export function diffSnapshot(previous: PreviousState, snapshot: CarrierSnapshot, ctx: DiffContext): Diff {
  const events = withLocalTimes(withCallPlaces(snapshot.events), ctx.timezoneOf);
  const route = deriveRoute(events);

  const stored = new Map(previous.containers.map((c) => [normaliseContainerNumber(c.number), c]));
  const listed = new Map(snapshot.containers.map((c) => [normaliseContainerNumber(c.number), c]));
  const named = events.flatMap((e) => (e.type === 'EQUIPMENT' && e.equipmentReference ? [normaliseContainerNumber(e.equipmentReference)] : []));
  const numbers = [...new Set([...stored.keys(), ...listed.keys(), ...named])].sort();

  const concerning = eventsByContainer(numbers, events, route);
  const milestones = new Map(numbers.map((n) => [n, milestonesOf(n, concerning.get(n)!, route)]));
  const shipmentEvents = events.filter((e) => e.type === 'SHIPMENT');
  const shipment = nextShipment(previous.shipment, snapshot, events, route, [...milestones.values()].flat(), ctx);

  const containers = numbers.map((number) => {
    const prev = stored.get(number) ?? null;
    const report = latestReport(snapshot.terminal, number);
    const state = nextContainer({
      number,
      previous: prev,
      listed: listed.get(number) ?? null,
      events: concerning.get(number)!,
      shipmentEvents,
      milestones: milestones.get(number)!,
      route,
      shipment: shipment.state,
      report,
      ctx,
    });
    return { number, prev, report, state };
  });

  const transportEvents: NewTransportEvent[] = [];
  const containerChanges: ContainerChange[] = [];
  for (const { number, prev, report, state } of containers) {
    const own = milestones.get(number)!;
    transportEvents.push(...toEmit(own, previous, ctx));
    const available = availableFromTerminal(number, state, own, previous.emittedKeys, shipment.state);
    if (available) transportEvents.push(available);

    if (prev !== null) {
      const changeset = changesetOf(prev, state);
      if (Object.keys(changeset).length > 0) {
        containerChanges.push({
          containerNumber: number,
          changeset,
          timestamp: report?.observedAt ?? snapshot.fetchedAt,
          timezone: state.pod_timezone,
          terminalCode: state.pod_terminal,
        });
      }
    }
  }
  transportEvents.push(...inlandEstimates(previous, shipment, containers.map((c) => c.number), concerning, milestones, snapshot.fetchedAt));
  // Stable sort: within one container and instant, the journey order milestonesOf gave stays.
  transportEvents.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime() || (a.containerNumber < b.containerNumber ? -1 : a.containerNumber > b.containerNumber ? 1 : 0));

  const estimate = estimatedArrival(previous.shipment, shipment);
  return {
    shipment: shipment.state,
    containers: containers.map(({ prev, state }) => ({ state, isNew: prev === null })),
    transportEvents,
    estimatedEvents: estimate ? [estimate] : [],
    containerChanges,
  };
}

/**
 * Row 15 from the terminal's side: the first time the terminal shows the box available while it
 * waits there, `available` is announced, under the same key an AVPU from the carrier would have,
 * so the two sources never announce it twice. Later flips travel as container.updated.
 */
function availableFromTerminal(
  number: string,
  state: ContainerState,
  own: Milestone[],
  emitted: ReadonlySet<string>,
  shipment: ShipmentState,
): NewTransportEvent | null {
  if (state.current_status !== 'available' || state.available_for_pickup !== true || state.terminal_checked_at === null) return null;
  // The box waits at the port of discharge, or at the inland terminal once the rail or truck brought it there.
  const inland = shipment.destination_locode !== null && own.some((m) => m.name === 'rail_unloaded' || m.name === 'arrived_at_inland_destination');
  const locode = inland ? shipment.destination_locode : shipment.port_of_discharge_locode;
  const key = milestoneKey(number, 'available', locode);
  if (emitted.has(key) || own.some((m) => m.key === key)) return null;
  return {
    containerNumber: number,
    event: 'container.transport.available',
    timestamp: new Date(state.terminal_checked_at),
    utcOffset: null,
    timezone: inland ? state.final_destination_timezone : state.pod_timezone,
    locode,
    terminalCode: state.pod_terminal,
    vessel: null,
    voyageNumber: null,
    dataSource: 'terminal',
    sourceEventId: null,
    publishedAt: new Date(state.terminal_checked_at),
    key,
  };
}

/**
 * Row 27: container.transport.estimated.arrived_at_inland_destination for each container bound
 * there and not yet arrived, when the inland ETA of a known shipment changes (as for
 * shipment.estimated.arrival). An estimate may return to an earlier value, so its key carries
 * the lookup's time: it stays unique, and replaying the snapshot is still silent because the
 * stored ETA then already matches.
 */
function inlandEstimates(
  previous: PreviousState,
  shipment: ReturnType<typeof nextShipment>,
  numbers: string[],
  concerning: Map<string, CarrierEvent[]>,
  milestones: Map<string, Milestone[]>,
  fetchedAt: Date,
): NewTransportEvent[] {
  const { state, inlandEta: source } = shipment;
  const eta = state.destination_eta_at;
  if (previous.shipment === null || source === null || eta === null || sameInstant(previous.shipment.destination_eta_at, eta)) return [];
  return numbers
    .filter((n) => concerning.get(n)!.some((e) => e.id === source.id) && !milestones.get(n)!.some((m) => m.name === 'arrived_at_inland_destination'))
    .map((number) => ({
      containerNumber: number,
      event: 'container.transport.estimated.arrived_at_inland_destination',
      timestamp: new Date(eta),
      utcOffset: source.utcOffset,
      timezone: state.destination_timezone,
      locode: state.destination_locode,
      terminalCode: source.facilitySmdgCode,
      vessel: null,
      voyageNumber: source.voyageNumber,
      dataSource: 'shipping_line',
      sourceEventId: source.id,
      publishedAt: source.publishedAt,
      key: `${number}|estimated.arrived_at_inland_destination|${state.destination_locode ?? ''}|${eta}|${isoInstant(fetchedAt)}`,
    }));
}
