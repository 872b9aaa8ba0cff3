// The account of the API key that calls: the cheapest authenticated request, which a client
// (the MCP server among them) makes to check that a key is live and see whose it is.
import { z } from 'zod';
import { accountResource } from '../../jsonapi/serializers/account.ts';
import { FEATURE_NAMES, FEATURES } from '../../services/features.ts';
import { findAccount } from '../../store/accounts.ts';
import { resourceSchema } from '../openapi-schemas.ts';
import { showRoute } from '../read-routes.ts';
import type { AnyRouteSpec } from '../route.ts';

// Every feature is listed, on (true) or switched off by the operator (false).
const features = z
  .object(Object.fromEntries(FEATURE_NAMES.map((name) => [name, z.boolean().describe(FEATURES[name].description)])))
  .describe('Whether the account has each feature; the operator switches them with svc accounts features');
const account = resourceSchema('account', z.object({ name: z.string(), created_at: z.iso.datetime(), features }), { selfLink: true });

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
