// The SDK against the OpenAPI document svc serves: its committed types are what
// `npm run sdk:generate` makes of that document, and every operation the document lists has a
// method that sends it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { SCHEMA_FILE, schemaTypes } from '../../scripts/generate-sdk-types.ts';
import { NotFoundError, SvcClient } from '../../sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { errors, startScriptedServer } from './scripted-server.ts';

let app: TestApp;
let served: any;
before(async () => {
  app = await startTestApp();
  const res = await app.request('GET', '/v2/openapi.json', { key: null });
  assert.equal(res.status, 200);
  served = res.body;
});
after(() => app.close());

test('sdk/src/schema.ts is what `npm run sdk:generate` makes of the served /v2/openapi.json', async () => {
  const committed = readFileSync(SCHEMA_FILE, 'utf8');
  assert.ok((await schemaTypes(served)) === committed, 'sdk/src/schema.ts differs from the types of the served /v2/openapi.json: run `npm run sdk:generate` and commit the result');

  // The comparison can fail: a document with one more query parameter makes other text.
  const changed = structuredClone(served);
  changed.paths['/v2/parties'].get.parameters.push({ name: 'filter[company_name]', in: 'query', schema: { type: 'string' } });
  const text = await schemaTypes(changed);
  assert.notEqual(text, committed);
  assert.match(text, /"filter\[company_name\]"\?: string/);
});

/** The method that sends each operation; a new route fails the test below until it has one. */
const METHODS: Record<string, string> = {
  getV2TrackingRequests: 'trackingRequests.list',
  postV2TrackingRequests: 'trackingRequests.create',
  getV2TrackingRequestsId: 'trackingRequests.get',
  patchV2TrackingRequestsId: 'trackingRequests.update',
  postV2TrackingRequestsInferNumber: 'trackingRequests.inferNumber',
  getV2Shipments: 'shipments.list',
  getV2ShipmentsId: 'shipments.get',
  patchV2ShipmentsId: 'shipments.update',
  patchV2ShipmentsIdStopTracking: 'shipments.stopTracking',
  patchV2ShipmentsIdResumeTracking: 'shipments.resumeTracking',
  getV2Containers: 'containers.list',
  getV2ContainersId: 'containers.get',
  patchV2ContainersId: 'containers.update',
  patchV2ContainersIdRefresh: 'containers.refresh',
  getV2ContainersIdTransportEvents: 'containers.transportEvents',
  getV2ContainersIdRawEvents: 'containers.rawEvents',
  getV2ContainersIdMapGeojson: 'containers.mapGeojson',
  getV2ContainersIdRoute: 'containers.route',
  getV2TransportEventsId: 'transportEvents.get',
  getV2EstimatedEventsId: 'estimatedEvents.get',
  getV2ContainerUpdatedEventsId: 'containerUpdatedEvents.get',
  getV2Search: 'search',
  getV2ShippingLines: 'shippingLines.list',
  getV2ShippingLinesId: 'shippingLines.get',
  getV2PortsId: 'ports.get',
  getV2MetroAreasId: 'metroAreas.get',
  getV2TerminalsId: 'terminals.get',
  getV2RailTerminalsId: 'railTerminals.get',
  getV2VesselsId: 'vessels.get',
  getV2VesselsIdFuturePositions: 'vessels.futurePositions',
  getV2VesselsIdFuturePositionsWithCoordinates: 'vessels.futurePositionsWithCoordinates',
  getV2Account: 'account.get',
  getV2Parties: 'parties.list',
  postV2Parties: 'parties.create',
  getV2PartiesId: 'parties.get',
  patchV2PartiesId: 'parties.update',
  getV2Webhooks: 'webhooks.list',
  postV2Webhooks: 'webhooks.create',
  getV2WebhooksId: 'webhooks.get',
  patchV2WebhooksId: 'webhooks.update',
  deleteV2WebhooksId: 'webhooks.delete',
  getV2WebhooksEvents: 'webhooks.events',
  getV2WebhooksIps: 'webhooks.ips',
  postV2WebhooksTrigger: 'webhooks.trigger',
  getV2WebhookNotifications: 'webhookNotifications.list',
  getV2WebhookNotificationsId: 'webhookNotifications.get',
  postV2WebhookNotificationsIdRedeliver: 'webhookNotifications.redeliver',
  getV2WebhookNotificationsExamples: 'webhookNotifications.example',
  getV2CustomFieldDefinitions: 'customFieldDefinitions.list',
  postV2CustomFieldDefinitions: 'customFieldDefinitions.create',
  getV2CustomFieldDefinitionsId: 'customFieldDefinitions.get',
  patchV2CustomFieldDefinitionsId: 'customFieldDefinitions.update',
  deleteV2CustomFieldDefinitionsId: 'customFieldDefinitions.delete',
  getV2CustomFieldDefinitionsIdOptions: 'customFieldDefinitions.options.list',
  postV2CustomFieldDefinitionsIdOptions: 'customFieldDefinitions.options.create',
  getV2CustomFieldDefinitionsIdOptionsOptionId: 'customFieldDefinitions.options.get',
  patchV2CustomFieldDefinitionsIdOptionsOptionId: 'customFieldDefinitions.options.update',
  deleteV2CustomFieldDefinitionsIdOptionsOptionId: 'customFieldDefinitions.options.delete',
  getV2CustomFields: 'customFields.list',
  postV2CustomFields: 'customFields.create',
  getV2CustomFieldsId: 'customFields.get',
  patchV2CustomFieldsId: 'customFields.update',
  deleteV2CustomFieldsId: 'customFields.delete',
  ...Object.fromEntries(
    (['Shipments', 'Containers', 'TrackingRequests'] as const).flatMap((entities) => {
      const group = `customFields.${entities[0].toLowerCase()}${entities.slice(1)}`;
      return [
        [`getV2${entities}IdCustomFields`, `${group}.list`],
        [`postV2${entities}IdCustomFields`, `${group}.set`],
        [`patchV2${entities}IdCustomFieldsApiSlug`, `${group}.update`],
        [`deleteV2${entities}IdCustomFieldsApiSlug`, `${group}.delete`],
      ];
    }),
  ),
  getV2Documents: 'documents.list',
  postV2Documents: 'documents.create',
  getV2DocumentsTypes: 'documents.types',
  getV2DocumentsId: 'documents.get',
  patchV2DocumentsId: 'documents.update',
  deleteV2DocumentsId: 'documents.delete',
  getV2DocumentsIdDownloadUrl: 'documents.downloadUrl',
  postV2DocumentsIdReextract: 'documents.reextract',
  postV2DocumentsIdReclassify: 'documents.reclassify',
  postV2DocumentsIdRelink: 'documents.relink',
  postV2DocumentsIdRotate: 'documents.rotate',
  getV2DocumentSchemasId: 'documents.schema',
  postV2DirectUploads: 'documents.createDirectUpload',
  postRailsActiveStorageDirectUploads: 'documents.createDirectUploadRails',
  putV2DirectUploadsToken: 'documents.putDirectUpload',
  getV2DocumentFilesToken: 'documents.downloadFile',
  getV2EmailSubmissions: 'emailSubmissions.list',
  getV2EmailSubmissionsId: 'emailSubmissions.get',
  postV2EmailSubmissions: 'emailSubmissions.submit',
  getV2EmailSubmissionsInboundAddress: 'emailSubmissions.inboundAddress',
  getV2OpenapiJson: 'openApi',
  getHealthz: 'health',
  getReadyz: 'ready',
};

test('every served operation has a named method, and the method sends that operation', async () => {
  const operations = Object.entries(served.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([template, item]) =>
    Object.entries(item).map(([method, op]) => ({ id: op.operationId, method: method.toUpperCase(), template })),
  );
  assert.ok(operations.length > 40, `only ${operations.length} operations served`);
  assert.deepEqual(
    operations.map((o) => o.id).filter((id) => !(id in METHODS)),
    [],
    'served operations without an SDK method (add one to sdk/src/client.ts and to METHODS)',
  );
  assert.deepEqual(Object.keys(METHODS).filter((id) => !operations.some((o) => o.id === id)), [], 'METHODS names operations svc no longer serves');

  // Each method against a server that answers 404 to everything: what it sent is what counts.
  const server = await startScriptedServer([{ status: 404, body: errors(404, 'Not Found') }]);
  try {
    const client = new SvcClient({ baseUrl: `${server.url}/prefix` });
    for (const op of operations) {
      const fn = METHODS[op.id].split('.').reduce((node: any, name) => node?.[name], client);
      assert.equal(typeof fn, 'function', `client.${METHODS[op.id]} is a method`);
      const sent = server.received.length;
      // Each path parameter in order, as the method takes them ({id}, then {option_id} or {api_slug}).
      const pathArgs = [...op.template.matchAll(/\{(\w+)\}/g)].map((m) => `${m[1]}-1`);
      await assert.rejects(fn(...pathArgs), NotFoundError, `client.${METHODS[op.id]}`);
      assert.equal(server.received.length, sent + 1, `client.${METHODS[op.id]} sends one request`);
      const { method, url } = server.received[sent];
      assert.equal(`${method} ${url.split('?')[0]}`, `${op.method} /prefix${op.template.replace(/\{(\w+)\}/g, '$1-1')}`, `client.${METHODS[op.id]} sends ${op.id}`);
    }
  } finally {
    await server.close();
  }
});
