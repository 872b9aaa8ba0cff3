// Parties: an account's customers, attachable to tracking requests.
import { z } from 'zod';
import { resourceDocument, validateBody } from '../../jsonapi/body.ts';
import { unprocessable } from '../../jsonapi/errors.ts';
import { partyResource } from '../../jsonapi/serializers/party.ts';
import { insertParty, listParties, updateParty } from '../../store/parties.ts';
import type { AnyRouteSpec } from '../route.ts';
import { recordDocument, resourceSchema } from '../openapi-schemas.ts';
import { listRoute, showRecordRoute } from '../read-routes.ts';
import { createdReply, writeRecordRoute } from '../write-routes.ts';

const partyAttributes = z.object({
  company_name: z.string().trim().min(1).max(200),
});
const partyBody = resourceDocument('party', partyAttributes);
const partyResponse = resourceSchema('party', partyAttributes.extend({ created_at: z.iso.datetime(), updated_at: z.iso.datetime() }));

const taken = (name: string) =>
  unprocessable('/data/attributes/company_name', `A party named "${name}" already exists in this account.`, 'taken');

export const partyRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/parties',
    summary: 'List parties',
    tag: 'Parties',
    type: 'party',
    schema: partyResponse,
    description: 'A page of parties, newest first',
    pageSize: 25,
    list: ({ services, accountId }, limit, offset) => listParties(services.db, accountId, limit, offset),
    serialize: (rows) => rows.map(partyResource),
  }),
  {
    method: 'POST',
    url: '/v2/parties',
    summary: 'Create a party',
    tag: 'Parties',
    body: partyBody,
    parseBody: validateBody,
    response: { status: 201, description: 'The created party', schema: recordDocument(partyResponse) },
    async handler({ services, accountId, body, url }) {
      const name = body.data.attributes.company_name;
      const row = await insertParty(services.db, accountId, name, services.clock.now());
      if (!row) throw taken(name);
      return createdReply(partyResource(row), url);
    },
  },
  showRecordRoute({ url: '/v2/parties/:id', summary: 'Get a party', tag: 'Parties', type: 'party', schema: partyResponse, description: 'The party' }),
  writeRecordRoute({
    method: 'PATCH',
    url: '/v2/parties/:id',
    summary: 'Rename a party',
    tag: 'Parties',
    body: partyBody,
    schema: partyResponse,
    description: 'The updated party',
    async write({ services, accountId, params, body }) {
      const name = body.data.attributes.company_name;
      const result = await updateParty(services.db, accountId, params.id, name, services.clock.now());
      if ('missing' in result) return undefined;
      if ('conflict' in result) throw taken(name);
      return result.row;
    },
    serialize: (row) => partyResource(row),
  }),
];
