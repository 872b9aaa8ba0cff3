// The OpenAPI 3.1 document of /v2, generated from the same route declarations and zod schemas
// that validate requests, so the description cannot drift from the behaviour.
import { z } from 'zod';
import { errorDocument } from './openapi-schemas.ts';
import { JSONAPI, type AnyRouteSpec } from './route.ts';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

export function buildOpenApi(routes: AnyRouteSpec[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = jsonSchema(errorDocument, 'output');
  const errorResponse = (description: string) => ({ description, content: { [JSONAPI]: { schema: { $ref: '#/components/schemas/Errors' } } } });

  for (const route of routes) {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...route.url.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const mediaType = route.plainJson ? 'application/json' : JSONAPI;
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[/_](\w)/g, (_, c: string) => c.toUpperCase())}`,
      parameters: [...pathParams, ...(route.query ?? []).map((q) => ({ name: q.name, in: 'query', description: q.description, schema: q.schema ?? { type: 'string' } }))],
      responses: {
        [route.response?.status ?? 200]: {
          description: route.response?.description ?? 'Success',
          ...(route.response?.schema ? { content: { [mediaType]: { schema: jsonSchema(route.response.schema, 'output') } } } : {}),
        },
        '400': errorResponse('Malformed request or query parameter'),
        '401': errorResponse('Missing, malformed or revoked API key'),
        '404': errorResponse('No such record in this account'),
        '422': errorResponse('A member of the request body is missing or invalid; source.pointer names it'),
        '429': errorResponse('Over the rate limit; Retry-After says how many seconds to wait'),
      },
    };
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: { [mediaType]: { schema: jsonSchema(route.body, 'input') }, ...(route.plainJson ? {} : { 'application/json': { schema: jsonSchema(route.body, 'input') } }) },
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'svc REST API',
      version: '0.2.0',
      summary: 'Ocean container tracking: tracking requests, shipments, containers, webhooks (Beta).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'this server' }],
    security: [{ Token: [] }],
    paths,
    components: {
      securitySchemes: {
        Token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Authorization: Token <API_KEY> (Bearer is accepted too)' },
      },
      schemas: { Errors: errorSchema },
    },
  };
}
