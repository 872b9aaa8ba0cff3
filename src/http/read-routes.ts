// The two shapes of a read route: show one record (404 when the account has none by that id) and
// list a page of records, each with `include` resolved against the record type's relationships.
import type { z } from 'zod';
import type { Resource } from '../jsonapi/document.ts';
import { notFound } from '../jsonapi/errors.ts';
import { paginate } from '../jsonapi/pagination.ts';
import { parseInclude, parsePage } from '../jsonapi/query.ts';
import { includePaths, loadIncludedResources, loadResources } from '../read-model/resources.ts';
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

const showShape = (spec: ReadRouteSpec) => ({
  ...get(spec),
  query: spec.includes ? [includeParam(spec.includes)] : undefined,
  response: { status: 200, description: spec.description ?? `The ${spec.type}`, schema: recordDocument(spec.schema) },
});

/** A GET of one record found by `find`. */
export function showRoute<Row>(
  spec: ReadRouteSpec & {
    find: (ctx: Ctx<undefined>) => Promise<Row | null | undefined>;
    serialize: (row: Row, ctx: Ctx<undefined>) => Resource;
  },
): AnyRouteSpec {
  return {
    ...showShape(spec),
    async handler(ctx) {
      const row = await spec.find(ctx);
      if (!row) throw notFound();
      const data = spec.serialize(row, ctx);
      return { body: { data, included: await ctx.include(spec.type, [data]) } };
    },
  };
}

/**
 * A GET of one of the account's records by its id (`:id`), loaded as the read model loads `type`.
 * The record and its includes share one load context, so what loading the record read along the
 * way (a container's events) is not read again for the include.
 */
export function showRecordRoute(spec: ReadRouteSpec): AnyRouteSpec {
  return {
    ...showShape(spec),
    async handler({ services, accountId, params, query }) {
      const load = { db: services.db, accountId, now: trackingClockOf(services).now(), known: new Map<string, Resource>() };
      const [data] = await loadResources(load, spec.type, [params.id]);
      if (!data) throw notFound();
      const paths = includePaths(spec.type, parseInclude(query));
      return { body: { data, included: paths.length > 0 ? await loadIncludedResources(load, [data], paths) : undefined } };
    },
  };
}

/** A GET of a page of records: `list` takes the page's bounds, `serialize` turns its rows into resources. */
export function listRoute<Row>(
  spec: ReadRouteSpec & {
    pageSize: number;
    /** Filter parameters, for OpenAPI (the handler reads them from ctx.query). */
    filters?: QueryParamSpec[];
    list: (ctx: Ctx<undefined>, limit: number, offset: number) => Promise<{ rows: Row[]; total: number }>;
    serialize: (rows: Row[], ctx: Ctx<undefined>) => Resource[] | Promise<Resource[]>;
  },
): AnyRouteSpec {
  return {
    ...get(spec),
    query: [...pageParams(spec.pageSize), ...(spec.includes ? [includeParam(spec.includes)] : []), ...(spec.filters ?? [])],
    response: { status: 200, description: spec.description ?? `The ${spec.type}`, schema: listDocument(spec.schema, { paginated: true }) },
    async handler(ctx) {
      const page = parsePage(ctx.query, spec.pageSize);
      const { rows, total } = await spec.list(ctx, page.size, (page.number - 1) * page.size);
      const data = await spec.serialize(rows, ctx);
      return { body: { data, included: await ctx.include(spec.type, data), ...paginate(ctx.url, page, total, rows.length) } };
    },
  };
}
