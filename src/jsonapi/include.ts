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
  /** The include a request for records of this type gets when it sends none (the reference's default). */
  defaultInclude?: string;
  /**
   * Needed once some relationship points at this type. `filledByInclude`: attached relationships
   * whose linkage the include about to be followed fills in on these records anyway, so the load
   * may leave it out (the records' place for it kept) rather than read it twice.
   */
  load?(ctx: LoadContext, ids: string[], filledByInclude?: ReadonlySet<string>): Promise<Resource[]>;
  /**
   * Relationships (also listed in `relationships`) whose linkage the records' own load leaves
   * out, as it would cost every request a read, or may leave out (`filledByInclude`): filled in
   * only on the records an include path reaches them through and that lack it, by one call per
   * type and level, which returns the related records.
   */
  attached?: Record<string, (ctx: LoadContext, records: Resource[]) => Promise<Resource[]>>;
}

export type ResourceTypes = Record<string, ResourceType>;

// Names come from the query string: only a map's own entries count, so "constructor" or
// "__proto__" never reach Object.prototype.
const own = <T>(map: Record<string, T> | undefined, key: string): T | undefined => (map && Object.hasOwn(map, key) ? map[key] : undefined);

/**
 * Include paths as a tree, in the order they were given: each branch a relationship and the
 * branches that go on from it (none at a leaf). Arrays rather than an object keyed by name, so
 * the walks of every request loop over them without enumerating an object's keys.
 */
interface Branch {
  segment: string;
  next: Branch[];
}

// The same paths arrays come back request after request (the read model remembers them), and so
// do their trees.
const trees = new WeakMap<string[], Branch[]>();

function toTree(paths: string[]): Branch[] {
  let tree = trees.get(paths);
  if (!tree) trees.set(paths, (tree = pathTree(paths)));
  return tree;
}

function pathTree(paths: string[]): Branch[] {
  const root: Branch[] = [];
  for (const path of paths) {
    let branches = root;
    for (const segment of path.split('.')) {
      let branch = branches.find((b) => b.segment === segment);
      if (!branch) branches.push((branch = { segment, next: [] }));
      branches = branch.next;
    }
  }
  return root;
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

const attachedFirstSteps = new WeakMap<string[], ReadonlySet<string>>();

/**
 * The attached relationships of `type` that `paths` (from records of that type) go along first:
 * their linkage is filled in by the include, whatever the records' load brought.
 */
export function attachedAlong(types: ResourceTypes, type: string, paths: string[]): ReadonlySet<string> {
  let names = attachedFirstSteps.get(paths);
  if (!names) {
    const attached = own(types, type)?.attached;
    attachedFirstSteps.set(paths, (names = new Set(toTree(paths).map((b) => b.segment).filter((segment) => own(attached, segment) !== undefined))));
  }
  return names;
}

/**
 * Records found along include paths, by type and then id. Two levels of maps rather than one
 * keyed "type:id": every lookup of a request would otherwise build and hash a string of its own.
 */
export type Related = Map<string, Map<string, Resource>>;

const found = (known: Related, ident: Identifier): Resource | undefined => known.get(ident.type)?.get(ident.id);

function remember(known: Related, r: Resource): void {
  const ofType = known.get(r.type);
  if (ofType) ofType.set(r.id, r);
  else known.set(r.type, new Map([[r.id, r]]));
}

/** The records named by `paths`, not repeating any primary record. */
export async function loadIncluded(types: ResourceTypes, ctx: LoadContext, primary: Resource[], paths: string[]): Promise<Resource[]> {
  const tree = toTree(paths);
  return includedAlong(await loadAlong(types, ctx, primary, tree), primary, tree);
}

/**
 * Every record reachable from `primary` along `paths` (primaries included), loaded level by
 * level: one query per type per level, the types of a level at once. Many documents can share
 * one load: each then takes its own records with includedFrom.
 */
export const loadRelated = (types: ResourceTypes, ctx: LoadContext, primary: Resource[], paths: string[]): Promise<Related> =>
  loadAlong(types, ctx, primary, toTree(paths));

interface Step {
  resources: Iterable<Resource>;
  branch: Branch;
}

async function loadAlong(types: ResourceTypes, ctx: LoadContext, primary: Resource[], tree: Branch[]): Promise<Related> {
  const known: Related = new Map();
  for (const r of primary) remember(known, r);

  let level: { resources: Iterable<Resource>; branches: Branch[] }[] = [{ resources: primary, branches: tree }];
  while (level.length > 0) {
    const steps: Step[] = [];
    for (const { resources, branches } of level) for (const branch of branches) steps.push({ resources, branch });
    // The attached relationships this level fills, and what no step of it has yet, by type (two
    // relationships to one type cost one query), read at once: a record whose attached linkage
    // is still to be filled names nothing yet, so nothing is loaded twice for it.
    const reads = attachCalls(types, ctx, steps);
    const missing = new Map<string, Set<string>>();
    for (const { resources, branch } of steps) {
      for (const r of resources) {
        for (const ident of identifiers(r, branch.segment)) {
          if (found(known, ident)) continue;
          const ids = missing.get(ident.type);
          if (ids) ids.add(ident.id);
          else missing.set(ident.type, new Set([ident.id]));
        }
      }
    }
    for (const [type, ids] of missing) {
      const load = own(types, type)?.load;
      if (!load) throw new Error(`no loader for included type ${type}`);
      reads.push(() => load(ctx, [...ids]));
    }
    if (reads.length > 0) for (const records of await inParallel(ctx.db, reads)) for (const r of records) remember(known, r);
    level = [];
    for (const { resources, branch } of steps) {
      if (branch.next.length === 0) continue;
      const next = new Set<Resource>();
      for (const r of resources) {
        for (const ident of identifiers(r, branch.segment)) {
          const record = found(known, ident);
          if (record) next.add(record);
        }
      }
      level.push({ resources: next, branches: branch.next });
    }
  }
  return known;
}

// The names of attached relationships, per table of types: a step along any other name has nothing to attach.
const attachedNames = new WeakMap<ResourceTypes, Set<string>>();

function attachedNamesOf(types: ResourceTypes): Set<string> {
  let names = attachedNames.get(types);
  if (!names) attachedNames.set(types, (names = new Set(Object.values(types).flatMap((t) => Object.keys(t.attached ?? {})))));
  return names;
}

/**
 * The reads that fill the attached relationships the steps of a level follow, on each record
 * that has not its linkage yet (one call per type and relationship), each returning the records
 * the relationship names.
 */
function attachCalls(types: ResourceTypes, ctx: LoadContext, steps: Step[]): (() => Promise<Resource[]>)[] {
  const names = attachedNamesOf(types);
  let pending: Map<string, { fill: NonNullable<ResourceType['attached']>[string]; records: Set<Resource> }> | undefined;
  for (const { resources, branch } of steps) {
    const segment = branch.segment;
    if (!names.has(segment)) continue;
    for (const r of resources) {
      const fill = own(own(types, r.type)?.attached, segment);
      if (!fill || r.relationships?.[segment]) continue;
      const key = `${r.type}\u0000${segment}`;
      const entry = (pending ??= new Map()).get(key);
      if (entry) entry.records.add(r);
      else pending.set(key, { fill, records: new Set([r]) });
    }
  }
  return pending ? [...pending.values()].map(({ fill, records }) => () => fill(ctx, [...records])) : [];
}

/** The records of `known` that `paths` reach from `primary`, in the order met, primaries left out. */
export const includedFrom = (known: Related, primary: Resource[], paths: string[]): Resource[] => includedAlong(known, primary, toTree(paths));

function includedAlong(known: Related, primary: Resource[], tree: Branch[]): Resource[] {
  // `known` holds one object per type and id, so records are told apart by identity, not by
  // "type:id" strings.
  const included = new Set<Resource>();
  collect(known, primary, tree, new Set(primary), included);
  return [...included];
}

function collect(known: Related, resources: Iterable<Resource>, tree: Branch[], primary: Set<Resource>, included: Set<Resource>): void {
  for (const { segment, next: subtree } of tree) {
    // Only a path that goes on needs the records it reached, each once.
    const next = subtree.length === 0 ? undefined : new Set<Resource>();
    for (const r of resources) {
      for (const ident of identifiers(r, segment)) {
        const record = found(known, ident);
        if (!record) continue;
        next?.add(record);
        if (!primary.has(record)) included.add(record);
      }
    }
    if (next) collect(known, next, subtree, primary, included);
  }
}

const NONE: readonly Identifier[] = [];

/** The identifiers the `segment` relationship of `r` points to. */
function identifiers(r: Resource, segment: string): readonly Identifier[] {
  const data = r.relationships?.[segment]?.data;
  return Array.isArray(data) ? data : data ? [data] : NONE;
}
