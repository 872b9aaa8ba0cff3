// The read model's entry points: records by type and id, and the records an `include` names,
// loaded through the one table of resource types.
import type { Resource } from '../jsonapi/document.ts';
import { loadIncluded, validateInclude, type LoadContext } from '../jsonapi/include.ts';
import { resourceTypes } from './resource-types.ts';

export type { LoadContext };

/** The records of `type` with these ids that the account may see (fewer when some are not). */
export async function loadResources(ctx: LoadContext, type: string, ids: string[]): Promise<Resource[]> {
  const load = resourceTypes[type]?.load;
  if (!load) throw new Error(`no loader for resource type ${type}`);
  return load(ctx, ids);
}

/** `paths` checked against the relationships of `rootType` (a 400 naming the first that is not one). */
export const includePaths = (rootType: string, paths: string[]): string[] => validateInclude(resourceTypes, rootType, paths);

/** The records `paths` name from `primary`, primaries left out. */
export const loadIncludedResources = (ctx: LoadContext, primary: Resource[], paths: string[]): Promise<Resource[]> => loadIncluded(resourceTypes, ctx, primary, paths);
