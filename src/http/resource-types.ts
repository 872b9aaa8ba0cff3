// Every resource type a response can include, with its relationships and how to load it.
import type { ResourceTypes } from '../jsonapi/include.ts';
import { partyResource } from '../jsonapi/serializers/party.ts';
import { metroAreaResource, portResource } from '../jsonapi/serializers/reference.ts';
import { findParties } from '../store/parties.ts';
import { findTrackingRequests } from '../store/tracking-requests.ts';
import { trackingRequestResource } from '../jsonapi/serializers/tracking-request.ts';
import { findLocationsByIds } from '../store/reference.ts';

export const resourceTypes: ResourceTypes = {
  tracking_request: {
    relationships: { tracked_object: ['shipment'], customer: ['party'] },
    load: async ({ db, accountId }, ids) => (await findTrackingRequests(db, accountId, ids)).map(trackingRequestResource),
  },
  party: {
    relationships: {},
    load: async ({ db, accountId }, ids) => (await findParties(db, accountId, ids)).map(partyResource),
  },
  shipping_line: { relationships: {} },
  vessel: { relationships: {} },
  port: {
    relationships: {},
    load: async ({ db }, ids) => (await findLocationsByIds(db, ids)).map(portResource),
  },
  metro_area: {
    relationships: {},
    load: async ({ db }, ids) => (await findLocationsByIds(db, ids)).map(metroAreaResource),
  },
  terminal: { relationships: { port: ['port'] } },
  rail_terminal: { relationships: { port: ['port'], metro_area: ['metro_area'] } },
};
