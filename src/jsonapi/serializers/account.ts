import { featureStates } from '../../services/features.ts';
import type { Account } from '../../store/accounts.ts';
import { iso, type Resource } from '../document.ts';

/** The account an API key belongs to; its only address is /v2/account, the caller's own. */
export function accountResource(row: Account): Resource {
  return {
    id: row.id,
    type: 'account',
    attributes: { name: row.name, created_at: iso(row.created_at), features: featureStates(row.disabled_features) },
    links: { self: '/v2/account' },
  };
}
