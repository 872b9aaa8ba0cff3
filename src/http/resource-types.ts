// Every resource type a response can include, with its relationships and how to load it.
import { partyResource } from '../jsonapi/serializers/party.ts';
import type { ResourceTypes } from '../jsonapi/include.ts';
import { findParties } from '../store/parties.ts';

export const resourceTypes: ResourceTypes = {
  party: {
    relationships: {},
    load: async ({ db, accountId }, ids) => (await findParties(db, accountId, ids)).map(partyResource),
  },
};
