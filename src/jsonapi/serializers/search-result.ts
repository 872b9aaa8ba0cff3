import type { SearchHit } from '../../store/search.ts';
import { iso, type Resource } from '../document.ts';

export function searchResultResource({ id, created_at, updated_at, ...attributes }: SearchHit): Resource {
  return { id, type: 'search_result', attributes: { ...attributes, created_at: iso(created_at), updated_at: iso(updated_at) } };
}
