// Every resource type a document can include, with its relationships and how to load it: the
// table every face (HTTP, webhook deliveries, and those to come) resolves `include` paths against.
import type { ResourceTypes } from '../jsonapi/include.ts';
import { documentRepresentationResource, documentResource } from '../jsonapi/serializers/document.ts';
import { accountResource } from '../jsonapi/serializers/account.ts';
import { partyResource } from '../jsonapi/serializers/party.ts';
import { metroAreaResource, portResource, terminalResource, vesselResource } from '../jsonapi/serializers/reference.ts';
import { transportEventResource } from '../jsonapi/serializers/tracking.ts';
import { trackingRequestResource } from '../jsonapi/serializers/tracking-request.ts';
import { containerCreatedEventResource, containerUpdatedEventResource, estimatedEventResource } from '../jsonapi/serializers/events.ts';
import { webhookNotificationLogResource, webhookNotificationResource } from '../jsonapi/serializers/webhook-notification.ts';
import { webhookResource } from '../jsonapi/serializers/webhook.ts';
import { findDocuments, findRepresentations } from '../store/documents.ts';
import { findAccount } from '../store/accounts.ts';
import { findParties } from '../store/parties.ts';
import { findContainers } from '../store/shipments.ts';
import { findLocationsByIds, findTerminalsByIds, findVesselsByIds } from '../store/reference.ts';
import { findTrackingRequests } from '../store/tracking-requests.ts';
import { findContainerUpdatedEvents, findEstimatedEvents, findTransportEvents } from '../store/transport-events.ts';
import { findNotificationLogs, findNotifications } from '../store/webhook-notifications.ts';
import { findWebhooks } from '../store/webhooks.ts';
import { attachCustomFields, customFieldDefinitionResourcesById, customFieldResourcesById } from './custom-fields.ts';
import { emailSubmissionsById } from './email-submissions.ts';
import { containerEventsAttached, containerResourcesById, shipmentResourcesById } from './tracking.ts';

export const resourceTypes: ResourceTypes = {
  tracking_request: {
    relationships: { tracked_object: ['shipment'], customer: ['party'] },
    aliases: { shipment: 'tracked_object' },
    // As the reference service: its tracking request routes include the shipment unless asked otherwise.
    defaultInclude: 'tracked_object',
    load: async ({ db, accountId }, ids) => (await findTrackingRequests(db, accountId, ids)).map(trackingRequestResource),
  },
  shipment: {
    relationships: {
      containers: ['container'],
      port_of_lading: ['port'],
      port_of_discharge: ['port'],
      destination: ['metro_area'],
      pod_terminal: ['terminal'],
      destination_terminal: ['terminal'],
      customer: ['party'],
      line_tracking_stopped_by_user: ['user'],
      custom_fields: ['custom_field'],
    },
    attached: { custom_fields: (ctx, records) => attachCustomFields(ctx, 'Shipment', records) },
    load: shipmentResourcesById,
  },
  container: {
    relationships: {
      shipment: ['shipment'],
      pod_terminal: ['terminal'],
      transport_events: ['transport_event'],
      pickup_facility: ['terminal'],
      raw_events: ['raw_event'],
      custom_fields: ['custom_field'],
    },
    attached: { custom_fields: (ctx, records) => attachCustomFields(ctx, 'Container', records), transport_events: containerEventsAttached },
    load: containerResourcesById,
  },
  custom_field: {
    relationships: { entity: ['shipment', 'container', 'tracking_request'], definition: ['custom_field_definition'] },
    load: customFieldResourcesById,
  },
  custom_field_definition: { relationships: {}, load: customFieldDefinitionResourcesById },
  transport_event: {
    relationships: { shipment: ['shipment'], container: ['container'], location: ['port', 'metro_area'], vessel: ['vessel'], terminal: ['terminal'] },
    load: async ({ db, accountId }, ids) => (await findTransportEvents(db, accountId, ids)).map(transportEventResource),
  },
  estimated_event: {
    relationships: { shipment: ['shipment'], port: ['port'], vessel: ['vessel'] },
    load: async ({ db, accountId }, ids) => (await findEstimatedEvents(db, accountId, ids)).map(estimatedEventResource),
  },
  container_created_event: {
    relationships: { container: ['container'], shipment: ['shipment'] },
    load: async ({ db, accountId }, ids) => (await findContainers(db, accountId, ids)).map(containerCreatedEventResource),
  },
  container_updated_event: {
    relationships: { container: ['container'], shipment: ['shipment'], terminal: ['terminal'] },
    load: async ({ db, accountId }, ids) => (await findContainerUpdatedEvents(db, accountId, ids)).map(containerUpdatedEventResource),
  },
  webhook_notification: {
    relationships: {
      webhook: ['webhook'],
      reference_object: ['tracking_request', 'transport_event', 'estimated_event', 'container_updated_event', 'container_created_event', 'container', 'document'],
      webhook_notification_logs: ['webhook_notification_log'],
    },
    load: async ({ db, accountId }, ids) => (await findNotifications(db, accountId, ids)).map(webhookNotificationResource),
  },
  webhook_notification_log: {
    relationships: { webhook_notification: ['webhook_notification'] },
    load: async ({ db, accountId }, ids) => (await findNotificationLogs(db, accountId, ids)).map(webhookNotificationLogResource),
  },
  party: {
    relationships: {},
    load: async ({ db, accountId }, ids) => (await findParties(db, accountId, ids)).map(partyResource),
  },
  document: {
    relationships: {
      account: ['account'],
      user: ['user'],
      email_submission: ['email_submission'],
      last_document_representation: ['document_representation'],
      shipments: ['shipment'],
      cargos: ['container'],
    },
    aliases: { current_extraction: 'last_document_representation' },
    load: async ({ db, accountId }, ids) => (await findDocuments(db, accountId, ids)).map(documentResource),
  },
  document_representation: {
    relationships: {},
    load: async ({ db, accountId }, ids) => (await findRepresentations(db, accountId, ids)).map(documentRepresentationResource),
  },
  // The caller's own account, the only one a document can name.
  account: {
    relationships: {},
    load: async ({ db, accountId }, ids) => {
      const account = ids.includes(accountId) ? await findAccount(db, accountId) : undefined;
      return account ? [accountResource(account)] : [];
    },
  },
  email_submission: {
    relationships: { account: ['account'], user: ['user'], documents: ['document'] },
    defaultInclude: 'documents,documents.last_document_representation',
    load: ({ db, accountId }, ids) => emailSubmissionsById(db, accountId, ids),
  },
  webhook: {
    relationships: {},
    load: async ({ db, accountId }, ids) => (await findWebhooks(db, accountId, ids)).map(webhookResource),
  },
  shipping_line: { relationships: {} },
  vessel: {
    relationships: {},
    load: async ({ db }, ids) => (await findVesselsByIds(db, ids)).map((v) => vesselResource(v)),
  },
  port: {
    relationships: {},
    load: async ({ db }, ids) => (await findLocationsByIds(db, ids)).map(portResource),
  },
  metro_area: {
    relationships: {},
    load: async ({ db }, ids) => (await findLocationsByIds(db, ids)).map(metroAreaResource),
  },
  terminal: {
    relationships: { port: ['port'] },
    load: async ({ db }, ids) => (await findTerminalsByIds(db, ids)).map(terminalResource),
  },
  rail_terminal: { relationships: { port: ['port'], metro_area: ['metro_area'] } },
  // Named by the reference's container relationships; svc keeps no raw events and no users, so
  // these relationships are always empty and nothing is ever loaded.
  raw_event: { relationships: { location: ['port', 'metro_area'], vessel: ['vessel'] } },
  user: { relationships: {} },
};
