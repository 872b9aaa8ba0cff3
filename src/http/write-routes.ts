// The shape every change to one record by its id shares: write, answer 404 when the account had no
// such record to write, else the record as it now is.
import type { z } from 'zod';
import { validateBody } from '../jsonapi/body.ts';
import type { Resource } from '../jsonapi/document.ts';
import { notFound } from '../jsonapi/errors.ts';
import { recordDocument } from './openapi-schemas.ts';
import type { AnyRouteSpec, Ctx, Reply } from './route.ts';

/** A record just created: 201, and a top-level link to where it can be read from now on. */
export const createdReply = (data: Resource, requestUrl: URL): Reply => ({ status: 201, body: { data, links: { self: new URL(data.links!.self, requestUrl).href } } });

export function writeRecordRoute<B, Row>(spec: {
  method: 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  tag: string;
  /** The request body, validated into JSON:API errors; none for a change named by the URL alone. */
  body?: z.ZodType<B>;
  /** The record's schema and the response's description, for OpenAPI. */
  schema: z.ZodType;
  description: string;
  /** The row as written; nothing when the account has no such record. */
  write: (ctx: Ctx<B>) => Promise<Row | null | undefined>;
  serialize: (row: Row, ctx: Ctx<B>) => Resource | Promise<Resource>;
}): AnyRouteSpec {
  return {
    method: spec.method,
    url: spec.url,
    summary: spec.summary,
    tag: spec.tag,
    ...(spec.body ? { body: spec.body, parseBody: validateBody } : {}),
    response: { status: 200, description: spec.description, schema: recordDocument(spec.schema) },
    async handler(ctx: Ctx<B>) {
      const row = await spec.write(ctx);
      if (!row) throw notFound();
      return { body: { data: await spec.serialize(row, ctx) } };
    },
  };
}
