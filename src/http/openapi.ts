// The OpenAPI 3.1 document of /v2, generated from the same route declarations and zod schemas
// that validate requests, so the description cannot drift from the behaviour.
import { z } from 'zod';
import { errorDocument, type PlainOperation } from './openapi-schemas.ts';
import { JSONAPI, type AnyRouteSpec } from './route.ts';
import { documentFileOperations } from './routes/document-files.ts';
import { healthOperations } from './routes/health.ts';

const requestSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

/**
 * Response schemas stay open: zod's output mode closes every object with
 * `additionalProperties: false`, which would make any member a schema does not list (and any
 * member added later) a contradiction of the document that clients generating code would trip on.
 */
const responseSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: ({ jsonSchema }) => {
      if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  }) as Record<string, unknown>;

const operationId = (method: string, path: string) =>
  `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[/_.](\w)/g, (_, c: string) => c.toUpperCase())}`;

/** This document, described loosely: its own schema is the OpenAPI 3.1 specification. */
const openApiOperation: PlainOperation = {
  path: '/v2/openapi.json',
  summary: 'This OpenAPI 3.1 description of the API',
  tag: 'Operability',
  responses: {
    200: {
      description: 'The OpenAPI document',
      schema: z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.record(z.string(), z.unknown())) }),
    },
  },
};

function plainPathItem(op: PlainOperation): Record<string, unknown> {
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, r]) => [status, { description: r.description, content: { 'application/json': { schema: responseSchema(r.schema) } } }]),
  );
  return { get: { summary: op.summary, tags: [op.tag], operationId: operationId('GET', op.path), security: [], responses } };
}

export function buildOpenApi(routes: AnyRouteSpec[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorResponse = (description: string) => ({ description, content: { [JSONAPI]: { schema: { $ref: '#/components/schemas/Errors' } } } });

  for (const route of routes) {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...route.url.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const mediaType = route.plainJson ? 'application/json' : JSONAPI;
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      operationId: operationId(route.method, path),
      parameters: [
        ...pathParams,
        ...(route.query ?? []).map((q) => ({
          name: q.name,
          in: 'query',
          description: q.description,
          schema: q.schema ?? { type: 'string' },
          ...(q.commaSeparated ? { style: 'form', explode: false } : {}),
          ...(q.required ? { required: true } : {}),
        })),
      ],
      responses: {
        [route.response?.status ?? 200]: {
          description: route.response?.description ?? 'Success',
          ...(route.response?.schema ? { content: { [mediaType]: { schema: responseSchema(route.response.schema) } } } : {}),
        },
        '400': errorResponse('Malformed request or query parameter'),
        '401': errorResponse('Missing, malformed or revoked API key'),
        '404': errorResponse('No such record in this account'),
        '422': errorResponse('A member of the request body is missing or invalid; source.pointer names it'),
        '429': errorResponse('Over the rate limit; Retry-After says how many seconds to wait'),
        ...Object.fromEntries(Object.entries(route.errors ?? {}).map(([status, description]) => [status, errorResponse(description)])),
      },
    };
    if (route.body) {
      const schema = requestSchema(route.body);
      operation.requestBody = {
        required: true,
        content: { [mediaType]: { schema }, ...(route.plainJson ? {} : { 'application/json': { schema } }) },
      };
    }
    if (route.multipart) {
      const form = route.multipart;
      const properties = Object.fromEntries(
        Object.entries(form.fields).map(([name, f]) => [name, f.file ? { type: 'string', format: 'binary', description: f.description } : { type: 'string', description: f.description }]),
      );
      const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
      operation.requestBody = {
        required: true,
        content: { ...content, 'multipart/form-data': { schema: { type: 'object', description: form.description, properties, required: form.required } } },
      };
    }
    if (route.rawBody) {
      operation.requestBody = { required: true, description: route.rawBody.description, content: { [route.rawBody.mediaType]: { schema: { type: 'string', format: 'binary' } } } };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  for (const op of [...healthOperations, openApiOperation]) paths[op.path] = plainPathItem(op);
  const binary = { '*/*': { schema: { type: 'string', format: 'binary' } } };
  for (const op of documentFileOperations) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = {
      summary: op.summary,
      tags: [op.tag],
      operationId: operationId(op.method, op.path),
      security: [],
      parameters: [{ name: 'token', in: 'path', required: true, description: 'The signed token the link carries', schema: { type: 'string' } }],
      ...(op.requestBody ? { requestBody: { required: true, description: op.requestBody, content: binary } } : {}),
      responses: {
        [op.success.status]: { description: op.success.description, ...(op.success.binary ? { content: binary } : {}) },
        ...Object.fromEntries(Object.entries(op.errors).map(([status, description]) => [status, errorResponse(description)])),
      },
    };
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
      schemas: { Errors: responseSchema(errorDocument) },
    },
  };
}
