// Checks real responses against the served OpenAPI document: the schema the document gives for
// their route and status, with every object closed (ajv, JSON Schema 2020-12).
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { startTestApp, type RequestOptions, type Response, type TestApp } from './app.ts';
import { forFile } from './for-file.ts';

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext typing.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

/**
 * The served schemas are open (no additionalProperties: false), so they would accept any extra
 * member; closing every object here also proves they list each member the response carries.
 */
export function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, closed(v)]));
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

export type CallOptions = RequestOptions & { open?: boolean };

export interface OpenApiChecker {
  /** The served document. */
  doc: any;
  /** "GET /v2/ports/{id}" for every operation a response was checked against. */
  checked: Set<string>;
  /**
   * Sends the request and asserts that the document describes the answer, body included, member
   * by member unless `open` (the document's own description of itself is deliberately loose).
   */
  call(method: string, path: string, template: string, options?: CallOptions): Promise<Response>;
}

/** Fetches the served document once and returns a checker bound to it and to `app`. */
export async function openApiChecker(app: Pick<TestApp, 'request'>): Promise<OpenApiChecker> {
  const doc = (await app.request('GET', '/v2/openapi.json', { key: null })).body;
  const ajv = new Ajv2020({ allErrors: true });
  addFormats(ajv);
  const checked = new Set<string>();
  return {
    doc,
    checked,
    async call(method, path, template, options) {
      const res = await app.request(method, path, options);
      const operation = doc.paths[template]?.[method.toLowerCase()];
      assert.ok(operation, `the document has ${method} ${template}`);
      const described = operation.responses[String(res.status)];
      assert.ok(described, `${method} ${template} documents status ${res.status} (${res.text.slice(0, 200)})`);
      const mediaType = (res.headers.get('content-type') ?? '').split(';')[0];
      let schema = described.content?.[mediaType]?.schema;
      assert.ok(schema, `${method} ${template} ${res.status} documents a ${mediaType} body`);
      if (typeof schema.$ref === 'string') schema = schema.$ref.slice(2).split('/').reduce((node: any, key: string) => node[key], doc);
      const validate = ajv.compile(options?.open ? schema : (closed(schema) as object));
      assert.ok(validate(res.body), `${method} ${path} → ${res.status}: ${JSON.stringify(validate.errors)}`);
      checked.add(`${method} ${template}`);
      return res;
    },
  };
}

/** The test file's app (started before its first test, closed after its last) with a checker of its answers. */
export function checkedAppForFile(keep: (app: TestApp, checker: OpenApiChecker) => void): void {
  let checker: OpenApiChecker;
  forFile(
    async () => {
      const app = await startTestApp();
      checker = await openApiChecker(app);
      return app;
    },
    (app) => keep(app, checker),
  );
}
