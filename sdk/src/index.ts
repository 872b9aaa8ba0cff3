// svc's REST client: `new SvcClient({ baseUrl, token })`, typed from svc's own OpenAPI document.
export { SvcClient, apiBase, type Page, type SvcClientOptions } from './client.ts';
export * from './errors.ts';
export { customFieldsOf, customFieldValues } from './custom-fields.ts';
export { toRecords, type Related, type ResourceIdentifier, type ResourceObject } from './records.ts';
export type * from './types.ts';
export type { paths, operations } from './schema.ts';
