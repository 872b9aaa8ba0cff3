// Ground truth: everything that really happens in a journey, published or not, in svc's terms —
// one entry per container and milestone (anchors §2.7 names), with its time, place, vessel, voyage
// and the moment the carrier published it. scripts/sandbox-accuracy.ts compares svc against this.
import type { AisFleet } from './ais-identity.ts';
import { activeLeg, shipFixAt, shipLegs } from './ais-track.ts';
import { transportCallId } from './dcsa-serialise.ts';
import { placeKnownFromCall } from './dirt.ts';
import type { Journey, JourneyEvent, Leg, Quirk } from './journey.ts';
import type { TestNumber } from './test-numbers.ts';

export interface TrueMilestone {
  event: string;
  container: string;
  timestamp: string;
  locode: string;
  /** The IANA zone of the place, in which a user reads the time. */
  timezone: string;
  terminal: string | null;
  facility_type: string;
  vessel: { imo: string; name: string } | null;
  voyage: string | null;
  mode: string | null;
  published_at: string;
  /** DCSA events feed svc through the connector; availability comes from the terminal endpoint. */
  source: 'dcsa' | 'terminal';
  dcsa_event_id: string | null;
  /** How the carrier garbled the event that tells it (dirt.ts); empty when it was sent clean. */
  quirks: Quirk[];
  /**
   * What a user should see of it, as of the truth's "now", once published. An event the carrier
   * sent with no place, which no other published event of its transport call places, still shows
   * a gate or rail move at its time, with no place or zone (shown_locode and shown_timezone
   * null); a vessel's load, discharge, departure or arrival cannot be told apart from the other
   * legs' without its port, so it is not showable. `unplaced_because` says why in both cases.
   */
  showable: boolean;
  shown_locode: string | null;
  shown_timezone: string | null;
  unplaced_because: 'carrier_sent_no_place' | null;
}

export interface TrueEstimate {
  event: string;
  classifier: 'EST' | 'PLN';
  estimated_at: string;
  locode: string;
  published_at: string;
  dcsa_event_id: string;
}

const iso = (d: Date) => d.toISOString();

function milestonesOf(e: JourneyEvent, journey: Journey, now: Date): TrueMilestone[] {
  const boxes = e.type === 'TRANSPORT' ? e.containers : [e.container!];
  const placed = !e.quirks.includes('placeless') || placeKnownFromCall(e, journey.events, transportCallId, now);
  const onTheWater = e.leg !== null && (e.leg.mode === 'VESSEL' || e.leg.mode === 'BARGE') && ['LOAD', 'DISC', 'DEPA', 'ARRI'].includes(e.code);
  return e.milestones.flatMap((event) =>
    boxes.map((container) => ({
      event,
      container,
      timestamp: iso(e.occurredAt),
      locode: e.facility!.place.locode,
      timezone: e.facility!.place.timeZone,
      terminal: e.facility!.smdgCode,
      facility_type: e.facility!.type,
      vessel: e.leg?.vessel ?? null,
      voyage: e.leg?.voyage ?? null,
      mode: e.leg?.mode ?? null,
      published_at: iso(e.publishedAt),
      source: 'dcsa' as const,
      dcsa_event_id: e.id,
      quirks: e.quirks,
      showable: placed || !onTheWater,
      shown_locode: placed ? e.facility!.place.locode : null,
      shown_timezone: placed ? e.facility!.place.timeZone : null,
      unplaced_because: placed ? null : ('carrier_sent_no_place' as const),
    })),
  );
}

function legSummary(leg: Leg) {
  return {
    kind: leg.kind,
    mode: leg.mode,
    vessel: leg.vessel,
    voyage: leg.voyage,
    service: leg.serviceCode,
    rail_operator: leg.railOperator ?? null,
    from: { locode: leg.from.place.locode, terminal: leg.from.smdgCode, facility_type: leg.from.type },
    to: { locode: leg.to.place.locode, terminal: leg.to.smdgCode, facility_type: leg.to.type },
    distance: Math.round(leg.distance),
    distance_unit: leg.mode === 'RAIL' ? 'km' : 'nm',
    speed_knots: leg.speedKnots === null ? null : Math.round(leg.speedKnots * 10) / 10,
    planned_depart_at: iso(leg.plannedDepartAt),
    planned_arrive_at: iso(leg.plannedArriveAt),
    depart_at: iso(leg.departAt),
    arrive_at: iso(leg.arriveAt),
  };
}

export function groundTruth(journey: Journey, test: TestNumber | undefined, firstSeenAt: Date, now: Date) {
  const milestones = journey.events.filter((e) => e.classifier === 'ACT').flatMap((e) => milestonesOf(e, journey, now));
  for (const plan of journey.terminal) {
    const facility = journey.route!.destination ?? journey.route!.pod;
    milestones.push({
      event: 'container.transport.available',
      container: plan.container,
      timestamp: iso(plan.availableAt),
      locode: facility.locode,
      timezone: facility.timeZone,
      terminal: plan.terminalCode,
      facility_type: journey.route!.destination ? 'RAMP' : 'POTE',
      vessel: null,
      voyage: null,
      mode: null,
      published_at: iso(plan.availableAt),
      source: 'terminal',
      dcsa_event_id: null,
      quirks: [],
      showable: true,
      shown_locode: facility.locode,
      shown_timezone: facility.timeZone,
      unplaced_because: null,
    });
  }
  milestones.sort((a, b) => a.container.localeCompare(b.container) || a.timestamp.localeCompare(b.timestamp));

  const estimates: TrueEstimate[] = journey.events
    .filter((e) => e.classifier !== 'ACT')
    .map((e) => ({
      event: e.estimate!,
      classifier: e.classifier as 'EST' | 'PLN',
      estimated_at: iso(e.occurredAt),
      locode: e.facility!.place.locode,
      published_at: iso(e.publishedAt),
      dcsa_event_id: e.id,
    }));
  const podEtas = estimates.filter((e) => e.event === 'shipment.estimated.arrival');
  const route = journey.route;
  return {
    scac: journey.scac,
    number: journey.number,
    number_type: journey.numberType,
    outcome: test?.behaviour.kind ?? 'journey',
    failed_reason: test?.failedReason ?? null,
    now: iso(now),
    first_seen_at: iso(firstSeenAt),
    start_at: iso(journey.startAt),
    shipment: {
      bill_of_lading: journey.billOfLading,
      booking_number: journey.bookingNumber,
      cancelled: journey.events.some((e) => e.type === 'SHIPMENT' && e.code === 'CANC'),
      origin: route?.origin?.locode ?? null,
      pol: route?.pol.locode ?? null,
      transshipments: route?.transshipments.map((p) => p.locode) ?? [],
      pod: route?.pod.locode ?? null,
      destination: route?.destination?.locode ?? null,
      pod_original_eta_at: (podEtas.find((e) => e.classifier === 'PLN') ?? podEtas[0])?.estimated_at ?? null,
      pod_eta_at: podEtas.filter((e) => e.published_at <= iso(now)).at(-1)?.estimated_at ?? null,
    },
    containers: journey.containers.map((c) => ({ number: c.number, iso_equipment_code: c.isoEquipmentCode, seals: c.seals, weight_kg: c.weightKg })),
    legs: journey.legs.map(legSummary),
    milestones,
    estimates,
    terminal: journey.terminal.map((t) => ({
      container: t.container,
      terminal_code: t.terminalCode,
      reported_from: iso(t.reportedFrom),
      available_at: iso(t.availableAt),
      full_out_at: iso(t.fullOutAt),
      holds: t.holds.map((h) => ({
        name: h.name,
        description: h.description,
        pending_from: h.pendingFrom ? iso(h.pendingFrom) : null,
        hold_from: iso(h.holdFrom),
        released_at: iso(h.releasedAt),
      })),
      last_free_days: t.lastFreeDays.map((l) => ({ from: iso(l.from), value: l.value })),
      pickup_appointment: t.appointment ? { booked_at: iso(t.appointment.bookedAt), at: iso(t.appointment.at) } : null,
    })),
  };
}

/** For test numbers that never produce a journey (not found, withheld…). */
export function behaviourTruth(test: TestNumber, now: Date) {
  return {
    scac: test.scac,
    number: test.number,
    number_type: test.numberType,
    outcome: test.behaviour.kind,
    failed_reason: test.failedReason,
    now: iso(now),
    milestones: [],
    estimates: [],
  };
}

/**
 * Where a ship truly is at `at` (before the AIS feed's noise), for tests of svc's current vessel
 * position: its state, position, speed and course, the leg it sails, and all its legs among the
 * registered journeys, each marked active, shadowed (active at the same time but ranked after the
 * active one, see ais-track.ts) or neither. Null for an IMO that is not a sandbox ship.
 */
export function vesselTruth(fleet: AisFleet, journeys: readonly Journey[], imo: string, at: Date) {
  const ship = fleet.get(imo);
  if (!ship) return null;
  const legs = shipLegs(journeys).get(imo) ?? [];
  const fix = shipFixAt(legs, at);
  const active = activeLeg(legs, at);
  const t = at.getTime();
  const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
  return {
    imo,
    name: ship.name,
    mmsi: String(ship.mmsi),
    call_sign: ship.callSign,
    at: iso(at),
    // not_transmitting: a ship in no registered journey is not on the feed.
    state: fix?.state ?? ('not_transmitting' as const),
    lon: fix ? round(fix.lon, 6) : null,
    lat: fix ? round(fix.lat, 6) : null,
    speed_knots: fix ? round(fix.speedKnots, 2) : null,
    course: fix?.courseDeg == null ? null : round(fix.courseDeg, 1),
    destination: fix?.destination?.locode ?? null,
    eta: fix?.eta ? iso(fix.eta) : null,
    legs: legs.map((s) => ({
      journey: s.journeyKey,
      leg_index: s.leg.index,
      status: s === active ? 'active' : s.leg.departAt.getTime() <= t && t < s.leg.arriveAt.getTime() ? 'shadowed' : t < s.leg.departAt.getTime() ? 'planned' : 'done',
      ...legSummary(s.leg),
    })),
  };
}
