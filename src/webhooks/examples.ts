// Example webhook notifications: for any event, the document svc would deliver, built around one
// made-up shipment (Shanghai → Los Angeles on the COSCO SHIPPING UNIVERSE, two containers). Every
// record goes through the serializers real deliveries use, and what is included follows
// deliveryIncludes() through the same loader, so an example cannot disagree with a delivery.
// Ids and times are fixed: one event always gives the same example.
import { MINUTE } from '../domain/time-units.ts';
import { stableId } from '../refdata/ids.ts';
import type { LocationRow, TerminalRow, VesselRow } from '../refdata/types.ts';
import type { Resource } from '../jsonapi/document.ts';
import { loadIncluded, type LoadContext, type ResourceTypes } from '../jsonapi/include.ts';
import { containerUpdatedEventResource, estimatedEventResource } from '../jsonapi/serializers/events.ts';
import { portResource, terminalResource, vesselResource } from '../jsonapi/serializers/reference.ts';
import { containerResource, shipmentResource, transportEventResource, type TransportEventRow } from '../jsonapi/serializers/tracking.ts';
import { trackingRequestResource } from '../jsonapi/serializers/tracking-request.ts';
import { webhookNotificationResource } from '../jsonapi/serializers/webhook-notification.ts';
import type { Queryable } from '../store/db.ts';
import type { ContainerRow, ShipmentRow } from '../store/shipments.ts';
import type { TrackingRequestRow, TrackingRequestStatus } from '../store/tracking-requests.ts';
import type { NotificationRow } from '../store/webhook-notifications.ts';
import { CHANGESET_EVENTS, deliveryIncludes } from './notification-document.ts';

export interface ExampleNotification {
  data: Resource;
  included: Resource[];
}

/** The type of the record a notification of `event` points at (its reference_object). */
export function exampleReferenceType(event: string): string {
  if (event.startsWith('tracking_request.')) return 'tracking_request';
  if (event === 'shipment.estimated.arrival') return 'estimated_event';
  if (CHANGESET_EVENTS.has(event)) return 'container_updated_event';
  if (event === 'container.created') return 'container';
  // Milestones, and the container and document changes svc reports as transport events.
  return 'transport_event';
}

const exampleId = (key: string) => stableId('webhook_example', key);
const date = (iso: string) => new Date(iso);

// ---- reference records: copies of the seeded rows, with the same ids, so that an example needs
// no database and every id in it names a real port, terminal or vessel.

function location(locode: string, name: string, country_code: string, state_abbr: string | null, latitude: number, longitude: number, time_zone: string): LocationRow {
  // The kind flags are never serialized; every place here is (also) a seaport.
  const flags = { is_seaport: true, is_rail: false, is_icd: false, is_inland_hub: false, alias_of: null };
  return { id: stableId('location', locode), locode, name, country_code, state_abbr, city: name, latitude, longitude, time_zone, ...flags };
}

const PORTS = [
  location('CNSHA', 'Shanghai', 'CN', null, 31.21667, 121.5, 'Asia/Shanghai'),
  location('KRPUS', 'Busan', 'KR', null, 35.1, 129.03333, 'Asia/Seoul'),
  location('USLAX', 'Los Angeles', 'US', 'CA', 33.75, -118.25, 'America/Los_Angeles'),
  location('USCHI', 'Chicago', 'US', 'IL', 41.88333, -87.6, 'America/Chicago'),
];
const zoneOf = (locode: string | null) => PORTS.find((p) => p.locode === locode)?.time_zone ?? null;

const TERMINAL: TerminalRow = {
  id: stableId('terminal', 'USLAX:Y773'),
  name: 'West Basin Container Terminal',
  nickname: 'WBCT',
  firms_code: 'Y773',
  smdg_code: 'WBCT',
  city: 'Los Angeles',
  state_abbr: 'CA',
  country: 'US',
  port_id: stableId('location', 'USLAX'),
  latitude: 33.756944,
  longitude: -118.277778,
};

const VESSEL: VesselRow = { id: stableId('vessel', '9795610'), name: 'COSCO SHIPPING UNIVERSE', imo: '9795610', mmsi: null, operator: 'COSCO' };
const VOYAGE = '045E';
const LINE = { name: 'COSCO Shipping Lines', short_name: 'COSCO Shipping Lines' };

// ---- when and where each event happens in the example journey ---------------------------------

interface Moment {
  /** When it happened (for an estimate: the time estimated). */
  at: string;
  where: string | null;
  onVessel: boolean;
  /** When svc learned of it; a few minutes after `at` unless given. */
  seen?: string;
}

const m = (at: string, where: string | null = null, onVessel = false, seen?: string): Moment => ({ at, where, onVessel, seen });

// In journey order: a container event's `sequence` is its position among the container events here.
// Names svc does not offer (yet) are listed too, so adding one to the catalogue needs no change here.
const JOURNEY: [string, Moment][] = [
  ['tracking_request.succeeded', m('2026-02-20T09:15:42Z')],
  ['tracking_request.awaiting_manifest', m('2026-02-20T09:15:42Z')],
  ['tracking_request.failed', m('2026-02-23T09:15:40Z')],
  ['container.created', m('2026-02-20T09:15:42Z')],
  ['container.transport.empty_out', m('2026-02-21T03:12:00Z', 'CNSHA')],
  ['container.transport.full_in', m('2026-02-23T07:48:00Z', 'CNSHA')],
  ['document.extracted', m('2026-02-24T10:02:00Z')],
  ['document.extraction_failed', m('2026-02-24T10:02:00Z')],
  ['container.transport.estimated.vessel_departed', m('2026-02-26T02:00:00Z', 'CNSHA', true, '2026-02-24T18:00:00Z')],
  ['container.transport.vessel_loaded', m('2026-02-25T16:05:00Z', 'CNSHA', true)],
  ['container.transport.vessel_departed', m('2026-02-26T02:30:00Z', 'CNSHA', true)],
  ['container.transport.transshipment_arrived', m('2026-03-01T06:40:00Z', 'KRPUS', true)],
  ['container.transport.transshipment_discharged', m('2026-03-01T14:25:00Z', 'KRPUS', true)],
  ['container.transport.transshipment_loaded', m('2026-03-02T21:10:00Z', 'KRPUS', true)],
  ['container.transport.transshipment_departed', m('2026-03-03T05:00:00Z', 'KRPUS', true)],
  ['container.transport.feeder_arrived', m('2026-03-01T04:15:00Z', 'KRPUS', true)],
  ['container.transport.feeder_discharged', m('2026-03-01T09:50:00Z', 'KRPUS', true)],
  ['container.transport.feeder_loaded', m('2026-02-28T22:30:00Z', 'KRPUS', true)],
  ['container.transport.feeder_departed', m('2026-02-28T23:55:00Z', 'KRPUS', true)],
  ['shipment.estimated.arrival', m('2026-03-12T14:00:00Z', 'USLAX', true, '2026-03-08T11:30:00Z')],
  ['container.transport.estimated.vessel_arrived', m('2026-03-12T14:00:00Z', 'USLAX', true, '2026-03-08T11:30:00Z')],
  ['container.pod_terminal_changed', m('2026-03-10T19:20:00Z', 'USLAX')],
  ['container.transport.vessel_arrived', m('2026-03-12T14:00:00Z', 'USLAX', true)],
  ['container.transport.vessel_berthed', m('2026-03-12T20:30:00Z', 'USLAX', true)],
  ['container.transport.vessel_discharged', m('2026-03-13T11:20:00Z', 'USLAX', true)],
  ['container.pickup_lfd_line.changed', m('2026-03-13T16:45:00Z', 'USLAX')],
  ['container.transport.not_available', m('2026-03-13T12:00:00Z', 'USLAX')],
  ['container.transport.available', m('2026-03-14T15:00:00Z', 'USLAX')],
  ['container.updated', m('2026-03-14T15:00:00Z', 'USLAX')],
  ['container.pickup_lfd.changed', m('2026-03-14T15:00:00Z', 'USLAX')],
  ['container.pickup_lfd_terminal.changed', m('2026-03-14T15:00:00Z', 'USLAX')],
  ['container.pickup_appointment.changed', m('2026-03-15T08:30:00Z', 'USLAX')],
  ['container.transport.rail_loaded', m('2026-03-15T10:40:00Z', 'USLAX')],
  ['container.transport.rail_departed', m('2026-03-15T18:05:00Z', 'USLAX')],
  ['container.transport.estimated.arrived_at_inland_destination', m('2026-03-19T06:00:00Z', 'USCHI', false, '2026-03-15T18:10:00Z')],
  ['container.pickup_lfd_rail.changed', m('2026-03-19T09:00:00Z', 'USCHI')],
  ['container.transport.rail_arrived', m('2026-03-19T05:35:00Z', 'USCHI')],
  ['container.transport.rail_unloaded', m('2026-03-19T08:10:00Z', 'USCHI')],
  ['container.transport.arrived_at_inland_destination', m('2026-03-19T08:10:00Z', 'USCHI')],
  ['container.transport.full_out', m('2026-03-16T17:40:00Z', 'USLAX')],
  ['container.transport.delivered', m('2026-03-17T13:00:00Z', 'USLAX')],
  ['container.transport.empty_in', m('2026-03-20T19:10:00Z', 'USLAX')],
  ['tracking_request.tracking_stopped', m('2026-04-11T14:00:00Z')],
];

const FALLBACK = m('2026-03-14T15:00:00Z', 'USLAX');

function momentOf(event: string): { moment: Moment; seen: Date; sequence: number | null } {
  const index = JOURNEY.findIndex(([name]) => name === event);
  const moment = index >= 0 ? JOURNEY[index][1] : FALLBACK;
  const seen = moment.seen ? date(moment.seen) : new Date(date(moment.at).getTime() + 3 * MINUTE);
  // Real deliveries number only events about one container (and not ETA or request events).
  const perContainer = (name: string) => !['tracking_request', 'estimated_event'].includes(exampleReferenceType(name));
  const before = JOURNEY.slice(0, index < 0 ? JOURNEY.length : index).filter(([name]) => perContainer(name)).length;
  return { moment, seen, sequence: perContainer(event) ? before + 1 : null };
}

// ---- the shipment and its containers ----------------------------------------------------------

const ACCOUNT = exampleId('account');
const SHIPMENT_ID = exampleId('shipment');
const CONTAINER_IDS = [exampleId('container:1'), exampleId('container:2')];
const BILL_OF_LADING = 'COSU6351234560';
const LFD = '2026-03-19T07:00:00Z'; // midnight at the terminal, March 19
const CUSTOMS_HOLD = { name: 'customs', status: 'hold', description: 'CBP hold' };

function shipmentRow(event: string, seen: Date): ShipmentRow {
  const stopped = event === 'tracking_request.tracking_stopped';
  return {
    id: SHIPMENT_ID,
    account_id: ACCOUNT,
    scac: 'COSU',
    request_type: 'bill_of_lading',
    request_number: BILL_OF_LADING,
    bill_of_lading_number: BILL_OF_LADING,
    booking_number: '6351234560',
    ref_numbers: ['PO-48213'],
    tags: ['example'],
    customer_id: null,
    state: {
      port_of_lading_locode: 'CNSHA',
      port_of_lading_name: 'Shanghai',
      port_of_discharge_locode: 'USLAX',
      port_of_discharge_name: 'Los Angeles',
      destination_locode: null,
      destination_name: null,
      transshipment_locodes: [],
      pod_vessel_name: VESSEL.name,
      pod_vessel_imo: VESSEL.imo,
      pod_voyage_number: VOYAGE,
      pol_etd_at: '2026-02-26T02:00:00Z',
      pol_atd_at: '2026-02-26T02:30:00Z',
      pol_original_etd_at: '2026-02-25T22:00:00Z',
      pod_eta_at: '2026-03-12T14:00:00Z',
      pod_original_eta_at: '2026-03-11T22:00:00Z',
      pod_ata_at: '2026-03-12T14:00:00Z',
      destination_eta_at: null,
      destination_ata_at: null,
      pol_timezone: 'Asia/Shanghai',
      pod_timezone: 'America/Los_Angeles',
      destination_timezone: null,
      pod_terminal_id: TERMINAL.id,
    },
    line_tracking_last_attempted_at: seen,
    line_tracking_last_succeeded_at: seen,
    line_tracking_last_changed_at: seen,
    line_tracking_stopped_at: stopped ? seen : null,
    line_tracking_stopped_reason: stopped ? 'past_arrival_window' : null,
    next_refresh_at: null,
    created_at: date('2026-02-20T09:15:42Z'),
    updated_at: seen,
  };
}

// Both boxes are discharged; the first is ready to be picked up, the second is held by customs.
const CONTAINER_STATES: Record<string, unknown>[] = [
  {
    number: 'CSNU7301428',
    seal_number: 'CS8842173',
    equipment_type: 'dry',
    equipment_length: 40,
    equipment_height: 'high_cube',
    weight_in_lbs: 26455,
    empty_out_at: '2026-02-21T03:12:00Z',
    pol_full_in_at: '2026-02-23T07:48:00Z',
    pol_vessel_loaded_at: '2026-02-25T16:05:00Z',
    pol_vessel_departed_at: '2026-02-26T02:30:00Z',
    pod_arrived_at: '2026-03-12T14:00:00Z',
    pod_discharged_at: '2026-03-13T11:20:00Z',
    pickup_lfd: LFD,
    pickup_appointment_at: '2026-03-16T16:00:00Z',
    availability_known: true,
    available_for_pickup: true,
    holds_at_pod_terminal: [],
    fees_at_pod_terminal: [],
    current_status: 'available',
  },
  {
    number: 'CBHU9035170',
    seal_number: 'CS8842174',
    equipment_type: 'dry',
    equipment_length: 20,
    equipment_height: 'standard',
    weight_in_lbs: 38140,
    empty_out_at: '2026-02-21T05:40:00Z',
    pol_full_in_at: '2026-02-23T09:02:00Z',
    pol_vessel_loaded_at: '2026-02-25T17:30:00Z',
    pol_vessel_departed_at: '2026-02-26T02:30:00Z',
    pod_arrived_at: '2026-03-12T14:00:00Z',
    pod_discharged_at: '2026-03-13T13:05:00Z',
    pickup_lfd: LFD,
    pickup_appointment_at: null,
    availability_known: true,
    available_for_pickup: false,
    holds_at_pod_terminal: [CUSTOMS_HOLD],
    fees_at_pod_terminal: [{ type: 'exam', amount: 350, currency_code: 'USD' }],
    current_status: 'not_available',
  },
];

function containerRow(index: number, seen: Date): ContainerRow {
  const state = CONTAINER_STATES[index];
  const common = { pod_timezone: 'America/Los_Angeles', pod_terminal: TERMINAL.firms_code, pod_terminal_id: TERMINAL.id, terminal_checked_at: '2026-03-14T15:00:00Z' };
  return {
    id: CONTAINER_IDS[index],
    account_id: ACCOUNT,
    shipment_id: SHIPMENT_ID,
    number: state.number as string,
    ref_numbers: ['PO-48213'],
    state: { ...state, ...common },
    created_at: date('2026-02-20T09:15:42Z'),
    updated_at: seen,
  };
}

// ---- the event records ------------------------------------------------------------------------

function transportEventRow(event: string, moment: Moment, seen: Date): TransportEventRow {
  const vessel = moment.onVessel ? VESSEL : null;
  return {
    id: exampleId(`transport_event:${event}`),
    shipment_id: SHIPMENT_ID,
    container_id: CONTAINER_IDS[0],
    event,
    timestamp: date(moment.at),
    timezone: zoneOf(moment.where),
    location_locode: moment.where,
    terminal_code: moment.where === 'USLAX' ? TERMINAL.firms_code : null,
    vessel_imo: vessel?.imo ?? null,
    vessel_name: vessel?.name ?? null,
    voyage_number: vessel ? VOYAGE : null,
    data_source: /available|lfd|appointment|pod_terminal|berthed/.test(event) ? 'terminal' : 'shipping_line',
    published_at: new Date(seen.getTime() - MINUTE),
    created_at: seen,
  };
}

function trackingRequestRow(event: string, seen: Date): TrackingRequestRow {
  const outcome = event.replace('tracking_request.', '');
  const statuses: Record<string, TrackingRequestStatus> = { failed: 'failed', awaiting_manifest: 'awaiting_manifest', tracking_stopped: 'tracking_stopped' };
  const status = statuses[outcome] ?? 'created';
  return {
    id: exampleId('tracking_request'),
    account_id: ACCOUNT,
    request_number: BILL_OF_LADING,
    request_type: 'bill_of_lading',
    scac: 'COSU',
    status,
    failed_reason: status === 'failed' ? 'not_found' : null,
    ref_numbers: ['PO-48213'],
    tags: ['example'],
    is_retrying: false,
    retry_count: status === 'failed' ? 3 : 0,
    customer_id: null,
    // Only a request that found its shipment points at it.
    shipment_id: status === 'created' || status === 'tracking_stopped' ? SHIPMENT_ID : null,
    awaiting_since: status === 'awaiting_manifest' ? seen : null,
    next_attempt_at: null,
    created_at: date('2026-02-20T09:15:00Z'),
    updated_at: seen,
  };
}

/** Every record of the example of `event`, serialized, and the reference object's identifier. */
function exampleRecords(event: string): { records: Resource[]; reference: { type: string; id: string }; seen: Date; sequence: number | null } {
  const { moment, seen, sequence } = momentOf(event);
  const transportEvent = transportEventResource(transportEventRow(event, moment, seen));
  const estimatedEvent = estimatedEventResource({
    id: exampleId('estimated_event'),
    shipment_id: SHIPMENT_ID,
    event: 'shipment.estimated.arrival',
    estimated_timestamp: date('2026-03-12T14:00:00Z'),
    previous_timestamp: date('2026-03-11T22:00:00Z'),
    timezone: 'America/Los_Angeles',
    location_locode: 'USLAX',
    vessel_imo: VESSEL.imo,
    vessel_name: VESSEL.name,
    voyage_number: VOYAGE,
    data_source: 'shipping_line',
    published_at: new Date(seen.getTime() - MINUTE),
    created_at: seen,
  });
  const containerUpdated = containerUpdatedEventResource({
    id: exampleId('container_updated_event'),
    container_id: CONTAINER_IDS[0],
    shipment_id: SHIPMENT_ID,
    changeset:
      event === 'container.pod_terminal_changed'
        ? { pod_terminal: [null, TERMINAL.firms_code] }
        : event === 'container.pickup_lfd.changed'
          ? { pickup_lfd: [null, LFD] }
          : { available_for_pickup: [false, true], holds_at_pod_terminal: [[CUSTOMS_HOLD], []], pickup_lfd: [null, LFD] },
    terminal_code: TERMINAL.firms_code,
    terminal_id: TERMINAL.id,
    timestamp: date(moment.at),
    timezone: 'America/Los_Angeles',
    data_source: 'terminal',
    created_at: seen,
  });
  const containers = CONTAINER_IDS.map((_, i) => containerResource(containerRow(i, seen), i === 0 && exampleReferenceType(event) === 'transport_event' ? [transportEvent.id] : []));
  const records = [
    trackingRequestResource(trackingRequestRow(event, seen)),
    shipmentResource(shipmentRow(event, seen), CONTAINER_IDS, LINE),
    ...containers,
    transportEvent,
    estimatedEvent,
    containerUpdated,
    ...PORTS.map(portResource),
    terminalResource(TERMINAL),
    vesselResource(VESSEL),
  ];
  const type = exampleReferenceType(event);
  const reference = type === 'container' ? containers[0] : records.find((r) => r.type === type)!;
  return { records, reference: { type, id: reference.id }, seen, sequence };
}

// The loader of real deliveries, pointed at the example's records instead of the database.
const OFFLINE: LoadContext = {
  db: { query: () => Promise.reject(new Error('examples never query the database')) } as unknown as Queryable,
  accountId: ACCOUNT,
};

function inMemoryTypes(records: Resource[]): ResourceTypes {
  const types: ResourceTypes = {};
  for (const type of new Set(records.map((r) => r.type))) {
    types[type] = {
      relationships: {},
      load: async (_ctx, ids) =>
        ids.map((id) => {
          const found = records.find((r) => r.type === type && r.id === id);
          // A dangling relationship is a bug in this file, not something to hide.
          if (!found) throw new Error(`the webhook example has no ${type} ${id}`);
          return found;
        }),
    };
  }
  return types;
}

/** The notification document svc would deliver for `event` (a known webhook event name). */
export async function exampleNotification(event: string): Promise<ExampleNotification> {
  const { records, reference, seen, sequence } = exampleRecords(event);
  const row: NotificationRow = {
    id: exampleId(`webhook_notification:${event}`),
    account_id: ACCOUNT,
    webhook_id: exampleId('webhook'),
    event,
    delivery_status: 'pending',
    attempts: 0,
    retries: 0,
    next_attempt_at: seen,
    delivered_at: null,
    created_at: seen,
    updated_at: seen,
    reference_type: reference.type,
    reference_id: reference.id,
    shipment_id: SHIPMENT_ID,
    container_id: sequence === null ? null : CONTAINER_IDS[0],
    sequence,
    log_ids: [],
  };
  const data = webhookNotificationResource(row);
  const included = await loadIncluded(inMemoryTypes(records), OFFLINE, [data], deliveryIncludes(event));
  return { data, included };
}
