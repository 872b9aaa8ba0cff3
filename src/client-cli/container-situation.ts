// Where a container is and what stands between it and a pickup, as svc containers show says it:
// read from the container resource (with its shipment, discharge terminal and events included)
// in this one place, so that the command switches to the resource's own account of the box's
// situation by changing only this file.
import type { Container, TransportEvent } from '../../sdk/src/index.ts';
import { localDay, localWhen, milestone, words } from './words.ts';

type Row = Record<string, unknown>;

export interface ContainerSituation {
  status: string;
  location: string;
  /** Arrival at the port of discharge, estimated or actual, on that port's clocks. */
  eta: string;
  /** The last free day as the calendar day where it applies, with who set it and the zone. */
  lastFreeDay: string;
  availability: string;
  holds: string;
  fees: string;
}

const related = (value: unknown): Row | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : undefined);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** The newest event by when it happened (then by when svc learnt of it). */
export function latestEvent(events: unknown): TransportEvent | undefined {
  if (!Array.isArray(events)) return undefined;
  const key = (e: Row) => `${e.timestamp ?? ''}|${e.created_at ?? ''}`;
  return ([...events] as Row[]).filter((e) => typeof e.event === 'string').sort((a, b) => key(a).localeCompare(key(b))).at(-1) as TransportEvent | undefined;
}

/** A place by its UN/LOCODE, named when it is one of the shipment's ports. */
function placeName(locode: string | null | undefined, shipment: Row | undefined): string | undefined {
  if (!locode) return undefined;
  for (const port of ['port_of_lading', 'port_of_discharge', 'destination']) {
    if (shipment?.[`${port}_locode`] === locode && text(shipment[`${port}_name`])) return `${shipment[`${port}_name`]} (${locode})`;
  }
  return locode;
}

const AT_SEA = new Set(['vessel_departed', 'transshipment_departed', 'feeder_departed']);
const ON_BOARD = new Set(['vessel_loaded', 'transshipment_loaded', 'feeder_loaded']);

function locationOf(c: Container, shipment: Row | undefined): string {
  const last = latestEvent(c.transport_events);
  if (!last) return c.current_status === 'new' ? 'not yet reported by the line' : '-';
  const kind = milestone(last.event).replaceAll(' ', '_');
  const voyage = last.voyage_number ? `, voyage ${last.voyage_number}` : '';
  const from = placeName(last.location_locode, shipment);
  if (AT_SEA.has(kind)) return `at sea${voyage}${from ? `, from ${from}` : ''}${text(shipment?.port_of_discharge_locode) ? ` to ${placeName(String(shipment!.port_of_discharge_locode), shipment)}` : ''}`;
  if (ON_BOARD.has(kind)) return `on board at ${from ?? 'a place not reported'}${voyage}`;
  const terminal = related(c.pod_terminal);
  const atPodTerminal = last.location_locode && last.location_locode === shipment?.port_of_discharge_locode && text(terminal?.name);
  return `${from ?? 'place not reported'}${atPodTerminal ? `, ${terminal!.name}` : ''} (last: ${milestone(last.event)}${voyage})`;
}

function etaOf(c: Container, shipment: Row | undefined): string {
  const zone = c.pod_timezone ?? text(shipment?.pod_timezone);
  const arrived = text(shipment?.pod_ata_at) ?? c.pod_arrived_at;
  if (arrived) return `arrived ${localWhen(arrived, zone)}`;
  const eta = text(shipment?.pod_eta_at);
  return eta ? `${localWhen(eta, zone)} (estimated)` : '-';
}

function lastFreeDayOf(c: Container): string {
  const deadlines = c.import_deadlines as Row | undefined;
  // The ramp's own last free day counts there, on the ramp's clocks; otherwise the terminal's at the port.
  const rail = text(deadlines?.pickup_lfd_rail);
  if (rail) return `${localDay(rail, c.final_destination_timezone)}, set by the rail ramp`;
  const line = text(deadlines?.pickup_lfd_line);
  if (line) return `${localDay(line, c.pod_timezone)}, set by the line`;
  return c.pickup_lfd ? `${localDay(c.pickup_lfd, c.pod_timezone)}, set by the terminal` : '-';
}

const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;

export function containerSituation(c: Container): ContainerSituation {
  const shipment = related(c.shipment);
  return {
    status: words(c.current_status),
    location: locationOf(c, shipment),
    eta: etaOf(c, shipment),
    lastFreeDay: lastFreeDayOf(c),
    availability: !c.availability_known ? 'unknown' : c.available_for_pickup ? 'available for pickup' : 'not available',
    holds: c.holds_at_pod_terminal.length ? c.holds_at_pod_terminal.map((h) => `${words(h.name)} (${h.status})`).join(', ') : 'none',
    fees: c.fees_at_pod_terminal.length ? c.fees_at_pod_terminal.map((f) => `${words(f.type)} ${money(f.amount, f.currency_code)}`).join(', ') : 'none',
  };
}
