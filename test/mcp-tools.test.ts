// svc's MCP tools, prompts and resources, driven by the MCP SDK's own Client over real HTTP
// against a real svc tracking sandbox shipments. Every successful tool answer is checked against
// the output schema the server declares in tools/list.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { EVENT_NAMES } from '../src/domain/events/vocabulary.ts';
import type { FastifyInstance } from 'fastify';
import { routeLegs, routeStops } from '../src/mcp/views/route.ts';
import { startTestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { connectMcp, withMcp, type McpConnection } from './support/mcp.ts';
import { closed } from './support/openapi.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

const SPEC_TOOLS = [
  'search_container',
  'track_container',
  'get_container',
  'get_container_transport_events',
  'get_shipment_details',
  'get_supported_shipping_lines',
  'get_container_route',
  'list_shipments',
  'list_containers',
  'list_tracking_requests',
];
const DAY = 86_400_000;

let t: TrackingHarness;
let mcp: McpConnection;
forFile(
  async () => {
    const harness = await startTrackingHarness([], { beforeListen: withMcp() });
    return { harness, mcp: await connectMcp(harness) };
  },
  (s) => ((t = s.harness), (mcp = s.mcp)),
  async (s) => {
    await s.mcp.close();
    await s.harness.close();
  },
);

// svc allows 100 requests a minute per key and the test clock stands still between advances:
// each test starts in a fresh window.
beforeEach(() => t.advance(61_000));

const validators = new Map<string, ValidateFunction>();
/** Tools whose successful answer was checked against their declared output schema. */
const validated = new Set<string>();

async function validatorFor(name: string): Promise<ValidateFunction> {
  if (validators.size === 0) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    for (const tool of (await mcp.client.listTools()).tools) {
      const { $schema: _drop, ...schema } = tool.outputSchema as Record<string, unknown>;
      validators.set(tool.name, ajv.compile(closed(schema) as object));
    }
  }
  const validate = validators.get(name);
  assert.ok(validate, `${name} declares an output schema`);
  return validate;
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function call(name: string, args: Record<string, unknown>, conn = mcp): Promise<CallToolResult> {
  const result = (await conn.client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) {
    const validate = await validatorFor(name);
    assert.ok(validate(result.structuredContent), `${name} answer matches its output schema: ${JSON.stringify(validate.errors)}\n${JSON.stringify(result.structuredContent).slice(0, 500)}`);
    assert.ok(textOf(result).length > 0, `${name} answers with a text summary`);
    // A client that forwards only text blocks still gets every id, fee and date.
    const texts = result.content.filter((c) => c.type === 'text').map((c) => c.text);
    assert.ok(texts.some((text) => text.startsWith('{') && JSON.stringify(JSON.parse(text)) === JSON.stringify(result.structuredContent)), `${name}: a text block holds the structured content as JSON`);
    validated.add(name);
  }
  return result;
}

async function ok(name: string, args: Record<string, unknown>): Promise<any> {
  const result = await call(name, args);
  assert.ok(!result.isError, `${name} ${JSON.stringify(args)} succeeds: ${textOf(result)}`);
  return result.structuredContent;
}

async function fails(name: string, args: Record<string, unknown>, conn = mcp): Promise<string> {
  const result = await call(name, args, conn);
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} fails: ${JSON.stringify(result.structuredContent)}`);
  return textOf(result);
}

let containerId: string;
let shipmentId: string;

test('tools/list has exactly the spec\'s ten tools, each described, with input and output schemas, intent and annotations', async () => {
  const { tools } = await mcp.client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), [...SPEC_TOOLS].sort());
  for (const tool of tools) {
    assert.ok((tool.description ?? '').length > 60, `${tool.name} says when to use it`);
    assert.equal(tool.inputSchema.type, 'object');
    assert.deepEqual((tool.inputSchema.properties as any).intent, { type: 'string', maxLength: 200, description: (tool.inputSchema.properties as any).intent.description });
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name} declares an output schema`);
    assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name} declares that it takes no other arguments`);
    assert.equal(tool.annotations?.readOnlyHint, tool.name !== 'track_container', `${tool.name} readOnlyHint`);
  }
  const required = Object.fromEntries(tools.map((x) => [x.name, (x.inputSchema.required ?? []).sort()]));
  assert.deepEqual(required.track_container, ['number']);
  assert.deepEqual(required.search_container, ['query']);
  assert.deepEqual(required.get_container, ['id']);
  assert.deepEqual(required.list_containers, []);
  const props = (name: string) => Object.keys(tools.find((x) => x.name === name)!.inputSchema.properties ?? {}).sort();
  assert.deepEqual(props('track_container'), ['intent', 'number', 'numberType', 'refNumbers', 'scac']);
  assert.deepEqual(props('list_shipments'), ['carrier', 'include_containers', 'intent', 'page', 'page_size', 'port', 'status', 'updated_after']);
  assert.deepEqual(props('list_containers'), ['carrier', 'include', 'intent', 'page', 'page_size', 'port', 'status', 'updated_after']);
  assert.deepEqual(props('list_tracking_requests'), ['filters', 'intent', 'page', 'page_size', 'request_type', 'status']);
});

test('an argument a tool does not declare is refused by name, whichever tool and whichever way the call is parsed', async () => {
  const { tools } = await mcp.client.listTools();
  const someId = randomUUID();
  const needs: Record<string, Record<string, unknown>> = { search_container: { query: 'SBXU' }, track_container: { number: 'MSCU1234565' } };
  for (const tool of tools) {
    const args = { ...(needs[tool.name] ?? ((tool.inputSchema.required ?? []).includes('id') ? { id: someId } : {})), containerNumber: 'MSCU1234565' };
    const refusal = await fails(tool.name, args);
    assert.match(refusal, /Input validation error/, tool.name);
    assert.match(refusal, /Unrecognized key: "containerNumber"/, tool.name);
  }
  // A misspelt filter is not ignored (which would list everything as if it had been applied).
  assert.match(await fails('list_containers', { statuss: 'available' }), /"statuss"/);
  assert.ok(!(await call('list_containers', { status: 'available' })).isError, 'the declared spelling is taken');
});

test('the scripted session "track TEST-TR-SUCCEEDED, then tell me when it arrives and whether it has holds", by MCP calls only', async () => {
  // The assistant first passes the number alone: svc cannot infer what it is and says what to add.
  const refusal = await fails('track_container', { number: 'TEST-TR-SUCCEEDED', intent: 'user asked to track this' });
  assert.match(refusal, /cannot infer what "TEST-TR-SUCCEEDED" is: This reference number is not valid: it has no digits/);
  assert.match(refusal, /numberType/);

  const created = await ok('track_container', { number: 'TEST-TR-SUCCEEDED', scac: 'test', numberType: 'bill_of_lading' });
  assert.equal(created.outcome, 'tracking_request_created');
  assert.equal(created.trackingRequestCreated, true);
  assert.equal(created.trackingRequest.status, 'pending');
  assert.equal(created.scac, 'TEST');

  const again = await ok('track_container', { number: 'TEST-TR-SUCCEEDED', scac: 'TEST', numberType: 'bill_of_lading' });
  assert.equal(again.outcome, 'request_pending', 'a second call does not create a second request');
  assert.equal(again.trackingRequest.id, created.trackingRequest.id);
  assert.equal(again.trackingRequestCreated, false);

  await t.advance(60_000, 3);
  const found = await ok('search_container', { query: 'TEST-TR-SUCCEEDED' });
  assert.equal(found.shipments.length, 1);
  assert.equal(found.containers.length, 2, 'the shipment hit lists its two boxes');
  assert.equal(found.totalResults, 3);
  for (const c of found.containers) {
    assert.equal(c.shippingLine, 'TEST');
    assert.equal(c.billOfLading, 'TEST-TR-SUCCEEDED');
    assert.equal(c.destination, 'Los Angeles');
  }
  containerId = found.containers[0].id;
  shipmentId = found.shipments[0].id;

  const tracked = await ok('track_container', { number: 'TEST-TR-SUCCEEDED', scac: 'TEST', numberType: 'bill_of_lading' });
  assert.equal(tracked.outcome, 'already_tracked');
  assert.equal(tracked.shipment.id, shipmentId);
  assert.equal(tracked.containers.length, 2);

  // Before arrival: an ETA, no actual arrival yet.
  const early = await ok('get_container', { id: containerId });
  assert.equal(early.shipment.billOfLading, 'TEST-TR-SUCCEEDED');
  assert.equal(early.shipment.routing.portOfDischarge.locode, 'USLAX');
  assert.ok(early.shipment.routing.podEtaAt, 'an ETA is known once the booking is published');

  // Three weeks later the box is discharged in Los Angeles.
  await t.advance(21 * DAY, 42);
  const listed = await ok('list_containers', { include: 'pod_terminal,transport_events' });
  assert.ok(listed.items.some((c: any) => c.id === containerId));
  const item = listed.items.find((c: any) => c.id === containerId);
  assert.ok(item.latestEvent?.event.startsWith('container.transport.'));
  assert.ok(item.podTerminal);

  const box = await ok('get_container', { id: containerId, include: ['shipment', 'pod_terminal'] });
  assert.ok(box.shipment.routing.podAtaAt, 'it has arrived');
  assert.equal(box.location.podArrivedAt !== null, true);
  assert.ok(Array.isArray(box.demurrage.holds));
  assert.equal(box.podTerminal.name !== null, true);
  assert.match(box.location.currentLocation ?? '', /Los Angeles|Picked up|Empty returned/);
  assert.equal(box.demurrage.readyForPickup, box.location.availableForPickup === true && !box.demurrage.holds.some((h: any) => h.status === 'hold'));

  const journey = await ok('get_container_transport_events', { id: containerId });
  assert.equal(journey.totalEvents, journey.timeline.length);
  assert.ok(journey.milestones.vesselDepartedAt && journey.milestones.vesselArrivedAt && journey.milestones.dischargedAt);
  assert.ok(journey.milestones.vesselDepartedAt < journey.milestones.vesselArrivedAt);
  assert.equal(journey.milestones.vesselArrivedAt.slice(0, 16), box.location.podArrivedAt.slice(0, 16));
  assert.ok(journey.eventCategories.vesselEvents >= 4);
  assert.equal(journey.eventCategories.vesselEvents + journey.eventCategories.railEvents + journey.eventCategories.terminalEvents, journey.totalEvents);
  const departed = journey.timeline.find((e: any) => e.event === 'container.transport.vessel_departed');
  assert.deepEqual(departed.location, { name: 'Shanghai', locode: 'CNSHA' });
  assert.ok(departed.vessel, 'vessel moves name their vessel');
});

test('get_container: include adds the terminal and the timeline; shipment details list the containers', async () => {
  const plain = await ok('get_container', { id: containerId, include: [] });
  assert.equal(plain.podTerminal, undefined);
  assert.equal(plain.transportEvents, undefined);
  assert.equal(plain.shipment.routing, undefined, 'without "shipment" only the shipment core');
  assert.equal(plain.shipment.id, shipmentId);
  assert.ok(['dry', 'reefer'].includes(plain.equipment.type));

  const full = await ok('get_container', { id: containerId, include: ['shipment', 'pod_terminal', 'transport_events'] });
  assert.ok(full.transportEvents.length >= 6);
  assert.equal(full.transportEvents[0].event, 'container.transport.empty_out');

  const shipment = await ok('get_shipment_details', { id: shipmentId });
  assert.equal(shipment.billOfLading, 'TEST-TR-SUCCEEDED');
  assert.deepEqual(shipment.shippingLine, { scac: 'TEST', name: 'Test Shipping Line' });
  assert.equal(shipment.routing.portOfLoading.locode, 'CNSHA');
  assert.equal(shipment.routing.portOfLoading.timezone, 'Asia/Shanghai');
  assert.equal(shipment.containers.length, 2);
  assert.ok(shipment.routing.vessel.name);
  const without = await ok('get_shipment_details', { id: shipmentId, include_containers: false });
  assert.equal(without.containers, undefined);
});

test('lists page through shipments, containers and tracking requests', async () => {
  const shipments = await ok('list_shipments', { include_containers: true });
  assert.equal(shipments.total, 1);
  assert.equal(shipments.items[0].containers.length, 2);
  assert.equal(shipments.items[0].portOfDischarge, 'USLAX');
  assert.equal(shipments.hasMore, false);

  const page1 = await ok('list_containers', { page: 1, page_size: 1 });
  const page2 = await ok('list_containers', { page: 2, page_size: 1, include: ['pod_terminal'] });
  assert.deepEqual([page1.page, page1.pageSize, page1.total, page1.hasMore], [1, 1, 2, true]);
  assert.equal(page2.hasMore, false);
  assert.notEqual(page1.items[0].id, page2.items[0].id);

  const requests = await ok('list_tracking_requests', { status: 'created' });
  assert.equal(requests.items.length, 1);
  assert.equal(requests.items[0].shipmentId, shipmentId);
  assert.deepEqual(requests.appliedFilters, { 'filter[status]': 'created' });
  const raw = await ok('list_tracking_requests', { filters: { 'filter[scac]': 'MAEU' } });
  assert.equal(raw.total, 0);
  const bare = await ok('list_tracking_requests', { filters: { request_number: 'TEST-TR-SUCCEEDED' }, request_type: 'bill_of_lading' });
  assert.equal(bare.total, 1);

  // Past svc's largest page, a page as large as svc gives (as REST's page[size]), not a refusal.
  const large = await ok('list_containers', { page_size: 500 });
  assert.deepEqual([large.pageSize, large.items.length, large.hasMore], [100, 2, false]);
  assert.match(await fails('list_containers', { page_size: 0 }), /Input validation error/);
});

test('track_container: inference picks the line, finds what is tracked, or asks the user to choose', async () => {
  const inferred = await ok('track_container', { number: 'CMAU2600020', refNumbers: ['PO-1'] });
  assert.equal(inferred.outcome, 'tracking_request_created');
  assert.equal(inferred.numberType, 'container');
  assert.equal(inferred.scac, 'CMDU');
  assert.equal(inferred.inferResult.decision, 'auto_select');
  assert.equal(inferred.trackingRequest.requestType, 'container');

  const ambiguous = await ok('track_container', { number: '1234567890' });
  assert.equal(ambiguous.outcome, 'needs_carrier');
  assert.equal(ambiguous.trackingRequestCreated, false);
  assert.deepEqual(ambiguous.candidates.map((c: any) => c.scac).sort(), ['COSU', 'OOLU']);
  assert.match(ambiguous.message, /Ask the user/);

  const unknown = await ok('track_container', { number: 'TGHU1234567' });
  assert.equal(unknown.outcome, 'needs_carrier');
  assert.deepEqual(unknown.candidates, []);

  // A box of the tracked shipment, typed with a space: found, nothing created.
  const box = (await ok('get_container', { id: containerId, include: [] })).number as string;
  const before = (await ok('list_tracking_requests', {})).total;
  const existing = await ok('track_container', { number: `${box.slice(0, 4)} ${box.slice(4)}` });
  assert.equal(existing.outcome, 'already_tracked');
  assert.equal(existing.id, containerId);
  assert.equal(existing.containerNumber, box);
  assert.equal((await ok('list_tracking_requests', {})).total, before);
});

test('errors come back as isError results that say what went wrong', async () => {
  const missing = randomUUID();
  assert.match(await fails('get_container', { id: missing }), new RegExp(`^No container with id ${missing} in this account`));
  assert.match(await fails('get_container_transport_events', { id: missing }), /No container with id/);
  assert.match(await fails('get_shipment_details', { id: missing }), new RegExp(`^No shipment with id ${missing}`));
  assert.match(await fails('get_container_route', { id: missing }), /No container with id/);

  const badId = await fails('get_container', { id: 'not-a-uuid' });
  assert.match(badId, /Input validation error/);

  const badScac = await fails('track_container', { number: 'MSKU1234565', scac: 'ZZZZ' });
  assert.match(badScac, /svc refused the request \(HTTP 422\): .*\(at \/data\/attributes\/scac\)/);
  const badInclude = await fails('list_containers', { include: 'bogus' });
  assert.match(badInclude, /HTTP 400.*\(at include\)/);
  const badSearch = await fails('search_container', { query: '' });
  assert.match(badSearch, /Input validation error/);
});

test('a rate-limited key gets a result that says when to retry', async () => {
  const { key } = await t.newAccount('Busy');
  // Connecting counts two (initialize, initialized), 97 REST requests, then the tool call is the
  // 100th, let in, and its REST call the 101st, refused: a key already over the limit gets HTTP
  // 429 for the MCP request itself instead (test/mcp-rate-limit.test.ts).
  const busy = await connectMcp(t, { key });
  for (let i = 0; i < 97; i++) await t.request('GET', '/v2/shipping_lines', { key });
  try {
    const text = await fails('get_supported_shipping_lines', {}, busy);
    assert.match(text, /rate limit/i);
    assert.match(text, /Retry in \d+ seconds/);
  } finally {
    await busy.close();
  }
});

test('get_supported_shipping_lines searches by name or SCAC', async () => {
  const all = await ok('get_supported_shipping_lines', {});
  assert.equal(all.totalLines, all.shippingLines.length);
  assert.ok(all.totalLines > 30);
  const maersk = await ok('get_supported_shipping_lines', { search: 'maersk' });
  assert.ok(maersk.shippingLines.some((l: any) => l.scac === 'MAEU'));
  assert.ok(maersk.totalLines < all.totalLines);
});

// get_container_route against svc's own route endpoint: test/container-route.test.ts.
describe('get_container_route when routing data is not enabled (a 403 put in front of the route endpoint)', () => {
  const FORBIDDEN = randomUUID();
  const forbidding = (app: FastifyInstance, origin: () => string) => {
    app.addHook('onRequest', async (req, reply) => {
      if (req.url.startsWith(`/v2/containers/${FORBIDDEN}/route`)) {
        await reply.code(403).send({ errors: [{ status: '403', title: 'Forbidden', detail: 'Routing data feature is not enabled for this account' }] });
      }
    });
    return withMcp()(app, origin);
  };
  let conn: McpConnection;
  forFile(
    async () => {
      const app = await startTestApp({ beforeListen: forbidding });
      return { app, conn: await connectMcp(app) };
    },
    (s) => (conn = s.conn),
    async (s) => {
      await s.conn.close();
      await s.app.close();
    },
  );

  test('403 feature not enabled → FeatureNotEnabled result pointing to the transport events', async () => {
    const result = await call('get_container_route', { id: FORBIDDEN }, conn);
    assert.ok(!result.isError);
    const data = result.structuredContent as any;
    assert.equal(data.available, false);
    assert.equal(data.error, 'FeatureNotEnabled');
    assert.equal(data.alternative, 'get_container_transport_events');
    assert.match(data.message, /not enabled/);
  });

  test('the mapping tolerates a document with members missing', () => {
    assert.deepEqual(routeStops({}), []);
    assert.deepEqual(routeStops({ data: null, included: [{ id: 'x', type: 'route_location', attributes: {} }] })[0].port, { locode: null, name: null, countryCode: null, timezone: null });
    assert.deepEqual(routeLegs([]), []);
  });
});

test('prompts: track-shipment (with SCAC completion), check-demurrage and analyze-delays', async () => {
  const { prompts } = await mcp.client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), ['analyze-delays', 'check-demurrage', 'track-shipment']);
  const track = prompts.find((p) => p.name === 'track-shipment')!;
  assert.deepEqual(track.arguments?.map((a) => [a.name, a.required]), [['container_number', true], ['carrier', false]]);

  const completion = await mcp.client.complete({ ref: { type: 'ref/prompt', name: 'track-shipment' }, argument: { name: 'carrier', value: 'MA' } });
  assert.ok(completion.completion.values.includes('MAEU'));
  assert.ok(completion.completion.values.every((v) => /^[A-Z]{4}$/.test(v)));

  const tracking = await mcp.client.getPrompt({ name: 'track-shipment', arguments: { container_number: 'MSKU1234565', carrier: 'maeu' } });
  const trackText = (tracking.messages[0].content as { text: string }).text;
  assert.match(trackText, /track_container with number "MSKU1234565" and scac "MAEU"/);
  assert.match(trackText, /get_container/);

  const demurrage = await mcp.client.getPrompt({ name: 'check-demurrage', arguments: { container_id: containerId } });
  assert.match((demurrage.messages[0].content as { text: string }).text, /holds[\s\S]*pickupLfd/);
  const embedded = demurrage.messages[1].content as { type: string; resource: { uri: string; mimeType: string; text: string } };
  assert.equal(embedded.type, 'resource');
  assert.equal(embedded.resource.uri, `svc://container/${containerId}`);
  assert.match(embedded.resource.text, /Last free day/);

  const delays = await mcp.client.getPrompt({ name: 'analyze-delays', arguments: { container_id: containerId } });
  const delayText = (delays.messages[0].content as { text: string }).text;
  for (const tool of ['get_shipment_details', 'get_container_transport_events', 'get_container_route', 'podOriginalEtaAt']) assert.ok(delayText.includes(tool), tool);

  const gone = await mcp.client.getPrompt({ name: 'check-demurrage', arguments: { container_id: randomUUID() } });
  assert.match((gone.messages[1].content as { text: string }).text, /could not be loaded/);
});

test('resources: the container in markdown, the glossary from svc\'s vocabulary, guidance and display columns', async () => {
  const { resources } = await mcp.client.listResources();
  assert.deepEqual(resources.map((r) => r.uri).sort(), ['svc://docs/list-display-columns', 'svc://docs/mcp-query-guidance', 'svc://docs/milestone-glossary']);
  const { resourceTemplates } = await mcp.client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((r) => [r.uriTemplate, r.mimeType]), [['svc://container/{id}', 'text/markdown']]);

  const container = await mcp.client.readResource({ uri: `svc://container/${containerId}` });
  const box = await ok('get_container', { id: containerId, include: [] });
  const markdown = (container.contents[0] as { text: string; mimeType: string }).text;
  assert.equal(container.contents[0].mimeType, 'text/markdown');
  assert.ok(markdown.startsWith(`# Container ${box.number}`));
  for (const part of ['**Status:**', '**Holds:**', '**Last free day:**', 'TEST-TR-SUCCEEDED', 'Shanghai', '## Timeline', 'Vessel departed']) assert.ok(markdown.includes(part), part);

  await assert.rejects(mcp.client.readResource({ uri: `svc://container/${randomUUID()}` }), /No container with id/);

  const glossary = (await mcp.client.readResource({ uri: 'svc://docs/milestone-glossary' })).contents[0] as { text: string };
  for (const name of EVENT_NAMES.filter((n) => n !== 'webhook.deactivated')) assert.ok(glossary.text.includes(`\`${name}\``), `glossary lists ${name}`);
  assert.match(glossary.text, /`not_available`/);

  const guidance = (await mcp.client.readResource({ uri: 'svc://docs/mcp-query-guidance' })).contents[0] as { text: string };
  for (const tool of SPEC_TOOLS) assert.ok(guidance.text.includes(`\`${tool}\``), `guidance names ${tool}`);

  const columns = (await mcp.client.readResource({ uri: 'svc://docs/list-display-columns' })).contents[0] as { text: string; mimeType: string };
  assert.equal(columns.mimeType, 'application/json');
  const { tools } = await mcp.client.listTools();
  for (const [tool, list] of Object.entries(JSON.parse(columns.text).tools as Record<string, { field: string }[]>)) {
    const output = tools.find((x) => x.name === tool)!.outputSchema as any;
    const item = (output.properties.items ?? output.properties.containers).items;
    for (const { field } of list) assert.ok(field in item.properties, `${tool} items have ${field}`);
  }
});

describe('list filters', () => {
  test('status, port, carrier and updated_after reach svc and narrow the lists', async () => {
    const all = await ok('list_containers', {});
    assert.ok(all.total >= 2);
    const statuses: string[] = all.items.map((c: any) => c.status);
    const one = statuses[0];
    const byStatus = await ok('list_containers', { status: one });
    assert.deepEqual(byStatus.appliedFilters, { 'filter[status]': one });
    assert.equal(byStatus.total, statuses.filter((s) => s === one).length);
    // As a person writes it: "On Ship", "Not-Available, available".
    const spoken = await ok('list_containers', { status: ` ${one.replace(/_/g, ' ').toUpperCase()} , not-available` });
    assert.deepEqual(spoken.appliedFilters, { 'filter[status]': `${one},not_available` });
    assert.equal(spoken.total, statuses.filter((s) => s === one || s === 'not_available').length);
    assert.equal((await ok('list_containers', { status: 'empty_returned,delivered', port: 'nlrtm' })).total, 0);

    assert.equal((await ok('list_shipments', { port: 'USLAX' })).items.every((s: any) => s.portOfDischarge === 'USLAX' || s.portOfLoading === 'USLAX' || s.destination === 'USLAX'), true);
    assert.equal((await ok('list_shipments', { port: 'NLRTM' })).total, 0);
    assert.equal((await ok('list_shipments', { carrier: 'test' })).total >= 1, true);
    const maeu = await ok('list_shipments', { carrier: 'MAEU' });
    assert.deepEqual(maeu.appliedFilters, { 'filter[line_scac]': 'MAEU' });
    assert.equal(maeu.total, 0);
    assert.equal((await ok('list_containers', { updated_after: '2099-01-01T00:00:00Z' })).total, 0);
    assert.equal((await ok('list_shipments', { updated_after: '2000-01-01' })).total >= 1, true);
  });
});

test('every tool answered at least once with a result that matches its declared output schema', () => {
  assert.deepEqual([...validated].sort(), [...SPEC_TOOLS].sort());
});
