import type { PartyRow } from '../../store/parties.ts';
import { iso, type Resource } from '../document.ts';

export function partyResource(row: PartyRow): Resource {
  return {
    id: row.id,
    type: 'party',
    attributes: { company_name: row.company_name, created_at: iso(row.created_at), updated_at: iso(row.updated_at) },
    links: { self: `/v2/parties/${row.id}` },
  };
}
