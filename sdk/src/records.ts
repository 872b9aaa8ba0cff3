// JSON:API documents turned into plain records: attributes beside id and type, and each
// relationship the document includes replaced by the included record itself (nested as far as
// the include paths go), so callers read `container.shipment.bill_of_lading_number` rather than
// looking ids up in `included`. Relationships not included stay `{ id, type }` references.

export interface ResourceIdentifier {
  id: string;
  type: string;
}

/** A resource object as svc sends it. */
export interface ResourceObject extends ResourceIdentifier {
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: ResourceIdentifier | ResourceIdentifier[] | null } | undefined>;
  links?: Record<string, string | undefined>;
}

/** A related record: the included record when the document has it, else its identifier. */
export type Related = ResourceIdentifier & { [member: string]: unknown };

type AttributesOf<R> = R extends { attributes: infer A } ? A : {};
type RelationshipNamesOf<R> = R extends { relationships?: infer Rel } ? keyof NonNullable<Rel> : never;

/**
 * The plain record of resource type R: its id and type, its attributes, and a member per
 * relationship (null or an empty array when there is no related record). `relationships` and
 * `links` keep the document's own form for callers who want it.
 */
export type Record_<R> = { id: string; type: R extends { type: infer T } ? T : string } & AttributesOf<R> & {
  [K in Exclude<RelationshipNamesOf<R>, keyof AttributesOf<R>>]?: Related | Related[] | null;
} & {
  relationships?: ResourceObject['relationships'];
  links?: ResourceObject['links'];
};

const key = (r: ResourceIdentifier) => `${r.type}\u0000${r.id}`;

/**
 * The plain records of `data`: the relationships named by `include` (dotted paths, as sent) are
 * resolved from `included`; with no include given, every relationship of `data` that `included`
 * holds is resolved one level deep (for includes svc adds by default).
 */
export function toRecords(data: ResourceObject[], included: ResourceObject[] = [], include?: string[]): Record<string, unknown>[] {
  const byKey = new Map<string, ResourceObject>();
  for (const r of included) byKey.set(key(r), r);
  const paths = include?.length ? include : [...new Set(data.flatMap((r) => Object.keys(r.relationships ?? {})))];
  const tree = includeTree(paths);
  const records: Record<string, unknown>[] = new Array(data.length);
  for (let i = 0; i < data.length; i++) records[i] = toRecord(data[i], tree, byKey);
  return records;
}

type IncludeTree = Map<string, IncludeTree>;

// A client asks with the same few include lists again and again: each is made into a tree once.
// Trees are only read, so one may serve every call; the cache keeps the last lists asked for.
const trees = new Map<string, IncludeTree>();
const MAX_TREES = 64;

function includeTree(paths: string[]): IncludeTree {
  const id = paths.join('\u0000');
  let tree = trees.get(id);
  if (tree) return tree;
  tree = new Map();
  for (const path of paths) {
    let node = tree;
    for (const name of path.split('.').map((s) => s.trim()).filter(Boolean)) {
      if (!node.has(name)) node.set(name, new Map());
      node = node.get(name)!;
    }
  }
  if (trees.size >= MAX_TREES) trees.delete(trees.keys().next().value!);
  trees.set(id, tree);
  return tree;
}

function toRecord(resource: ResourceObject, tree: IncludeTree, byKey: Map<string, ResourceObject>): Record<string, unknown> {
  const { id, type, attributes, relationships } = resource;
  if (!relationships) return resource.links ? { id, type, ...attributes, links: resource.links } : { id, type, ...attributes };
  // The related records are gathered apart and the record made in one literal: members added one
  // by one to a record of some forty attributes turn it into a slow dictionary object, which cost
  // more than the rest of the call (and every later read of the record).
  const related: Record<string, unknown> = {};
  for (const name of Object.keys(relationships)) {
    const relationship = relationships[name];
    // An attribute (or id, type) of the same name wins, as it did when it was already in the record.
    if (name === 'id' || name === 'type' || name in (attributes ?? Object.prototype) || !relationship || !('data' in relationship)) continue;
    const subtree = tree.get(name);
    const data = relationship.data;
    if (Array.isArray(data)) {
      const records: Related[] = new Array(data.length);
      for (let i = 0; i < data.length; i++) records[i] = resolve(data[i], subtree, byKey);
      related[name] = records;
    } else related[name] = data ? resolve(data, subtree, byKey) : null;
  }
  return resource.links ? { id, type, ...attributes, ...related, relationships, links: resource.links } : { id, type, ...attributes, ...related, relationships };
}

/** The included record `ref` names, resolved in turn along `subtree`, or the bare reference. */
function resolve(ref: ResourceIdentifier, subtree: IncludeTree | undefined, byKey: Map<string, ResourceObject>): Related {
  const found = subtree ? byKey.get(key(ref)) : undefined;
  return found ? (toRecord(found, subtree!, byKey) as Related) : { id: ref.id, type: ref.type };
}
