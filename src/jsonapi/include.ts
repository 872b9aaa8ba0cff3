// Compound documents: validates `include` paths against the relationships each resource type
// declares, and loads the related records level by level (one query per type per level, the
// types of a level at once).
import { inParallel } from '../store/concurrent.ts';
import type { Queryable } from '../store/db.ts';
import type { Identifier, Resource } from './document.ts';
import { badParameter } from './errors.ts';

export interface LoadContext {
  db: Queryable;
  /** Records owned by accounts are loaded only for this one. */
  accountId: string;
  /** The tracking clock's time: what ages with it (a shipment's AIS estimate) is judged against it. */
  now: Date;
}

export interface ResourceType {
  /** relationship name → the types it may point to */
  relationships: Record<string, readonly string[]>;
  /** Other names clients use for a relationship (the reference's include=shipment on a tracking request). */
  aliases?: Record<string, string>;
  /** Needed once some relationship points at this type. */
  load?(ctx: LoadContext, ids: string[]): Promise<Resource[]>;
}

export type ResourceTypes = Record<string, ResourceType>;

interface PathTree {
  [segment: string]: PathTree;
}

// Names come from the query string: only a map's own entries count, so "constructor" or
// "__proto__" never reach Object.prototype.
const own = <T>(map: Record<string, T> | undefined, key: string): T | undefined => (map && Object.hasOwn(map, key) ? map[key] : undefined);

function toTree(paths: string[]): PathTree {
  const tree: PathTree = Object.create(null);
  for (const path of paths) {
    let node = tree;
    for (const segment of path.split('.')) node = own(node, segment) ?? (node[segment] = Object.create(null));
  }
  return tree;
}

/**
 * The include paths with aliases replaced by the relationships they name; throws a 400 naming the
 * first path that is not a relationship chain from rootType.
 */
export function validateInclude(types: ResourceTypes, rootType: string, paths: string[]): string[] {
  const canonical = paths.map((path) => {
    let current = [rootType];
    const segments: string[] = [];
    for (const given of path.split('.')) {
      const segment = current.map((t) => own(own(types, t)?.aliases, given)).find((s) => s !== undefined) ?? given;
      const next = current.flatMap((t) => own(own(types, t)?.relationships, segment) ?? []);
      if (next.length === 0) {
        throw badParameter('include', `${given} is not a relationship of ${current.join(' or ')} (in include path "${path}").`, 'invalid_include');
      }
      segments.push(segment);
      current = [...new Set(next)];
    }
    return segments.join('.');
  });
  return [...new Set(canonical)];
}

const keyOf = (r: Identifier) => `${r.type}:${r.id}`;

/** The records named by `paths`, not repeating any primary record. */
export async function loadIncluded(types: ResourceTypes, ctx: LoadContext, primary: Resource[], paths: string[]): Promise<Resource[]> {
  const tree = toTree(paths);
  return includedAlong(await loadAlong(types, ctx, primary, tree), primary, tree);
}

/**
 * Every record reachable from `primary` along `paths`, keyed "type:id" (primaries included),
 * loaded level by level: one query per type per level, the types of a level at once. Many
 * documents can share one load: each then takes its own records with includedFrom.
 */
export const loadRelated = (types: ResourceTypes, ctx: LoadContext, primary: Resource[], paths: string[]): Promise<Map<string, Resource>> =>
  loadAlong(types, ctx, primary, toTree(paths));

async function loadAlong(types: ResourceTypes, ctx: LoadContext, primary: Resource[], paths: PathTree): Promise<Map<string, Resource>> {
  const known = new Map<string, Resource>(primary.map((r) => [keyOf(r), r]));

  let level: { resources: Resource[]; tree: PathTree }[] = [{ resources: primary, tree: paths }];
  while (level.length > 0) {
    const steps = level.flatMap(({ resources, tree }) => Object.entries(tree).map(([segment, subtree]) => ({ wanted: related(resources, segment), subtree })));
    // What no step of this level has yet, by type: two relationships to one type cost one query.
    const missing = new Map<string, Set<string>>();
    for (const { wanted } of steps) {
      for (const [key, ident] of wanted) {
        if (!known.has(key)) (missing.get(ident.type) ?? missing.set(ident.type, new Set()).get(ident.type)!).add(ident.id);
      }
    }
    const loads = [...missing].map(([type, ids]) => {
      const load = own(types, type)?.load;
      if (!load) throw new Error(`no loader for included type ${type}`);
      return () => load(ctx, [...ids]);
    });
    for (const records of await inParallel(ctx.db, loads)) for (const r of records) known.set(keyOf(r), r);
    level = steps
      .filter(({ subtree }) => Object.keys(subtree).length > 0)
      .map(({ wanted, subtree }) => ({ resources: [...wanted.keys()].map((k) => known.get(k)).filter((r): r is Resource => r !== undefined), tree: subtree }));
  }
  return known;
}

/** The records of `known` that `paths` reach from `primary`, in the order met, primaries left out. */
export const includedFrom = (known: Map<string, Resource>, primary: Resource[], paths: string[]): Resource[] => includedAlong(known, primary, toTree(paths));

function includedAlong(known: Map<string, Resource>, primary: Resource[], paths: PathTree): Resource[] {
  const primaryKeys = new Set(primary.map(keyOf));
  const included = new Map<string, Resource>();
  const walk = (resources: Resource[], tree: PathTree) => {
    for (const [segment, subtree] of Object.entries(tree)) {
      const next: Resource[] = [];
      for (const key of related(resources, segment).keys()) {
        const r = known.get(key);
        if (!r) continue;
        next.push(r);
        if (!primaryKeys.has(key)) included.set(key, r);
      }
      walk(next, subtree);
    }
  };
  walk(primary, paths);
  return [...included.values()];
}

/** The identifiers the `segment` relationship of `resources` points to, keyed "type:id". */
function related(resources: Resource[], segment: string): Map<string, Identifier> {
  const wanted = new Map<string, Identifier>();
  for (const r of resources) {
    const data = r.relationships?.[segment]?.data;
    for (const ident of Array.isArray(data) ? data : data ? [data] : []) wanted.set(keyOf(ident), ident);
  }
  return wanted;
}
