// The account of the API key that calls: the cheapest authenticated request, which a client
// (the MCP server among them) makes to check that a key is live and see whose it is.
import { z } from 'zod';
import { accountResource } from '../../jsonapi/serializers/account.ts';
import { findAccount } from '../../store/accounts.ts';
import { resourceSchema } from '../openapi-schemas.ts';
import { showRoute } from '../read-routes.ts';
import type { AnyRouteSpec } from '../route.ts';

const account = resourceSchema('account', z.object({ name: z.string(), created_at: z.iso.datetime() }), { selfLink: true });

export const accountRoutes: AnyRouteSpec[] = [
  showRoute({
    url: '/v2/account',
    summary: 'The account of the API key that calls (a 401 says the key is not valid)',
    tag: 'Account',
    type: 'account',
    schema: account,
    description: 'The account',
    // An authenticated request always has its account; one deleted meanwhile is a 404 like any record.
    find: ({ services, accountId }) => findAccount(services.db, accountId),
    serialize: accountResource,
  }),
];
