// GET /v2/containers/{id}/route?include=port,vessel,route_location (digest §9.5: what the
// reference's SDK and MCP server call), through the SDK, and the MCP tool get_container_route on it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { NotFoundError, SvcClient, ValidationError } from '../sdk/src/index.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { connectMcp, withMcp, type McpConnection } from './support/mcp.ts';
import { insertJourney, type Vessel } from './support/route-journeys.ts';

let t: TestApp;
let mcp: McpConnection;
forFile(
  async () => {
    const app = await startTestApp({ beforeListen: withMcp() });
    return { app, mcp: await connectMcp(app) };
  },
  (s) => ((t = s.app), (mcp = s.mcp)),
  async (s) => {
    await s.mcp.close();
    await s.app.close();
  },
);

const EVER_GIVEN: Vessel = { imo: '9811000', name: 'EVER GIVEN', mmsi: 563000001 };
const FEEDER: Vessel = { imo: '9700020', name: 'FEEDER ONE', mmsi: 219000020 };
const MOTHER: Vessel = { imo: '9700021', name: 'MOTHER SHIP', mmsi: 219000021 };

/** Vietnam → Singapore on a feeder, Singapore → Rotterdam on a mainliner, departed from the transshipment port. */
const journey = () =>
  insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: 'VNSGN', port_of_discharge_locode: 'NLRTM', transshipment_locodes: ['SGSIN'], pol_etd_at: '2026-01-01T00:00:00Z', pol_atd_at: '2026-01-01T08:00:00Z', pod_eta_at: '2026-02-01T00:00:00Z', pod_vessel_imo: MOTHER.imo, pod_vessel_name: MOTHER.name, pod_voyage_number: '201W' },
    milestones: [
      { event: 'feeder_departed', at: '2026-01-01T08:00:00Z', locode: 'VNSGN', vessel: FEEDER, voyage: '7S' },
      { event: 'feeder_arrived', at: '2026-01-03T00:00:00Z', locode: 'SGSIN', vessel: FEEDER, voyage: '7S' },
      { event: 'transshipment_departed', at: '2026-01-06T00:00:00Z', locode: 'SGSIN', vessel: MOTHER, voyage: '201W' },
    ],
    planned: [{ code: 'DEPA', locode: 'SGSIN', at: '2026-01-05T12:00:00Z', vessel: MOTHER }],
  });

const client = (key = t.key) => new SvcClient({ baseUrl: t.baseUrl, token: key, maxRetries: 0 });

test('the route: route locations in order with labels, modes, carrier, vessels and times; ports and vessels included', async () => {
  const { containerId, shipmentId } = await journey();
  const doc: any = await client().containers.route(containerId, { include: 'port,vessel,route_location' });
  assert.equal(doc.data.type, 'route');
  assert.deepEqual(doc.data.relationships.container.data, { type: 'container', id: containerId });
  assert.deepEqual(doc.data.relationships.shipment.data, { type: 'shipment', id: shipmentId });
  const byKey = new Map(doc.included.map((r: any) => [`${r.type}:${r.id}`, r]));
  const locations = doc.data.relationships.route_locations.data.map((ref: any) => byKey.get(`${ref.type}:${ref.id}`) as any);
  assert.deepEqual(
    locations.map((l: any) => [l.attributes.ports_sequence, l.attributes.label, l.attributes.location_locode]),
    [[1, 'POL', 'VNSGN'], [2, 'TS1', 'SGSIN'], [3, 'POD', 'NLRTM']],
  );
  const [pol, ts1, pod] = locations.map((l: any) => l.attributes);
  assert.deepEqual([pol.inbound_mode, pol.outbound_mode, pol.outbound_carrier_scac, pol.outbound_vessel_name, pol.outbound_voyage_number], [null, 'feeder', 'MAEU', 'FEEDER ONE', '7S']);
  assert.deepEqual([pol.outbound_etd_at, pol.outbound_atd_at], ['2026-01-01T00:00:00.000Z', '2026-01-01T08:00:00.000Z']);
  assert.deepEqual([ts1.inbound_mode, ts1.inbound_vessel_imo, ts1.inbound_ata_at], ['feeder', FEEDER.imo, '2026-01-03T00:00:00.000Z']);
  assert.deepEqual([ts1.outbound_mode, ts1.outbound_vessel_imo, ts1.outbound_voyage_number, ts1.outbound_etd_at, ts1.outbound_atd_at], ['vessel', MOTHER.imo, '201W', '2026-01-05T12:00:00.000Z', '2026-01-06T00:00:00.000Z']);
  assert.deepEqual([pod.inbound_vessel_name, pod.inbound_eta_at, pod.inbound_ata_at, pod.outbound_mode], ['MOTHER SHIP', '2026-02-01T00:00:00.000Z', null, null]);

  const port = byKey.get(`port:${locations[1].relationships.location.data.id}`) as any;
  assert.equal(port.attributes.code, 'SGSIN');
  const vessel = byKey.get(`vessel:${locations[1].relationships.outbound_vessel.data.id}`) as any;
  assert.deepEqual([vessel.attributes.name, vessel.attributes.imo], ['MOTHER SHIP', MOTHER.imo]);
  assert.equal(locations[0].relationships.inbound_vessel.data, null);

  // Ids are stable from one request to the next; without include there is no `included`.
  const again: any = await client().containers.route(containerId);
  assert.deepEqual(again.data.relationships.route_locations.data, doc.data.relationships.route_locations.data);
  assert.equal(again.included, undefined);
});

test('a vessel of the reference data keeps its id in the route', async () => {
  const { containerId } = await insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'USLAX', pod_vessel_imo: EVER_GIVEN.imo, pod_vessel_name: EVER_GIVEN.name },
  });
  const doc: any = await client().containers.route(containerId, { include: 'vessel' });
  assert.deepEqual(doc.included.map((r: any) => r.id), ['44e588fb-a439-5fae-bf3f-27622a5d8d3f']);
});

test('errors: another account or unknown container → 404, an unknown include → 400', async () => {
  const { containerId } = await journey();
  const other = await t.newAccount('other');
  await assert.rejects(client(other.key).containers.route(containerId), NotFoundError);
  await assert.rejects(client().containers.route(randomUUID()), NotFoundError);
  await assert.rejects(client().containers.route(containerId, { include: 'shipment' }), (err: unknown) => err instanceof ValidationError || (err as { status?: number }).status === 400);
  const res = await t.request('GET', `/v2/containers/${containerId}/route?include=terminal`);
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].source.parameter, 'include');
});

test('the SDK reads the route map too', async () => {
  const { containerId } = await journey();
  const map = await client().containers.mapGeojson(containerId);
  assert.equal(map.type, 'FeatureCollection');
  assert.deepEqual(map.features.filter((f) => f.properties.feature_type === 'port').map((f: any) => f.properties.label), ['POL', 'TS1', 'POD']);
});

async function tool(args: Record<string, unknown>): Promise<any> {
  const result = (await mcp.client.callTool({ name: 'get_container_route', arguments: args })) as CallToolResult;
  assert.ok(!result.isError, JSON.stringify(result.content));
  return result.structuredContent;
}

test('MCP get_container_route: stops and legs from the route endpoint', async () => {
  const { containerId } = await journey();
  const data = await tool({ id: containerId });
  assert.equal(data.available, true);
  assert.deepEqual(data.stops.map((s: any) => [s.label, s.port.locode, s.port.name]), [['POL', 'VNSGN', 'Ho Chi Minh City'], ['TS1', 'SGSIN', 'Singapore'], ['POD', 'NLRTM', 'Rotterdam']]);
  assert.deepEqual(data.legs[0], { from: 'VNSGN', to: 'SGSIN', mode: 'feeder', vessel: { name: 'FEEDER ONE', imo: FEEDER.imo }, voyageNumber: '7S', etd: '2026-01-01T00:00:00.000Z', atd: '2026-01-01T08:00:00.000Z', eta: null, ata: '2026-01-03T00:00:00.000Z', status: 'done' });
  assert.deepEqual(data.legs[1], { from: 'SGSIN', to: 'NLRTM', mode: 'vessel', vessel: { name: 'MOTHER SHIP', imo: MOTHER.imo }, voyageNumber: '201W', etd: '2026-01-05T12:00:00.000Z', atd: '2026-01-06T00:00:00.000Z', eta: '2026-02-01T00:00:00.000Z', ata: null, status: 'under_way' });
});

test('MCP get_container_route: a route known only from the carrier\'s plan lists every port, marked planned', async () => {
  const { containerId } = await insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: 'VNSGN', port_of_discharge_locode: 'NLRTM', transshipment_locodes: ['SGSIN'], pol_etd_at: '2026-01-01T00:00:00Z', pod_eta_at: '2026-02-01T00:00:00Z' },
    planned: [
      { code: 'ARRI', locode: 'SGSIN', at: '2026-01-03T00:00:00Z', vessel: FEEDER },
      { code: 'DEPA', locode: 'SGSIN', at: '2026-01-05T12:00:00Z', vessel: MOTHER },
    ],
  });
  const result = (await mcp.client.callTool({ name: 'get_container_route', arguments: { id: containerId } })) as CallToolResult;
  const data = result.structuredContent as any;
  assert.deepEqual(data.legs.map((l: any) => [l.from, l.to, l.status, l.etd, l.eta]), [
    ['VNSGN', 'SGSIN', 'planned', '2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.000Z'],
    ['SGSIN', 'NLRTM', 'planned', '2026-01-05T12:00:00.000Z', '2026-02-01T00:00:00.000Z'],
  ]);
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  assert.match(text, /VNSGN \(planned\) → SGSIN \(planned\) → NLRTM \(planned\); 2 leg\(s\): 0 done, 0 under way, 2 planned/);
});

test('MCP get_container_route: a container whose ports are not known yet → NotAvailable with the alternative', async () => {
  const { containerId } = await insertJourney(t.db, { accountId: t.accountId, state: {} });
  assert.deepEqual(await tool({ id: containerId }), {
    containerId,
    available: false,
    error: 'NotAvailable',
    message: 'svc has no route data for this container yet.',
    alternative: 'get_container_transport_events',
  });
});
