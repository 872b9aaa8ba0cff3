// The rows of bench:scale's databases, generated in memory: shipments of one to four containers on
// real lines and ports, each container with the milestones its journey has reached by NOW (about
// ten), tracking requests in every status, and one webhook notification per container. Everything
// follows from the row's index through a hash, so a build is repeatable and each table's rows
// agree with the others' without being kept in memory. Pure: the database side is scale-seed.ts.
import { checkDigit } from '../src/domain/inference/iso6346.ts';
import { milestoneKey } from '../src/domain/tracking/milestones.ts';
import type { ContainerStatus, MilestoneName } from '../src/domain/tracking/types.ts';

/** The instant the data describes: journeys started before it are as far along as it allows. */
export const NOW = Date.parse('2026-11-20T00:00:00Z');
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Shipments were created over the year before NOW, evenly, so most journeys are over. */
const HISTORY_DAYS = 365;

export interface Line {
  scac: string;
  blPrefixes: string[];
  containerPrefixes: string[];
  /** Relative share of shipments. */
  weight: number;
}
export interface Place {
  locode: string;
  timeZone: string | null;
}
export interface Port extends Place {
  /** A terminal of the port (FIRMS code where it has one, else SMDG), for pod_terminal. */
  terminal: { id: string; code: string } | null;
}
export interface Vessel {
  imo: string;
  name: string;
}
/** What the seeded reference data offers the generator. */
export interface Reference {
  lines: Line[];
  origins: Port[];
  discharges: Port[];
  transshipments: Port[];
  inland: Place[];
  vessels: Vessel[];
}

export interface Plan {
  containers: number;
  trackingRequests: number;
  /** Account ids: the first holds most of the data, the others share the rest. */
  accounts: string[];
  /** Parties per account, some shipments name one as their customer. */
  partiesPerAccount: number;
}

/** How many containers a shipment has, each as likely: most have one to three. */
const CONTAINERS_PER_SHIPMENT = [1, 1, 1, 2, 2, 2, 3, 3, 4];
const MEAN_CONTAINERS = CONTAINERS_PER_SHIPMENT.reduce((a, b) => a + b) / CONTAINERS_PER_SHIPMENT.length;

/** Share of shipments (per cent) in the first account. */
const LARGE_ACCOUNT_SHARE = 70;

// ---------------------------------------------------------------- hashing, ids, numbers

/** A 32-bit avalanche of one integer (murmur3's finaliser). */
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
/** A hash of (index, salt) in [0, 2^32). */
const hash = (i: number, salt: number) => mix(Math.imul(i, 0x9e3779b1) ^ mix(salt));
/** A hash of (index, salt) in [0, n). */
const pick = (i: number, salt: number, n: number) => hash(i, salt) % n;

/** Row kinds, each its own id space. */
export const KIND = { shipment: 1, container: 2, event: 3, trackingRequest: 4, party: 5, webhook: 6, notification: 7 } as const;

const hex8 = (n: number) => n.toString(16).padStart(8, '0');
/**
 * A version-4-shaped uuid that looks random (so B-trees see random keys, as with
 * gen_random_uuid) and is unique by construction: its last group holds the kind and the index.
 */
export function uuid(kind: number, i: number): string {
  const a = hash(i, kind);
  const b = mix(a ^ i);
  const c = mix(b + kind);
  return `${hex8(a)}-${hex8(b).slice(0, 4)}-4${hex8(b).slice(5)}-${(8 | (c & 3)).toString(16)}${hex8(c).slice(1, 4)}-${kind.toString(16)}${hex8(c).slice(5)}${hex8(i)}`;
}

/**
 * `d` digits that look random and differ for every n below 10^d: n ↦ n·P + k is a bijection
 * modulo 10^d when P is prime to 10 (and n·P stays below 2^53 for the n used here).
 */
function digits(n: number, d: number, salt = 0): string {
  const m = 10 ** d;
  return String((n * 7_654_321 + 104_729_113 * (salt + 1)) % m).padStart(d, '0');
}
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letters = (n: number, count: number, salt: number) => Array.from({ length: count }, (_, j) => LETTERS[pick(n, salt + j, 26)]).join('');

/** An ISO 6346 number: an owner prefix of the line, a six-digit serial and its check digit. */
export function containerNumber(line: Line, k: number): string {
  const owner = line.containerPrefixes[Math.floor(k / 1_000_000 + pick(k, 11, Math.min(3, line.containerPrefixes.length))) % line.containerPrefixes.length];
  const firstTen = owner + digits(k % 1_000_000, 6);
  return firstTen + (checkDigit(firstTen) % 10);
}

/** Bill of lading numbers as the big lines write them; others as their B/L prefix and ten digits. */
function billOfLading(line: Line, n: number): string {
  const prefix = line.blPrefixes[0] ?? line.scac;
  switch (line.scac) {
    case 'MAEU':
      return digits(n, 9, 1);
    case 'MSCU':
      return `${line.blPrefixes.includes('MEDU') ? 'MEDU' : prefix}${LETTERS[Math.floor(n / 1_000_000) % 26]}${digits(n % 1_000_000, 6, 1)}`;
    case 'CMDU':
      return `${prefix}${letters(n, 3, 21)}${digits(n, 7, 1)}`;
    case 'HLCU':
      return `${prefix}${letters(n, 3, 21)}${digits(n, 9, 1)}`;
    case 'ONEY':
      return `${prefix}${letters(n, 3, 21)}${digits(n, 8, 1)}`;
    default:
      return `${prefix}${digits(n, 10, 1)}`;
  }
}

/** Booking numbers: bare digits for most lines, letters first for CMA CGM. */
function bookingNumber(line: Line, n: number): string {
  switch (line.scac) {
    case 'MAEU':
      return digits(n, 9, 2);
    case 'HLCU':
      return digits(n, 8, 2);
    case 'CMDU':
      return `${letters(n, 3, 31)}${digits(n, 7, 2)}`;
    default:
      return digits(n, 10, 2);
  }
}

// ---------------------------------------------------------------- shapes

export interface MilestoneShape {
  name: MilestoneName;
  locode: string;
  timeZone: string | null;
  at: number;
  vessel: Vessel | null;
  voyage: string | null;
  /** The terminal's code where the milestone happens at the port of discharge. */
  terminal: Port['terminal'];
}
export interface ContainerShape {
  k: number;
  id: string;
  number: string;
  /** Milestones reached by NOW, in order. */
  milestones: MilestoneShape[];
  /** Index of its first milestone among all transport events. */
  firstEvent: number;
  status: ContainerStatus;
  onHold: boolean;
}
export interface ShipmentShape {
  i: number;
  id: string;
  account: string;
  accountIndex: number;
  line: Line;
  requestType: 'bill_of_lading' | 'booking_number';
  requestNumber: string;
  bl: string | null;
  booking: string | null;
  customer: string | null;
  pol: Port;
  pod: Port;
  ts: Port | null;
  destination: Place | null;
  vessel: Vessel;
  voyage: string;
  createdAt: number;
  /** The planned times of the ocean legs (estimates for those not reached). */
  etd: number;
  eta: number;
  atd: number | null;
  ata: number | null;
  stoppedAt: number | null;
  updatedAt: number;
  containers: ContainerShape[];
  /** Indexes of the tracking requests that stand for this shipment (see trackingRequestLine). */
  trackingRequests: number[];
}

/** The status a container's last milestone puts it in (the engine's rule, in short). */
function statusAfter(last: MilestoneName | undefined, inland: boolean): ContainerStatus {
  switch (last) {
    case undefined:
    case 'empty_out':
    case 'full_in':
      return 'new';
    case 'vessel_discharged':
      return inland ? 'awaiting_inland_transfer' : 'not_available';
    case 'available':
      return 'available';
    case 'rail_loaded':
    case 'rail_departed':
      return 'on_rail';
    case 'arrived_at_inland_destination':
      return 'grounded';
    case 'full_out':
      return 'picked_up';
    case 'empty_in':
      return 'empty_returned';
    default:
      return 'on_ship';
  }
}

/** Weighted choice: index into `weights` by a hash. */
function weighted<T extends { weight: number }>(items: T[], total: number, h: number): T {
  let r = h % total;
  for (const item of items) if ((r -= item.weight) < 0) return item;
  return items[items.length - 1];
}

/**
 * Walks the shipments in order, yielding each with its containers, until `plan.containers`
 * containers exist. Every table's rows come from one walk of this.
 */
export function* shipments(plan: Plan, ref: Reference): Generator<ShipmentShape> {
  const totalWeight = ref.lines.reduce((s, l) => s + l.weight, 0);
  // Shipments spread over the history as their expected number; tracking requests over a slightly
  // smaller one, so that every request finds its shipment before the walk ends.
  const expectedShipments = Math.ceil(plan.containers / MEAN_CONTAINERS);
  const requestSpan = Math.floor(plan.containers / (MEAN_CONTAINERS * 1.05));
  let t = 0;
  let k = 0;
  let event = 0;
  for (let i = 0; k < plan.containers; i++) {
    const h = (salt: number) => hash(i, salt);
    const accountIndex = h(1) % 100 < LARGE_ACCOUNT_SHARE || plan.accounts.length === 1 ? 0 : 1 + (h(2) % (plan.accounts.length - 1));
    const line = weighted(ref.lines, totalWeight, h(3));
    const requestType = h(4) % 100 < 85 ? 'bill_of_lading' : 'booking_number';
    const bl = requestType === 'bill_of_lading' || h(5) % 100 < 70 ? billOfLading(line, i) : null;
    const booking = requestType === 'booking_number' || h(6) % 100 < 30 ? bookingNumber(line, i) : null;
    const pol = ref.origins[h(7) % ref.origins.length];
    const pod = ref.discharges[h(8) % ref.discharges.length];
    // A transshipment port is neither end of the journey (milestones are keyed by place).
    const via = ref.transshipments[h(10) % ref.transshipments.length];
    const ts = h(9) % 100 < 35 && via.locode !== pol.locode && via.locode !== pod.locode ? via : null;
    const destination = ref.inland.length > 0 && pod.locode.startsWith('US') && h(11) % 100 < 15 ? ref.inland[h(12) % ref.inland.length] : null;
    const vessel = ref.vessels[h(13) % ref.vessels.length];
    const feeder = ref.vessels[h(14) % ref.vessels.length];
    const voyage = `${digits(h(15) % 1000, 3)}${'EWNS'[h(16) % 4]}`;
    const createdAt = NOW - HISTORY_DAYS * DAY + Math.floor((i / expectedShipments) * HISTORY_DAYS * DAY) + (h(17) % DAY);
    // The journey, in days after creation: yard moves, the ocean leg(s), then discharge and delivery.
    const departs = createdAt + (3 + (h(18) % 4)) * DAY;
    const tsArrives = departs + (8 + (h(19) % 6)) * DAY;
    const tsDeparts = tsArrives + (2 + (h(20) % 5)) * DAY;
    const arrives = (ts ? tsDeparts : departs) + (14 + (h(21) % 20)) * DAY;
    const count = CONTAINERS_PER_SHIPMENT[h(22) % CONTAINERS_PER_SHIPMENT.length];
    const containers: ContainerShape[] = [];
    for (let c = 0; c < count && k < plan.containers; c++, k++) {
      const g = (salt: number) => hash(k, salt);
      const yard = (base: number, salt: number) => base + (g(salt) % (12 * HOUR));
      const at = (p: Place, name: MilestoneName, time: number, v: Vessel | null = null, terminal: Port['terminal'] = null): MilestoneShape => ({
        name,
        locode: p.locode,
        timeZone: p.timeZone,
        at: time,
        vessel: v,
        voyage: v ? voyage : null,
        terminal,
      });
      const journey: MilestoneShape[] = [
        at(pol, 'empty_out', yard(createdAt + DAY, 1)),
        at(pol, 'full_in', yard(departs - 2 * DAY, 2)),
        at(pol, 'vessel_loaded', departs - (g(3) % 20) * HOUR, ts ? feeder : vessel),
        at(pol, 'vessel_departed', departs, ts ? feeder : vessel),
      ];
      if (ts) {
        journey.push(
          at(ts, 'transshipment_arrived', tsArrives, feeder),
          at(ts, 'transshipment_discharged', yard(tsArrives, 4), feeder),
          at(ts, 'transshipment_loaded', tsDeparts - (g(5) % 20) * HOUR, vessel),
          at(ts, 'transshipment_departed', tsDeparts, vessel),
        );
      }
      const discharged = yard(arrives, 6);
      journey.push(at(pod, 'vessel_arrived', arrives, vessel, pod.terminal), at(pod, 'vessel_discharged', discharged, vessel, pod.terminal));
      if (destination) {
        const railed = discharged + (2 + (g(7) % 3)) * DAY;
        journey.push(
          at(pod, 'rail_loaded', railed, null, pod.terminal),
          at(pod, 'rail_departed', railed + 6 * HOUR),
          at(destination, 'arrived_at_inland_destination', railed + (3 + (g(8) % 4)) * DAY),
          at(destination, 'full_out', railed + (5 + (g(9) % 4)) * DAY),
          at(destination, 'empty_in', railed + (9 + (g(10) % 6)) * DAY),
        );
      } else {
        const available = discharged + (1 + (g(7) % 3)) * DAY;
        journey.push(
          at(pod, 'available', available, null, pod.terminal),
          at(pod, 'full_out', available + (1 + (g(8) % 4)) * DAY, null, pod.terminal),
          at(pod, 'empty_in', available + (6 + (g(9) % 8)) * DAY),
        );
      }
      const milestones = journey.filter((m) => m.at < NOW);
      const status = statusAfter(milestones[milestones.length - 1]?.name, destination !== null);
      containers.push({ k, id: uuid(KIND.container, k), number: containerNumber(line, k), milestones, firstEvent: event, status, onHold: status === 'not_available' && g(12) % 100 < 30 });
      event += milestones.length;
    }
    const requestsUntil = k >= plan.containers ? plan.trackingRequests : Math.min(plan.trackingRequests, Math.ceil(((i + 1) * plan.trackingRequests) / requestSpan));
    const trackingRequests: number[] = [];
    for (; t < requestsUntil; t++) trackingRequests.push(t);
    const lastMove = Math.max(createdAt, ...containers.flatMap((c) => c.milestones.map((m) => m.at)));
    const done = containers.every((c) => c.status === 'empty_returned');
    const stoppedAt = done ? lastMove + DAY : null;
    const updatedAt = Math.min(NOW - HOUR, lastMove + (h(23) % (6 * HOUR)));
    yield {
      i,
      id: uuid(KIND.shipment, i),
      account: plan.accounts[accountIndex],
      accountIndex,
      line,
      requestType,
      requestNumber: requestType === 'bill_of_lading' ? (bl as string) : (booking as string),
      bl,
      booking,
      customer: h(24) % 100 < 40 ? uuid(KIND.party, accountIndex * plan.partiesPerAccount + (h(25) % plan.partiesPerAccount)) : null,
      pol,
      pod,
      ts,
      destination,
      vessel,
      voyage,
      createdAt,
      etd: departs,
      eta: arrives,
      atd: departs < NOW ? departs : null,
      ata: arrives < NOW ? arrives : null,
      stoppedAt: stoppedAt !== null && stoppedAt < NOW ? stoppedAt : null,
      updatedAt,
      containers,
      trackingRequests,
    };
  }
}

// ---------------------------------------------------------------- COPY text lines

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
/** One COPY text-format line; values are free of tabs and newlines, JSON's backslashes doubled. */
const line = (values: (string | number | boolean | null)[]) => `${values.map((v) => (v === null ? '\\N' : String(v))).join('\t')}\n`;
const json = (v: unknown) => JSON.stringify(v).replace(/\\/g, '\\\\');
const textArray = (items: string[]) => `{${items.join(',')}}`;

export const COLUMNS = {
  parties: ['id', 'account_id', 'company_name', 'created_at', 'updated_at'],
  webhooks: ['id', 'account_id', 'url', 'events', 'secret', 'created_at', 'updated_at', 'last_succeeded_at'],
  shipments: [
    'id', 'account_id', 'scac', 'request_type', 'request_number', 'bill_of_lading_number', 'booking_number', 'ref_numbers', 'customer_id', 'state',
    'line_tracking_last_attempted_at', 'line_tracking_last_succeeded_at', 'line_tracking_last_changed_at', 'line_tracking_stopped_at', 'line_tracking_stopped_reason',
    'created_at', 'updated_at', 'on_hold', 'container_statuses', 'port_locodes', 'pol_locode', 'pod_locode',
  ],
  shipment_refreshes: ['shipment_id', 'next_refresh_at'],
  containers: ['id', 'account_id', 'shipment_id', 'number', 'ref_numbers', 'state', 'created_at', 'updated_at'],
  transport_events: [
    'id', 'account_id', 'shipment_id', 'container_id', 'event', 'key', 'timestamp', 'timezone', 'location_locode', 'terminal_code', 'terminal_id',
    'vessel_imo', 'vessel_name', 'voyage_number', 'data_source', 'source_event_id', 'published_at', 'created_at',
  ],
  tracking_requests: [
    'id', 'account_id', 'request_number', 'request_type', 'scac', 'status', 'failed_reason', 'ref_numbers', 'is_retrying', 'retry_count', 'shipment_id',
    'awaiting_since', 'next_attempt_at', 'created_at', 'updated_at',
  ],
  domain_events: ['id', 'account_id', 'name', 'reference_type', 'reference_id', 'shipment_id', 'container_id', 'sequence', 'created_at'],
  webhook_notifications: ['id', 'account_id', 'webhook_id', 'domain_event_id', 'event', 'delivery_status', 'attempts', 'retries', 'next_attempt_at', 'delivered_at', 'created_at', 'updated_at'],
} as const;
export type ScaleTable = keyof typeof COLUMNS;

export function partyLines(plan: Plan): string[] {
  return plan.accounts.flatMap((account, a) =>
    Array.from({ length: plan.partiesPerAccount }, (_, p) => {
      const created = iso(NOW - HISTORY_DAYS * DAY + p * DAY);
      return line([uuid(KIND.party, a * plan.partiesPerAccount + p), account, `Customer ${a + 1}-${p + 1} Trading Co`, created, created]);
    }),
  );
}

const WEBHOOK_EVENTS = ['container.transport.vessel_arrived', 'container.transport.vessel_discharged', 'container.transport.full_out', 'container.transport.empty_in', 'container.transport.available'];
export function webhookLines(plan: Plan): string[] {
  return plan.accounts.map((account, a) =>
    line([uuid(KIND.webhook, a), account, `https://hooks.example.com/svc/${a + 1}`, textArray(WEBHOOK_EVENTS), hex8(hash(a, 99)).repeat(8), iso(NOW - HISTORY_DAYS * DAY), iso(NOW - HISTORY_DAYS * DAY), iso(NOW - HOUR)]),
  );
}

function shipmentState(s: ShipmentShape) {
  return {
    bill_of_lading_number: s.bl,
    booking_number: s.booking,
    shipping_line_scac: s.line.scac,
    port_of_lading_locode: s.pol.locode,
    port_of_discharge_locode: s.pod.locode,
    destination_locode: s.destination?.locode ?? null,
    transshipment_locodes: s.ts ? [s.ts.locode] : [],
    pod_vessel_name: s.vessel.name,
    pod_vessel_imo: s.vessel.imo,
    pod_voyage_number: s.voyage,
    pol_etd_at: iso(s.etd),
    pol_atd_at: iso(s.atd),
    pod_eta_at: iso(s.eta),
    pod_original_eta_at: iso(s.eta - DAY),
    pod_ata_at: iso(s.ata),
    destination_eta_at: s.destination ? iso(s.eta + 8 * DAY) : null,
    destination_ata_at: null,
    pol_timezone: s.pol.timeZone,
    pod_timezone: s.pod.timeZone,
    destination_timezone: s.destination?.timeZone ?? null,
    pod_terminal_id: s.pod.terminal?.id ?? null,
  };
}

/** A tracked shipment's next refresh (migration 029), within the next six hours. */
export const refreshLine = (s: ShipmentShape): string => line([s.id, iso(NOW + (s.i % 360) * 60_000)]);

export function shipmentLine(s: ShipmentShape): string {
  const refreshed = iso(Math.min(NOW - HOUR, s.updatedAt + 6 * HOUR));
  return line([
    s.id, s.account, s.line.scac, s.requestType, s.requestNumber, s.bl, s.booking, s.i % 5 === 0 ? textArray([`PO${digits(s.i, 7, 3)}`]) : '{}', s.customer, json(shipmentState(s)),
    refreshed, refreshed, iso(s.updatedAt), iso(s.stoppedAt), s.stoppedAt === null ? null : 'all_containers_terminated',
    iso(s.createdAt), iso(s.updatedAt),
    // What migrations 017's, 026's and 031's triggers keep (they are off during the load, see scale-seed.ts).
    s.containers.some((c) => c.onHold),
    textArray([...new Set(s.containers.map((c) => c.status))].sort()),
    textArray([s.pol.locode, s.pod.locode, ...(s.destination ? [s.destination.locode] : [])]),
    s.pol.locode,
    s.pod.locode,
  ]);
}

function containerState(s: ShipmentShape, c: ContainerShape) {
  const when = (name: MilestoneName) => iso(c.milestones.find((m) => m.name === name)?.at ?? null);
  const reachedPod = c.milestones.some((m) => m.name === 'vessel_discharged');
  return {
    number: c.number,
    seal_number: `SL${digits(c.k, 7, 4)}`,
    equipment_type: c.k % 17 === 0 ? 'reefer' : 'dry',
    equipment_length: c.k % 3 === 0 ? 20 : 40,
    equipment_height: c.k % 3 === 0 ? 'standard' : 'high_cube',
    weight_in_lbs: 20_000 + (c.k % 25_000),
    empty_out_at: when('empty_out'),
    pol_full_in_at: when('full_in'),
    pol_vessel_loaded_at: when('vessel_loaded'),
    pol_vessel_departed_at: when('vessel_departed'),
    pod_arrived_at: when('vessel_arrived'),
    pod_discharged_at: when('vessel_discharged'),
    pod_full_out_at: s.destination ? null : when('full_out'),
    final_destination_full_out_at: s.destination ? when('full_out') : null,
    empty_terminated_at: when('empty_in'),
    pod_rail_loaded_at: when('rail_loaded'),
    pod_rail_departed_at: when('rail_departed'),
    ind_eta_at: s.destination ? iso(s.eta + 8 * DAY) : null,
    ind_ata_at: when('arrived_at_inland_destination'),
    ind_rail_unloaded_at: null,
    pod_rail_carrier_scac: s.destination ? 'UPRR' : null,
    ind_rail_carrier_scac: s.destination ? 'UPRR' : null,
    pod_timezone: s.pod.timeZone,
    final_destination_timezone: s.destination?.timeZone ?? null,
    empty_terminated_timezone: c.milestones.some((m) => m.name === 'empty_in') ? (s.destination ?? s.pod).timeZone : null,
    availability_known: reachedPod && s.pod.terminal !== null,
    available_for_pickup: reachedPod ? c.status === 'available' : null,
    holds_at_pod_terminal: c.onHold ? [{ name: 'customs', status: 'hold', description: null }] : [],
    fees_at_pod_terminal: [],
    pickup_lfd: c.status === 'available' ? iso(Math.floor(NOW / DAY) * DAY + 3 * DAY) : null,
    pickup_appointment_at: null,
    pod_terminal: reachedPod ? (s.pod.terminal?.code ?? null) : null,
    pod_terminal_id: reachedPod ? (s.pod.terminal?.id ?? null) : null,
    terminal_checked_at: reachedPod && s.pod.terminal ? iso(s.updatedAt) : null,
    current_status: c.status,
  };
}

export function containerLine(s: ShipmentShape, c: ContainerShape): string {
  const updated = Math.max(s.createdAt, ...c.milestones.map((m) => m.at));
  return line([c.id, s.account, s.id, c.number, c.k % 7 === 0 ? textArray([`REF${digits(c.k, 8, 5)}`]) : '{}', json(containerState(s, c)), iso(s.createdAt), iso(Math.min(NOW - HOUR, updated))]);
}

/** The carrier publishes a milestone within hours; svc records it at its next refresh. */
export function eventLines(s: ShipmentShape, c: ContainerShape): string {
  let out = '';
  c.milestones.forEach((m, j) => {
    const published = m.at + (hash(c.firstEvent + j, 41) % (6 * HOUR));
    out += line([
      uuid(KIND.event, c.firstEvent + j), s.account, s.id, c.id, `container.transport.${m.name}`, milestoneKey(c.number, m.name, m.locode),
      iso(m.at), m.timeZone, m.locode, m.terminal?.code ?? null, m.terminal?.id ?? null,
      m.vessel?.imo ?? null, m.vessel?.name ?? null, m.voyage, 'shipping_line', `${s.line.scac}-${hex8(hash(c.firstEvent + j, 42))}`, iso(published), iso(published + HOUR),
    ]);
  });
  return out;
}

/**
 * The notification of a container's latest milestone (one domain event, delivered to its
 * account's webhook): domain event and notification share the container's index.
 */
export function notificationLines(s: ShipmentShape, c: ContainerShape): { domainEvent: string; notification: string } | null {
  const last = c.milestones.length - 1;
  if (last < 0) return null;
  const m = c.milestones[last];
  const created = iso(m.at + 2 * HOUR);
  const roll = hash(c.k, 51) % 100;
  const status = roll < 97 ? 'succeeded' : roll < 99 ? 'failed' : 'pending';
  return {
    domainEvent: line([c.k + 1, s.account, `container.transport.${m.name}`, 'transport_event', uuid(KIND.event, c.firstEvent + last), s.id, c.id, last + 1, created]),
    notification: line([
      uuid(KIND.notification, c.k), s.account, uuid(KIND.webhook, s.accountIndex), c.k + 1, `container.transport.${m.name}`, status,
      status === 'succeeded' ? 1 : 4, status === 'succeeded' ? 0 : 3, status === 'pending' ? iso(NOW + HOUR) : '-infinity', status === 'succeeded' ? created : null, created, created,
    ]),
  };
}

/**
 * Tracking request t belongs to shipment s (one in ten or so have one): most were created (or
 * stopped, when the shipment's tracking stopped) and point at it; the rest are pending, awaiting a
 * manifest or failed, with numbers of their own (index containers + t, above every shipment's, so
 * no active number repeats).
 */
export function trackingRequestLine(t: number, s: ShipmentShape, plan: Plan): string {
  const roll = hash(t, 61) % 100;
  const own = roll < 30;
  const status = !own ? (s.stoppedAt === null ? 'created' : 'tracking_stopped') : roll < 12 ? 'pending' : roll < 20 ? 'awaiting_manifest' : 'failed';
  const n = plan.containers + t;
  const number = own ? (s.requestType === 'bill_of_lading' ? billOfLading(s.line, n) : bookingNumber(s.line, n)) : s.requestNumber;
  const created = own ? NOW - (hash(t, 62) % (60 * DAY)) : s.createdAt - 5 * 60_000;
  const updated = own ? created + (hash(t, 63) % DAY) : s.createdAt;
  const due = status === 'pending' || status === 'awaiting_manifest' ? iso(NOW + (hash(t, 64) % (4 * HOUR))) : null;
  return line([
    uuid(KIND.trackingRequest, t), s.account, number, s.requestType, s.line.scac, status, status === 'failed' ? (t % 2 ? 'expired' : 'retries_exhausted') : null, '{}',
    status === 'awaiting_manifest', status === 'failed' ? 8 : status === 'awaiting_manifest' ? 2 : 0, own ? null : s.id,
    status === 'awaiting_manifest' ? iso(created) : null, due, iso(created), iso(Math.min(NOW - HOUR, updated)),
  ]);
}
