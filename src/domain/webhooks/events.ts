// The events a webhook can subscribe to: every name of the spec's Events part, by category, each
// with a short description. The names are the wire values of `webhook.events` and of
// `webhook_notification.attributes.event`; the categories feed GET /v2/webhooks/events.

export interface WebhookEventInfo {
  readonly name: string;
  readonly description: string;
}

export interface WebhookEventCategory {
  /** Stable slug, the `id` of the category in GET /v2/webhooks/events. */
  readonly id: string;
  readonly name: string;
  readonly events: readonly WebhookEventInfo[];
}

const transport = (milestone: string, description: string): WebhookEventInfo => ({ name: `container.transport.${milestone}`, description });

export const WEBHOOK_EVENT_CATEGORIES: readonly WebhookEventCategory[] = [
  {
    id: 'transport-events',
    name: 'Container Transport Events',
    events: [
      transport('vessel_arrived', 'The vessel carrying the container has arrived at the port of discharge.'),
      transport('vessel_discharged', 'The container has been lifted off the vessel at the port of discharge.'),
      transport('vessel_loaded', 'The container has been put on board the vessel at the port of lading.'),
      transport('vessel_departed', 'The vessel carrying the container has sailed from the port of lading.'),
      transport('rail_departed', 'The train carrying the container has left a rail terminal.'),
      transport('rail_arrived', 'The train carrying the container has reached a rail terminal, interchanges included.'),
      transport('rail_loaded', 'The container has been put on a train.'),
      transport('rail_unloaded', 'The container has been taken off a train.'),
      transport('transshipment_arrived', 'The vessel carrying the container has reached a transshipment port.'),
      transport('transshipment_discharged', 'The container has been lifted off the vessel at a transshipment port.'),
      transport('transshipment_loaded', 'The container has been put on board its onward vessel at a transshipment port.'),
      transport('transshipment_departed', 'The onward vessel carrying the container has sailed from the transshipment port.'),
      transport('feeder_arrived', 'The feeder vessel or barge carrying the container has reached its port.'),
      transport('feeder_discharged', 'The container has been lifted off a feeder vessel or barge.'),
      transport('feeder_loaded', 'The container has been put on board a feeder vessel or barge.'),
      transport('feeder_departed', 'The feeder vessel or barge carrying the container has sailed.'),
      transport('empty_out', 'The empty container has been released to the shipper for stuffing.'),
      transport('full_in', 'The stuffed container has been handed in at the origin terminal.'),
      transport('full_out', 'The stuffed container has left the destination terminal for delivery.'),
      transport('empty_in', 'The empty container has been returned after delivery.'),
      transport('vessel_berthed', 'The vessel carrying the container is alongside its berth at the port of discharge.'),
      transport('arrived_at_inland_destination', 'The container has reached its inland destination at the end of a rail leg.'),
      transport('estimated.arrived_at_inland_destination', 'The expected time of arrival at the inland destination has changed.'),
      transport('available', 'The terminal reports the container ready to be picked up.'),
    ],
  },
  {
    id: 'estimated-events',
    name: 'Estimated Events',
    events: [{ name: 'shipment.estimated.arrival', description: 'The expected time of arrival at the port of discharge has changed.' }],
  },
  {
    id: 'tracking-request-events',
    name: 'Tracking Request Events',
    events: [
      { name: 'tracking_request.succeeded', description: 'The carrier knows the number: a shipment has been created for the request.' },
      { name: 'tracking_request.failed', description: 'The request cannot be tracked; its failed_reason says why.' },
      { name: 'tracking_request.awaiting_manifest', description: 'The carrier accepts the number but has published no shipment data for it yet.' },
      { name: 'tracking_request.tracking_stopped', description: 'svc no longer follows the shipment of this request.' },
    ],
  },
  {
    id: 'container-events',
    name: 'Container Events',
    events: [
      { name: 'container.created', description: 'A container has been added to a tracked shipment.' },
      { name: 'container.updated', description: 'Terminal data about the container has changed; the changeset holds each old and new value.' },
      { name: 'container.pod_terminal_changed', description: 'The terminal where the container is discharged has changed.' },
      { name: 'container.pickup_lfd.changed', description: 'The last free day for picking the container up has changed.' },
      { name: 'container.pickup_lfd_line.changed', description: "The shipping line's last free day for the container has changed." },
    ],
  },
  {
    id: 'document-events',
    name: 'Document Events',
    events: [
      { name: 'document.extracted', description: 'Data has been read out of an uploaded document.' },
      { name: 'document.extraction_failed', description: 'No data could be read out of an uploaded document.' },
    ],
  },
];

/** Every subscribable event name, in catalogue order. */
export const WEBHOOK_EVENT_NAMES: readonly string[] = WEBHOOK_EVENT_CATEGORIES.flatMap((c) => c.events.map((e) => e.name));

const known = new Set(WEBHOOK_EVENT_NAMES);

export const isWebhookEvent = (name: string): boolean => known.has(name);
