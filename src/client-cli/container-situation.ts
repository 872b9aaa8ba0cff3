// Where a container is and what stands between it and a pickup, as svc containers show says it:
// the resource's situation (the domain's one rule for it) in the words every face uses, and the
// arrival at the port of discharge on that port's clocks.
import type { Container, TransportEvent } from '../../sdk/src/index.ts';
import { situationText } from '../domain/tracking/situation-text.ts';
import { localWhen, words } from './words.ts';

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

function etaOf(c: Container, shipment: Row | undefined): string {
  const zone = c.pod_timezone ?? text(shipment?.pod_timezone);
  const arrived = text(shipment?.pod_ata_at) ?? c.pod_arrived_at;
  if (arrived) return `arrived ${localWhen(arrived, zone)}`;
  const eta = text(shipment?.pod_eta_at);
  return eta ? `${localWhen(eta, zone)} (estimated)` : '-';
}

/** The last free day where the box is picked up, as the calendar day there (domain situation rule). */
function lastFreeDayOf(c: Container): string {
  const lfd = c.situation.pickup?.last_free_day;
  if (!lfd) return '-';
  return `${lfd.date} (${lfd.timezone ?? 'zone unknown'}), set by the ${lfd.source === 'rail' ? 'rail ramp' : 'terminal'}`;
}

/** Fees at the place of pickup; once the box is picked up, what the terminal charged stays owed. */
const feesOwed = (c: Container) => (c.situation.pickup ? c.situation.pickup.fees : c.fees_at_pod_terminal);

const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;

export function containerSituation(c: Container): ContainerSituation {
  const shipment = related(c.shipment);
  const pickup = c.situation.pickup;
  return {
    status: words(c.current_status),
    location: situationText(c.situation),
    eta: etaOf(c, shipment),
    lastFreeDay: lastFreeDayOf(c),
    availability: !pickup ? 'picked up' : pickup.availability === 'available' ? 'available for pickup' : pickup.availability === 'not_available' ? 'not available' : 'unknown',
    holds: pickup?.holds.length ? pickup.holds.map((h) => `${words(h.name)} (${h.status})`).join(', ') : 'none',
    fees: feesOwed(c).length ? feesOwed(c).map((f) => `${words(f.type)} ${money(f.amount, f.currency_code)}`).join(', ') : 'none',
  };
}
