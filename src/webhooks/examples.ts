// Example webhook notifications: for any event, the document svc would deliver, built around one
// made-up shipment (example-shipment.ts). Every record goes through the serializers real
// deliveries use, and what is included follows deliveryIncludes() through the same loader, so an
// example cannot disagree with a delivery. The reference object's type comes from the event
// vocabulary. Ids and times are fixed: one event always gives the same example.
import { EVENTS, isEventName, isPerContainer, type EventName } from '../domain/events/vocabulary.ts';
import { MINUTE } from '../domain/time-units.ts';
import type { Resource } from '../jsonapi/document.ts';
import { loadIncluded, type LoadContext, type ResourceTypes } from '../jsonapi/include.ts';
import { documentResource } from '../jsonapi/serializers/document.ts';
import { containerCreatedEventResource, containerUpdatedEventResource, estimatedEventResource } from '../jsonapi/serializers/events.ts';
import { metroAreaResource, portResource, terminalResource, vesselResource } from '../jsonapi/serializers/reference.ts';
import { containerResource, shipmentResource, transportEventResource } from '../jsonapi/serializers/tracking.ts';
import { trackingRequestResource } from '../jsonapi/serializers/tracking-request.ts';
import { webhookNotificationResource } from '../jsonapi/serializers/webhook-notification.ts';
import type { Queryable } from '../store/db.ts';
import type { DocumentRow } from '../store/documents.ts';
import type { TrackingRequestRow, TrackingRequestStatus } from '../store/tracking-requests.ts';
import { INLAND_ARRIVALS, type TransportEventRow } from '../store/transport-events.ts';
import type { NotificationRow } from '../store/webhook-notifications.ts';
import {
  ACCOUNT,
  BILL_OF_LADING,
  CONTAINER_IDS,
  CUSTOMS_HOLD,
  LFD,
  LINE,
  PORTS,
  SHIPMENT_ID,
  TERMINAL,
  VESSEL,
  VOYAGE,
  containerRow,
  date,
  exampleId,
  shipmentRow,
  zoneOf,
} from './example-shipment.ts';
import { deliveryIncludes } from './notification-document.ts';

export interface ExampleNotification {
  data: Resource;
  included: Resource[];
}

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

/**
 * The reference service's events svc does not announce (yet), all about one container. They keep
 * their place in the journey, so adding one to the vocabulary changes no other example's sequence.
 */
type Unannounced =
  | 'container.transport.estimated.vessel_departed'
  | 'container.transport.estimated.vessel_arrived'
  | 'container.transport.not_available'
  | 'container.transport.delivered'
  | 'container.pickup_lfd_terminal.changed'
  | 'container.pickup_lfd_rail.changed'
  | 'container.pickup_appointment.changed';

// In journey order: a container event's `sequence` is its position among the container events here.
const JOURNEY: [EventName | Unannounced, Moment][] = [
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

// Real deliveries number only events about one container.
const numbered = (name: EventName | Unannounced) => !isEventName(name) || isPerContainer(name);

function momentOf(event: EventName): { moment: Moment; seen: Date; sequence: number | null } {
  const index = JOURNEY.findIndex(([name]) => name === event);
  if (index < 0) throw new Error(`the example journey has no moment for ${event}`);
  const moment = JOURNEY[index][1];
  const seen = moment.seen ? date(moment.seen) : new Date(date(moment.at).getTime() + 3 * MINUTE);
  const before = JOURNEY.slice(0, index).filter(([name]) => numbered(name)).length;
  return { moment, seen, sequence: numbered(event) ? before + 1 : null };
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
    // As the store types places (transport-events.ts): the inland arrivals' Chicago is a metro area, the rest ports.
    location_type: moment.where === null ? null : INLAND_ARRIVALS.includes(event) ? 'metro_area' : 'port',
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
    initial_custom_fields: null,
    // Only a request that found its shipment points at it.
    shipment_id: status === 'created' || status === 'tracking_stopped' ? SHIPMENT_ID : null,
    awaiting_since: status === 'awaiting_manifest' ? seen : null,
    next_attempt_at: null,
    created_at: date('2026-02-20T09:15:00Z'),
    updated_at: seen,
  };
}

/** The example's bill of lading, uploaded and read (or not) just before the event. */
function documentRow(event: EventName, seen: Date): DocumentRow {
  const extracted = event !== 'document.extraction_failed';
  return {
    id: exampleId('document'),
    account_id: ACCOUNT,
    blob_id: exampleId('document_blob'),
    name: `Bill of lading ${BILL_OF_LADING}`,
    source: 'api',
    email_submission_id: null,
    not_tracked: [],
    file_name: `${BILL_OF_LADING}.pdf`,
    file_content_type: 'application/pdf',
    file_size_bytes: 48_213,
    sha256: '0'.repeat(64),
    rotation: 0,
    document_type: extracted ? 'bill_of_lading' : 'other',
    document_type_manual: null,
    classification_notes: extracted ? null : 'The file has no text layer; it needs OCR.',
    extraction_status: extracted ? 'extracted' : 'failed',
    extracted_text: null,
    numbers: {},
    extracted_data_manual: null,
    shipment_ids: extracted ? [SHIPMENT_ID] : [],
    container_ids: extracted ? [...CONTAINER_IDS] : [],
    last_representation_id: null,
    job: null,
    job_attempts: 0,
    next_attempt_at: null,
    locked_until: null,
    discarded_at: null,
    created_at: new Date(seen.getTime() - MINUTE),
    updated_at: seen,
  };
}

/** Every record of the example of `event`, serialized, and the reference object's identifier. */
function exampleRecords(event: EventName): { records: Resource[]; reference: { type: string; id: string }; seen: Date; sequence: number | null } {
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
  // The line answered and changed at the moment; the terminal was asked then too; AIS not shown.
  const freshness = { shipping_line: { checked_at: seen, changed_at: seen }, terminal: { checked_at: seen, changed_at: null }, ais: { checked_at: null, changed_at: null } };
  const containers = CONTAINER_IDS.map((_, i) => containerResource(containerRow(i, seen), freshness, i === 0 && EVENTS[event].reference === 'transport_event' ? [transportEvent.id] : []));
  const records = [
    trackingRequestResource(trackingRequestRow(event, seen)),
    shipmentResource(shipmentRow(event, seen), CONTAINER_IDS, freshness, LINE),
    ...containers,
    transportEvent,
    estimatedEvent,
    containerUpdated,
    containerCreatedEventResource(containerRow(0, seen)),
    documentResource(documentRow(event, seen)),
    ...PORTS.map(portResource),
    // Chicago as the inland arrivals' place (see transportEventRow).
    ...PORTS.filter((p) => p.locode === 'USCHI').map(metroAreaResource),
    terminalResource(TERMINAL),
    vesselResource(VESSEL),
  ];
  const type = EVENTS[event].reference;
  const reference = records.find((r) => r.type === type)!;
  return { records, reference: { type, id: reference.id }, seen, sequence };
}

// The loader of real deliveries, pointed at the example's records instead of the database.
const OFFLINE: LoadContext = {
  db: { query: () => Promise.reject(new Error('examples never query the database')) } as unknown as Queryable,
  accountId: ACCOUNT,
  now: new Date(0),
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
  if (!isEventName(event) || !EVENTS[event].subscribable) throw new Error(`${JSON.stringify(event)} is not a webhook event`);
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
