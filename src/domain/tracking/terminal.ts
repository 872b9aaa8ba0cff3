// The terminal's side of a container: availability, holds, fees, last free day, pickup
// appointment and which terminal it is. Terminal reports own these; until a terminal reports on
// the container, the carrier's customs and release events (anchors §2.7 rows 16–17) keep the
// holds and its SMDG code names the terminal.
import { normaliseContainerNumber } from '../carrier-numbers.ts';
import type { CarrierEvent, TerminalStatus } from './carrier-events.ts';
import { byPreference, isOceanMove, preferred } from './facts.ts';
import type { Route } from './route.ts';
import { isoInstant, isoOrNull, localMidnight } from './time.ts';
import type { ContainerState, IsoInstant, TerminalFee, TerminalHold } from './types.ts';

export type TerminalAttributes = Pick<
  ContainerState,
  | 'availability_known'
  | 'available_for_pickup'
  | 'holds_at_pod_terminal'
  | 'fees_at_pod_terminal'
  | 'pickup_lfd'
  | 'pickup_lfd_terminal'
  | 'pickup_lfd_rail'
  | 'pickup_appointment_at'
  | 'pod_terminal'
  | 'terminal_checked_at'
  | 'ind_terminal'
  | 'terminal_reported_inland'
>;

/** The newest report about a container (several terminals, or several reports, may speak of it). */
export function latestReport(reports: readonly TerminalStatus[], number: string): TerminalStatus | null {
  let latest: TerminalStatus | null = null;
  for (const r of reports) {
    if (normaliseContainerNumber(r.containerNumber) !== number) continue;
    const newer = latest === null || r.observedAt > latest.observedAt || (+r.observedAt === +latest.observedAt && (r.terminalCode ?? '') < (latest.terminalCode ?? ''));
    if (newer) latest = r;
  }
  return latest;
}

/** Holds on (true) or released (false) as the carrier last reported them, by hold name. */
export type HoldSignals = Map<string, boolean>;

const CUSTOMS_ON = new Set(['CUSS', 'CUSI']);

/**
 * Equipment CUSS/CUSI (selected for scan or inspection) put a customs hold on, CUSR releases it;
 * a shipment HOLD or RELS on the customs (CUS) or release (SRM) document does the same for the
 * customs or freight hold. The latest signal per hold wins.
 */
export function carrierHoldSignals(containerEvents: readonly CarrierEvent[], shipmentEvents: readonly CarrierEvent[]): HoldSignals {
  const signals: { name: string; on: boolean; event: CarrierEvent }[] = [];
  for (const e of containerEvents) {
    if (e.type !== 'EQUIPMENT' || e.classifier !== 'ACT') continue;
    if (CUSTOMS_ON.has(e.code) || e.code === 'CUSR') signals.push({ name: 'customs', on: e.code !== 'CUSR', event: e });
  }
  for (const e of shipmentEvents) {
    if (e.classifier !== 'ACT' || (e.code !== 'HOLD' && e.code !== 'RELS')) continue;
    const name = e.documentType === 'CUS' ? 'customs' : e.documentType === 'SRM' ? 'freight' : null;
    if (name) signals.push({ name, on: e.code === 'HOLD', event: e });
  }
  signals.sort((a, b) => b.event.occurredAt.getTime() - a.event.occurredAt.getTime() || byPreference(a.event, b.event));
  const latest: HoldSignals = new Map();
  for (const s of signals) if (!latest.has(s.name)) latest.set(s.name, s.on);
  return latest;
}

/** The SMDG code of the discharge terminal as the carrier gives it on the vessel's call there. */
export function carrierPodTerminal(containerEvents: readonly CarrierEvent[], route: Route): string | null {
  const atPod = containerEvents.filter((e) => isOceanMove(e) && e.locode === route.pod && e.facilitySmdgCode !== null && (e.code === 'DISC' || e.code === 'ARRI'));
  return preferred(atPod)?.facilitySmdgCode ?? null;
}

// Kept sorted, so the same holds in another order are not a change.
function sortedHolds(holds: readonly TerminalHold[]): TerminalHold[] {
  const key = (h: TerminalHold) => `${h.name}\u0000${h.status}\u0000${h.description ?? ''}`;
  return holds.map((h) => ({ name: h.name, status: h.status, description: h.description })).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function sortedFees(fees: readonly TerminalFee[]): TerminalFee[] {
  return fees
    .map((f) => ({ type: f.type, amount: f.amount, currency_code: f.currency_code }))
    .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) || (a.currency_code < b.currency_code ? -1 : a.currency_code > b.currency_code ? 1 : 0) || a.amount - b.amount);
}

function withCarrierHolds(holds: readonly TerminalHold[], signals: HoldSignals): TerminalHold[] {
  let next = [...holds];
  for (const [name, on] of signals) {
    next = next.filter((h) => h.name !== name);
    if (on) next.push({ name, status: 'hold', description: null });
  }
  return sortedHolds(next);
}

// States stored before the port and rail last free days were told apart hold the port's in pickup_lfd.
function previousTerminalLfd(prev: ContainerState | null): IsoInstant | null {
  if (!prev) return null;
  return prev.pickup_lfd_terminal !== undefined ? prev.pickup_lfd_terminal : prev.pickup_lfd;
}

export interface TerminalInput {
  previous: ContainerState | null;
  report: TerminalStatus | null;
  carrierHolds: HoldSignals;
  carrierTerminal: string | null;
  /** The discharge port's zone, in which the terminal's last free day begins. */
  podZone: string | null;
  /**
   * The box has left the port of discharge by rail: a report from now on is the inland ramp's,
   * whose last free day begins in the ramp's zone and is the railroad's (pickup_lfd_rail).
   */
  inland: { since: Date; zone: string | null } | null;
}

export function terminalAttributes({ previous: prev, report: latest, carrierHolds, carrierTerminal, podZone, inland }: TerminalInput): TerminalAttributes {
  // A report older than one already applied (polls that overlap) says nothing new.
  const report = latest && prev?.terminal_checked_at && latest.observedAt < new Date(prev.terminal_checked_at) ? null : latest;
  const terminalKnown = report !== null || (prev?.terminal_checked_at ?? null) !== null;

  if (report === null) {
    return {
      availability_known: prev?.availability_known ?? false,
      available_for_pickup: prev?.available_for_pickup ?? null,
      holds_at_pod_terminal: terminalKnown ? prev!.holds_at_pod_terminal : withCarrierHolds(prev?.holds_at_pod_terminal ?? [], carrierHolds),
      fees_at_pod_terminal: prev?.fees_at_pod_terminal ?? [],
      pickup_lfd: prev?.pickup_lfd ?? null,
      pickup_lfd_terminal: previousTerminalLfd(prev),
      pickup_lfd_rail: prev?.pickup_lfd_rail ?? null,
      pickup_appointment_at: prev?.pickup_appointment_at ?? null,
      pod_terminal: terminalKnown ? prev!.pod_terminal : (carrierTerminal ?? prev?.pod_terminal ?? null),
      terminal_checked_at: prev?.terminal_checked_at ?? null,
      ind_terminal: prev?.ind_terminal ?? null,
      terminal_reported_inland: prev?.terminal_reported_inland ?? false,
    };
  }
  const atRamp = inland !== null && report.observedAt >= inland.since;
  // Terminals stop giving a last free day once the box is out; the last one given stays.
  const lfd = report.lastFreeDay ? isoInstant(localMidnight(report.lastFreeDay, atRamp ? inland.zone : podZone)) : null;
  const terminalLfd = !atRamp && lfd ? lfd : previousTerminalLfd(prev);
  const railLfd = atRamp && lfd ? lfd : (prev?.pickup_lfd_rail ?? null);
  return {
    availability_known: (prev?.availability_known ?? false) || report.availableForPickup !== null,
    available_for_pickup: report.availableForPickup ?? prev?.available_for_pickup ?? null,
    // The terminal lists current holds only: a released hold is simply absent.
    holds_at_pod_terminal: sortedHolds(report.holds),
    fees_at_pod_terminal: sortedFees(report.fees),
    pickup_lfd: lfd ?? prev?.pickup_lfd ?? null,
    pickup_lfd_terminal: terminalLfd,
    pickup_lfd_rail: railLfd,
    // An appointment, unlike the last free day, is routinely cancelled: its absence clears it.
    pickup_appointment_at: isoOrNull(report.pickupAppointmentAt),
    // The ramp is not the discharge terminal: its code goes beside it, not over it.
    pod_terminal: atRamp ? (prev?.pod_terminal ?? carrierTerminal) : (report.terminalCode ?? prev?.pod_terminal ?? carrierTerminal),
    terminal_checked_at: isoInstant(report.observedAt),
    ind_terminal: atRamp ? (report.terminalCode ?? prev?.ind_terminal ?? null) : (prev?.ind_terminal ?? null),
    terminal_reported_inland: atRamp,
  };
}
