// Parties: an account's customers, attachable to tracking requests.
import { z } from 'zod';
import { resourceDocument, validateBody } from '../../jsonapi/body.ts';
import { notFound, unprocessable } from '../../jsonapi/errors.ts';
import { paginate } from '../../jsonapi/pagination.ts';
import { parsePage } from '../../jsonapi/query.ts';
import { partyResource } from '../../jsonapi/serializers/party.ts';
import { findParties, insertParty, listParties, updateParty } from '../../store/parties.ts';
import type { AnyRouteSpec } from '../route.ts';
import { listDocument, pageParams, recordDocument, resourceSchema } from '../openapi-schemas.ts';

const partyAttributes = z.object({
  company_name: z.string().trim().min(1).max(200),
});
const partyBody = resourceDocument('party', partyAttributes);
const partyResponse = resourceSchema('party', partyAttributes.extend({ created_at: z.iso.datetime(), updated_at: z.iso.datetime() }));

const taken = (name: string) =>
  unprocessable('/data/attributes/company_name', `A party named "${name}" already exists in this account.`, 'taken');

export const partyRoutes: AnyRouteSpec[] = [
  {
    method: 'GET',
    url: '/v2/parties',
    summary: 'List parties',
    tag: 'Parties',
    query: pageParams(25),
    response: { status: 200, description: 'A page of parties, newest first', schema: listDocument(partyResponse, { paginated: true }) },
    async handler({ services, accountId, query, url, include }) {
      const page = parsePage(query, 25);
      const { rows, total } = await listParties(services.db, accountId, page.size, (page.number - 1) * page.size);
      const data = rows.map(partyResource);
      return { body: { data, included: await include('party', data), ...paginate(url, page, total, rows.length) } };
    },
  },
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
      const resource = partyResource(row);
      return { status: 201, body: { data: resource, links: { self: new URL(resource.links!.self, url).href } } };
    },
  },
  {
    method: 'GET',
    url: '/v2/parties/:id',
    summary: 'Get a party',
    tag: 'Parties',
    response: { status: 200, description: 'The party', schema: recordDocument(partyResponse) },
    async handler({ services, accountId, params, include }) {
      const [row] = await findParties(services.db, accountId, [params.id]);
      if (!row) throw notFound();
      const data = partyResource(row);
      return { body: { data, included: await include('party', [data]) } };
    },
  },
  {
    method: 'PATCH',
    url: '/v2/parties/:id',
    summary: 'Rename a party',
    tag: 'Parties',
    body: partyBody,
    parseBody: validateBody,
    response: { status: 200, description: 'The updated party', schema: recordDocument(partyResponse) },
    async handler({ services, accountId, params, body }) {
      const name = body.data.attributes.company_name;
      const result = await updateParty(services.db, accountId, params.id, name, services.clock.now());
      if ('missing' in result) throw notFound();
      if ('conflict' in result) throw taken(name);
      return { body: { data: partyResource(result.row) } };
    },
  },
];
