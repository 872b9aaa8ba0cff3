// GET /v2/search: one box to find anything tracked by number or reference.
import { z } from 'zod';
import { badParameter } from '../../jsonapi/errors.ts';
import { optionalParam } from '../../jsonapi/query.ts';
import { searchResultResource } from '../../jsonapi/serializers/search-result.ts';
import { search } from '../../store/search.ts';
import { resourceSchema } from '../openapi-schemas.ts';
import type { AnyRouteSpec } from '../route.ts';

const searchResult = resourceSchema(
  'search_result',
  z.object({
    entity_type: z.enum(['shipment', 'cargo', 'tracking_request']).describe('What the id names: a shipment, a container (cargo) or a tracking request'),
    number: z.string().describe('The bill of lading (else the tracked number), container or request number'),
    shipment_id: z.string().nullable().describe("The container's or tracking request's shipment; null for shipments"),
    scac: z.string(),
    ref_numbers: z.array(z.string()),
    status: z.string().nullable().describe("A container's current_status or a tracking request's status; null for shipments"),
    failed_reason: z.string().nullable().describe("A failed tracking request's reason"),
    tracking_stopped: z.boolean().nullable().describe('Whether tracking of a shipment stopped; null for the others'),
    tracking_stopped_reason: z.string().nullable(),
    containers_count: z.int().nullable().describe("A shipment's number of containers; null for the others"),
    port_of_lading_name: z.string().nullable(),
    port_of_discharge_name: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);

export const searchRoutes: AnyRouteSpec[] = [
  {
    method: 'GET',
    url: '/v2/search',
    summary: 'Find shipments, containers and tracking requests by number or reference number (at most 25)',
    tag: 'Search',
    query: [{ name: 'query', description: 'A container, bill of lading, booking or reference number, or part of one' }],
    response: { status: 200, description: 'Shipments first, then containers, then tracking requests', schema: z.object({ data: z.array(searchResult), links: z.object({ self: z.string() }) }) },
    async handler({ services, accountId, query, url }) {
      const text = optionalParam(query, 'query');
      if (!text) throw badParameter('query', 'Query parameter is required', 'blank');
      const hits = await search(services.db, accountId, text);
      return { body: { data: hits.map(searchResultResource), links: { self: url.href } } };
    },
  },
];
