// The read model's entry points: records by type and id, and the records an `include` names,
// loaded through the one table of resource types.
import type { Resource } from '../jsonapi/document.ts';
import { attachedAlong, loadIncluded, validateInclude, type LoadContext } from '../jsonapi/include.ts';
import { memoize } from '../domain/memoize.ts';
import { includeList } from '../jsonapi/query.ts';
import { resourceTypes } from './resource-types.ts';

export type { LoadContext };

/**
 * The records of `type` with these ids that the account may see (fewer when some are not); with
 * `paths`, for the include along those paths that follows (loadIncludedResources), which fills
 * in what it goes along.
 */
export async function loadResources(ctx: LoadContext, type: string, ids: string[], paths?: string[]): Promise<Resource[]> {
  const load = resourceTypes[type]?.load;
  if (!load) throw new Error(`no loader for resource type ${type}`);
  return load(ctx, ids, paths && paths.length > 0 ? attachedAlong(resourceTypes, type, paths) : undefined);
}

const includePathsByRoot = new Map<string, (include: string) => string[]>();

/**
 * The paths the `include` parameter's text names from `rootType`, checked against its
 * relationships (a 400 naming the first that is not one). Remembered per root type: clients send
 * the same few includes again and again. The array is shared: read it, never change it.
 */
export function includePaths(rootType: string, include: string | undefined = resourceTypes[rootType]?.defaultInclude): string[] {
  if (include === undefined) return [];
  let pathsOf = includePathsByRoot.get(rootType);
  if (!pathsOf) includePathsByRoot.set(rootType, (pathsOf = memoize((text: string) => validateInclude(resourceTypes, rootType, includeList(text)), 1_000)));
  return pathsOf(include);
}

/** The records `paths` name from `primary`, primaries left out. */
export const loadIncludedResources = (ctx: LoadContext, primary: Resource[], paths: string[]): Promise<Resource[]> => loadIncluded(resourceTypes, ctx, primary, paths);
