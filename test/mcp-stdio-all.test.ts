// Every tool, prompt and resource over stdio, as a desktop assistant reaches them: the SDK's stdio
// client spawns `svc mcp --stdio` against a real svc holding a sandbox shipment, and every
// structured answer is checked against the output schema the tool declares (objects closed).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { closed } from './support/openapi.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;
const bin = path.resolve(import.meta.dirname, '../bin/svc.js');
let t: TrackingHarness;
let client: Client;

before(async () => {
  t = await startTrackingHarness();
  await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
  await t.advance(60_000, 3);
  await t.advance(10 * 86_400_000, 10); // some milestones
  t.clock.advance(61_000); // a fresh rate-limit minute for the calls below
  client = new Client({ name: 'svc-test-desktop', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--stdio'],
      env: { ...(process.env as Record<string, string>), SVC_API_BASE_URL: t.baseUrl, SVC_API_TOKEN: t.key },
      stderr: 'ignore',
    }),
  );
});
after(async () => {
  await client?.close();
  await t.close();
});

test('over stdio: each of the ten tools answers what its output schema declares; the prompts and resources answer', async () => {
  const { tools } = await client.listTools();
  assert.equal(tools.length, 10);
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);

  const containers = (await t.request('GET', '/v2/containers')).body.data;
  const container = containers[0].id as string;
  const shipment = containers[0].relationships.shipment.data.id as string;
  const args: Record<string, Record<string, unknown>> = {
    search_container: { query: 'TEST-TR-SUCCEEDED' },
    track_container: { number: 'TEST-TR-SUCCEEDED', numberType: 'bill_of_lading', scac: 'TEST' },
    get_container: { id: container, include: ['shipment', 'pod_terminal', 'transport_events'] },
    get_container_transport_events: { id: container },
    get_shipment_details: { id: shipment },
    get_supported_shipping_lines: { search: 'maersk' },
    list_shipments: { page_size: 5 },
    list_containers: { page_size: 5 },
    list_tracking_requests: { status: 'created' },
  };
  for (const tool of tools) {
    const result = await client.callTool({ name: tool.name, arguments: tool.name === 'get_container_route' ? { id: container } : args[tool.name] });
    const text = JSON.stringify(result.content);
    assert.notEqual(result.isError, true, `${tool.name}: ${text}`);
    if (tool.name === 'get_container_route') {
      // The route endpoint answers: the ports of lading and discharge with the vessel between them.
      const route = result.structuredContent as { available: boolean; stops: { label: string }[] };
      assert.equal(route.available, true, text);
      assert.deepEqual(route.stops.map((s) => s.label), ['POL', 'POD']);
    }
    if (result.structuredContent) {
      const { $schema: _draft, ...schema } = tool.outputSchema as Record<string, unknown>; // draft-07 named, 2020-12 compatible
      const validate = ajv.compile(closed(schema) as object);
      assert.ok(validate(result.structuredContent), `${tool.name}: ${ajv.errorsText(validate.errors)}`);
    }
    assert.ok(Array.isArray(result.content) && result.content.length > 0, `${tool.name} has a text summary`);
  }

  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), ['analyze-delays', 'check-demurrage', 'track-shipment']);
  for (const prompt of prompts) {
    const argumentsOf: Record<string, string> = prompt.name === 'track-shipment' ? { container_number: 'SBXU2781815' } : { container_id: container };
    const { messages } = await client.getPrompt({ name: prompt.name, arguments: argumentsOf });
    assert.ok(messages.length > 0, `${prompt.name} has messages`);
  }

  const { resources } = await client.listResources();
  const uris = [...resources.map((r) => r.uri), `svc://container/${container}`];
  for (const uri of ['svc://docs/milestone-glossary', 'svc://docs/mcp-query-guidance', 'svc://docs/list-display-columns']) assert.ok(uris.includes(uri), uri);
  for (const uri of uris) {
    const { contents } = await client.readResource({ uri });
    assert.ok(contents.length > 0 && 'text' in contents[0] && String(contents[0].text).length > 20, `${uri} has content`);
  }
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.ok(resourceTemplates.some((r) => r.uriTemplate === 'svc://container/{id}'));
});
