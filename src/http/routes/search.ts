// GET /v2/search: one box to find anything tracked by number or reference.
import { z } from 'zod';
import { badParameter } from '../../jsonapi/errors.ts';
import { iso } from '../../jsonapi/document.ts';
import { optionalParam } from '../../jsonapi/query.ts';
import { search } from '../../store/search.ts';
import type { AnyRouteSpec } from '../route.ts';

export const searchRoutes: AnyRouteSpec[] = [
  {
    method: 'GET',
    url: '/v2/search',
    summary: 'Find shipments, containers and tracking requests by number or reference number (at most 25)',
    tag: 'Search',
    query: [{ name: 'query', description: 'A container, bill of lading, booking or reference number, or part of one' }],
    response: { status: 200, description: 'Shipments first, then containers, then tracking requests', schema: z.object({ data: z.array(z.unknown()) }) },
    async handler({ services, accountId, query, url }) {
      const text = optionalParam(query, 'query');
      if (!text) throw badParameter('query', 'Query parameter is required', 'blank');
      const hits = await search(services.db, accountId, text);
      const data = hits.map(({ id, created_at, updated_at, ...attributes }) => ({
        id,
        type: 'search_result',
        attributes: { ...attributes, created_at: iso(created_at), updated_at: iso(updated_at) },
      }));
      return { body: { data, links: { self: url.href } } };
    },
  },
];
