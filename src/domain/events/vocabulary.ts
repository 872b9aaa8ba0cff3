// Every event svc records, in one table: its category in the catalogue, the record its reference
// object is, what a notification of it includes, and whether a webhook may subscribe to it. The
// catalogue (GET /v2/webhooks/events), the notification documents, the examples and the store's
// mappings are all read from here, so an event is added (or changed) in this file alone.

/** The record a notification points at: the `type` of its reference_object. */
export type ReferenceType = 'tracking_request' | 'transport_event' | 'estimated_event' | 'container_updated_event' | 'container_created_event' | 'container' | 'document' | 'webhook';

/** Categories of the catalogue, in the order GET /v2/webhooks/events lists them. */
export const EVENT_CATEGORIES = [
  { id: 'transport-events', name: 'Container Transport Events' },
  { id: 'estimated-events', name: 'Estimated Events' },
  { id: 'tracking-request-events', name: 'Tracking Request Events' },
  { id: 'container-events', name: 'Container Events' },
  { id: 'document-events', name: 'Document Events' },
] as const;

export type EventCategoryId = (typeof EVENT_CATEGORIES)[number]['id'];

/** Changeset attributes that have an event of their own besides container.updated. */
export type AnnouncedAttribute = 'pickup_lfd' | 'pod_terminal';

export interface EventSpec {
  readonly category: EventCategoryId | null;
  readonly description: string;
  readonly reference: ReferenceType;
  /** Include paths of a notification, relative to its reference object. */
  readonly includes: readonly string[];
  readonly subscribable: boolean;
  /** For a container_updated_event: the changeset attribute whose change this event announces. */
  readonly announces?: AnnouncedAttribute;
}

// What a notification carries about each kind of record (the reference service's `included`).
const MILESTONE_INCLUDES = ['container', 'shipment', 'location', 'vessel', 'terminal'] as const;
// A changeset's port is its shipment's port of discharge, where the terminal is (the reference includes it too).
const CHANGESET_INCLUDES = ['container', 'shipment', 'shipment.port_of_discharge', 'terminal'] as const;

const transport = (description: string): EventSpec => ({ category: 'transport-events', description, reference: 'transport_event', includes: MILESTONE_INCLUDES, subscribable: true });
const request = (description: string, includes: readonly string[] = []): EventSpec => ({ category: 'tracking-request-events', description, reference: 'tracking_request', includes, subscribable: true });
const changeset = (description: string, announces?: AnnouncedAttribute): EventSpec => ({
  category: 'container-events',
  description,
  reference: 'container_updated_event',
  includes: CHANGESET_INCLUDES,
  subscribable: true,
  ...(announces ? { announces } : {}),
});
// Container changes svc reports as transport events (the reference service's records for them).
const document = (description: string): EventSpec => ({ category: 'document-events', description, reference: 'document', includes: [], subscribable: true });
const reportedAsMilestone = (category: EventCategoryId, description: string): EventSpec => ({ ...transport(description), category });

const TABLE = {
  'container.transport.vessel_arrived': transport('The vessel carrying the container has arrived at the port of discharge.'),
  'container.transport.vessel_discharged': transport('The container has been lifted off the vessel at the port of discharge.'),
  'container.transport.vessel_loaded': transport('The container has been put on board the vessel at the port of lading.'),
  'container.transport.vessel_departed': transport('The vessel carrying the container has sailed from the port of lading.'),
  'container.transport.rail_departed': transport('The train carrying the container has left a rail terminal.'),
  'container.transport.rail_arrived': transport('The train carrying the container has reached a rail terminal, interchanges included.'),
  'container.transport.rail_loaded': transport('The container has been put on a train.'),
  'container.transport.rail_unloaded': transport('The container has been taken off a train.'),
  'container.transport.transshipment_arrived': transport('The vessel carrying the container has reached a transshipment port.'),
  'container.transport.transshipment_discharged': transport('The container has been lifted off the vessel at a transshipment port.'),
  'container.transport.transshipment_loaded': transport('The container has been put on board its onward vessel at a transshipment port.'),
  'container.transport.transshipment_departed': transport('The onward vessel carrying the container has sailed from the transshipment port.'),
  'container.transport.feeder_arrived': transport('The feeder vessel or barge carrying the container has reached its port.'),
  'container.transport.feeder_discharged': transport('The container has been lifted off a feeder vessel or barge.'),
  'container.transport.feeder_loaded': transport('The container has been put on board a feeder vessel or barge.'),
  'container.transport.feeder_departed': transport('The feeder vessel or barge carrying the container has sailed.'),
  'container.transport.empty_out': transport('The empty container has been released to the shipper for stuffing.'),
  'container.transport.full_in': transport('The stuffed container has been handed in at the origin terminal.'),
  'container.transport.full_out': transport('The stuffed container has left the destination terminal for delivery.'),
  'container.transport.empty_in': transport('The empty container has been returned after delivery.'),
  'container.transport.vessel_berthed': transport('The vessel carrying the container is alongside its berth at the port of discharge.'),
  'container.transport.arrived_at_inland_destination': transport('The container has reached its inland destination at the end of a rail leg.'),
  'container.transport.estimated.arrived_at_inland_destination': transport('The expected time of arrival at the inland destination has changed.'),
  'container.transport.available': transport('The terminal reports the container ready to be picked up.'),

  'shipment.estimated.arrival': {
    category: 'estimated-events',
    description: 'The expected time of arrival at the port of discharge has changed.',
    reference: 'estimated_event',
    includes: ['shipment', 'port', 'vessel'],
    subscribable: true,
  },

  'tracking_request.succeeded': request('The carrier knows the number: a shipment has been created for the request.', ['tracked_object', 'tracked_object.containers']),
  'tracking_request.failed': request('The request cannot be tracked; its failed_reason says why.'),
  'tracking_request.awaiting_manifest': request('The carrier accepts the number but has published no shipment data for it yet.'),
  'tracking_request.tracking_stopped': request('svc no longer follows the shipment of this request.', ['tracked_object']),

  // As the reference service announces it: a container_created_event, whose id is the container's
  // (it is the container's creation). Notifications recorded before point at the container itself.
  'container.created': {
    category: 'container-events',
    description: 'A container has been added to a tracked shipment.',
    reference: 'container_created_event',
    includes: ['container', 'shipment'],
    subscribable: true,
  },
  'container.updated': changeset('Terminal data about the container has changed; the changeset holds each old and new value.'),
  'container.pod_terminal_changed': changeset('The terminal where the container is discharged has changed.', 'pod_terminal'),
  'container.pickup_lfd.changed': changeset('The last free day for picking the container up has changed.', 'pickup_lfd'),
  'container.pickup_lfd_line.changed': reportedAsMilestone('container-events', "The shipping line's last free day for the container has changed."),

  // The document itself is the reference object: its relationships name the shipments and
  // containers it was linked to, its last representation holds what was read.
  'document.extracted': document('Data has been read out of an uploaded document.'),
  'document.extraction_failed': document('No data could be read out of an uploaded document.'),

  // svc's own record of turning a failing webhook off. Not subscribable: the reference service has
  // no such event, and the webhook it concerns is inactive, so it could only ever reach another one;
  // deactivated_at and deactivated_reason on the webhook are how a user learns of it.
  'webhook.deactivated': { category: null, description: 'svc turned the webhook off after its deliveries kept failing.', reference: 'webhook', includes: [], subscribable: false },
} as const satisfies Record<string, EventSpec>;

export type EventName = keyof typeof TABLE;

/** Every event, in catalogue order within each category. */
export const EVENTS: Readonly<Record<EventName, EventSpec>> = TABLE;

export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

export const isEventName = (name: string): name is EventName => Object.hasOwn(EVENTS, name);

/** Reference types of events about one container, which are numbered per container (`sequence`). */
const PER_CONTAINER: ReadonlySet<ReferenceType> = new Set(['transport_event', 'container', 'container_created_event', 'container_updated_event']);

export const isPerContainer = (name: EventName): boolean => PER_CONTAINER.has(EVENTS[name].reference);
