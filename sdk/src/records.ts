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
  const byKey = new Map(included.map((r) => [key(r), r]));
  const paths = include?.length ? include : [...new Set(data.flatMap((r) => Object.keys(r.relationships ?? {})))];
  const tree = includeTree(paths);
  return data.map((r) => toRecord(r, tree, byKey));
}

type IncludeTree = Map<string, IncludeTree>;

function includeTree(paths: string[]): IncludeTree {
  const root: IncludeTree = new Map();
  for (const path of paths) {
    let node = root;
    for (const name of path.split('.').map((s) => s.trim()).filter(Boolean)) {
      if (!node.has(name)) node.set(name, new Map());
      node = node.get(name)!;
    }
  }
  return root;
}

function toRecord(resource: ResourceObject, tree: IncludeTree, byKey: Map<string, ResourceObject>): Record<string, unknown> {
  const record: Record<string, unknown> = { id: resource.id, type: resource.type, ...resource.attributes };
  for (const [name, relationship] of Object.entries(resource.relationships ?? {})) {
    if (name in record || !relationship || !('data' in relationship)) continue;
    const subtree = tree.get(name);
    const resolve = (ref: ResourceIdentifier): Related => {
      const found = subtree ? byKey.get(key(ref)) : undefined;
      return found ? (toRecord(found, subtree!, byKey) as Related) : { id: ref.id, type: ref.type };
    };
    const data = relationship.data;
    record[name] = Array.isArray(data) ? data.map(resolve) : data ? resolve(data) : null;
  }
  if (resource.relationships) record.relationships = resource.relationships;
  if (resource.links) record.links = resource.links;
  return record;
}
