// The two shapes of a read route: show one record (404 when the account has none by that id) and
// list a page of records, each with `include` resolved against the record type's relationships.
import type { z } from 'zod';
import type { Resource } from '../jsonapi/document.ts';
import { notFound } from '../jsonapi/errors.ts';
import { paginate } from '../jsonapi/pagination.ts';
import { param, parsePage, type Query } from '../jsonapi/query.ts';
import { includePaths, loadResources } from '../read-model/resources.ts';
import type { CountedPage } from '../store/account-rows.ts';
import { includeParam, listDocument, pageParams, recordDocument } from './openapi-schemas.ts';
import { trackingClockOf, type AnyRouteSpec, type Ctx, type QueryParamSpec } from './route.ts';

interface ReadRouteSpec {
  url: string;
  summary: string;
  tag: string;
  /** The resource type of the records, the root of `include` paths. */
  type: string;
  schema: z.ZodType;
  /** The response's description in OpenAPI; "The <type>" unless given. */
  description?: string;
  /** The include paths OpenAPI lists; without them the parameter is left undocumented. */
  includes?: string[];
}

const get = ({ url, summary, tag }: ReadRouteSpec) => ({ method: 'GET' as const, url, summary, tag });

/** A GET of one record found by `find`. */
export function showRoute<Row>(
  spec: ReadRouteSpec & {
    find: (ctx: Ctx<undefined>) => Promise<Row | null | undefined>;
    serialize: (row: Row, ctx: Ctx<undefined>) => Resource;
  },
): AnyRouteSpec {
  return {
    ...get(spec),
    query: spec.includes ? [includeParam(spec.includes)] : undefined,
    response: { status: 200, description: spec.description ?? `The ${spec.type}`, schema: recordDocument(spec.schema) },
    async handler(ctx) {
      const row = await spec.find(ctx);
      if (!row) throw notFound();
      const data = spec.serialize(row, ctx);
      return { body: { data, included: await ctx.include(spec.type, [data]) } };
    },
  };
}

/**
 * The include paths the request names, so the record is loaded for them; none when the parameter
 * is not valid, which ctx.include refuses with a 400 once the record is found (a 404 first).
 */
function validIncludePaths(type: string, query: Query): string[] | undefined {
  try {
    return includePaths(type, param(query, 'include'));
  } catch {
    return undefined;
  }
}

/** A GET of one of the account's records by its id (`:id`), loaded as the read model loads `type`. */
export function showRecordRoute(spec: ReadRouteSpec): AnyRouteSpec {
  return showRoute<Resource>({
    ...spec,
    find: async ({ services, accountId, params, query }) =>
      (await loadResources({ db: services.db, accountId, now: trackingClockOf(services).now() }, spec.type, [params.id], validIncludePaths(spec.type, query)))[0],
    serialize: (resource) => resource,
  });
}

/** A GET of a page of records: `list` takes the page's bounds, `serialize` turns its rows into resources. */
export function listRoute<Row>(
  spec: ReadRouteSpec & {
    pageSize: number;
    /** Filter parameters, for OpenAPI (the handler reads them from ctx.query). */
    filters?: QueryParamSpec[];
    list: (ctx: Ctx<undefined>, limit: number, offset: number) => Promise<CountedPage<Row>>;
    serialize: (rows: Row[], ctx: Ctx<undefined>) => Resource[] | Promise<Resource[]>;
  },
): AnyRouteSpec {
  return {
    ...get(spec),
    query: [...pageParams(spec.pageSize), ...(spec.includes ? [includeParam(spec.includes)] : []), ...(spec.filters ?? [])],
    response: { status: 200, description: spec.description ?? `The ${spec.type}`, schema: listDocument(spec.schema, { paginated: true }) },
    async handler(ctx) {
      const page = parsePage(ctx.query, spec.pageSize);
      const { rows, total, totalIsLowerBound } = await spec.list(ctx, page.size, (page.number - 1) * page.size);
      const data = await spec.serialize(rows, ctx);
      return { body: { data, included: await ctx.include(spec.type, data), ...paginate(ctx.url, page, total, rows.length, totalIsLowerBound) } };
    },
  };
}
