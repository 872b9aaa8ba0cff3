// Freshness per source (shipping line, terminal, AIS) on one sandbox journey, as the REST API,
// MCP (get_shipment_details, get_container and the container's markdown) and the web app's
// shipment page show it: the same instants on every face, and each one what it stands for.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DAY, HOUR } from '../src/domain/time-units.ts';
import { createUser } from '../src/services/users.ts';
import { insertVesselPositions, upsertAisIdentity } from '../src/store/vessel-positions.ts';
import { forFile } from './support/for-file.ts';
import { connectMcp, type McpConnection } from './support/mcp.ts';
import type { TrackingHarness } from './support/tracking.ts';
import { startTrackingHarnessWithFaces } from './support/tracking-faces.ts';
import { WebClient } from './support/web.ts';

type Source = { checked_at: string | null; changed_at: string | null };
type Freshness = { shipping_line: Source; terminal: Source; ais: Source };
const SOURCES = ['shipping_line', 'terminal', 'ais'] as const;
const CAMEL = { shipping_line: 'shippingLine', terminal: 'terminal', ais: 'ais' } as const;

let t: TrackingHarness;
let mcp: McpConnection;
let shipmentId: string;
/** The box the AIS positions are written for, the vessel it was discharged from and when. */
let box: { id: string; imo: string; dischargedAt: Date };
/** Two positions of that vessel: the one before the discharge is the last AIS says about the box. */
let positions: { before: Date; after: Date };

const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));
const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Date.parse(a) >= Date.parse(b) ? a : b);

const shipment = async () => (await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data;
const containers = async (): Promise<any[]> => (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data;

forFile(
  async () => {
    const harness = await startTrackingHarnessWithFaces();
    t = harness;
    const tr = await t.track('bill_of_lading', 'TEST-HOLDS', 'TEST');
    await t.worker.drain();
    // A day at a time until the boxes are held at the terminal: the terminal has reported and changed.
    for (let day = 0; day < 30; day++) {
      await t.advance(DAY);
      const id = (await t.request('GET', `/v2/tracking_requests/${tr}`)).body.data.relationships.tracked_object.data?.id;
      if (id && (await (async () => ((shipmentId = id), await containers()))()).some((c) => c.attributes.holds_at_pod_terminal.some((h: any) => h.status === 'hold'))) break;
    }
    assert.ok(shipmentId, 'the sandbox journey made a shipment');
    const first = (await containers())[0];
    const { rows } = await t.db.query<{ vessel_imo: string; timestamp: Date; event: string }>(
      `SELECT vessel_imo, timestamp, event FROM transport_events WHERE container_id = $1 AND vessel_imo IS NOT NULL ORDER BY timestamp DESC LIMIT 1`,
      [first.id],
    );
    assert.match(rows[0].event, /discharged$/, 'the box is off its last vessel');
    box = { id: first.id, imo: rows[0].vessel_imo, dischargedAt: rows[0].timestamp };
    const mmsi = 987_000_000 + Math.floor(Math.random() * 999_999);
    await upsertAisIdentity(t.db, { mmsi, imo: box.imo, name: null, callSign: null, shipType: null, destination: null, at: t.clock.now() });
    positions = { before: new Date(box.dischargedAt.getTime() - HOUR), after: new Date(box.dischargedAt.getTime() + HOUR) };
    await insertVesselPositions(
      t.db,
      [positions.before, positions.after].map((at) => ({ mmsi, at, latitude: 37.8, longitude: -122.3, speedKnots: 0, courseDegrees: null, headingDegrees: null })),
    );
    return { harness, mcp: await connectMcp(harness) };
  },
  (s) => ((t = s.harness), (mcp = s.mcp)),
  async (s) => {
    await s.mcp.close();
    await s.harness.close();
  },
);

test('REST: each source says when it was last checked and last changed, per container and for the shipment', async () => {
  const s = (await shipment()).attributes;
  const boxes = await containers();
  const f: Freshness = s.data_freshness;
  // The line: its last answer, as line_tracking_last_succeeded_at says; a change no later than that.
  assert.equal(f.shipping_line.checked_at, s.line_tracking_last_succeeded_at);
  assert.ok(f.shipping_line.changed_at && ms(f.shipping_line.changed_at)! <= ms(f.shipping_line.checked_at)!);
  for (const c of boxes) {
    const cf: Freshness = c.attributes.data_freshness;
    assert.deepEqual(cf.shipping_line.checked_at, f.shipping_line.checked_at, 'a box is checked with its shipment');
    assert.ok(cf.shipping_line.changed_at !== null);
    // The terminal: its last report is the reference's terminal_checked_at; the holds were a change.
    assert.equal(ms(cf.terminal.checked_at), ms(c.attributes.terminal_checked_at));
    assert.ok(cf.terminal.changed_at !== null, 'the holds put on were recorded as a change');
  }
  // The shipment's terminal and AIS times are the latest of its boxes'.
  for (const source of ['terminal', 'ais'] as const) {
    for (const at of ['checked_at', 'changed_at'] as const) {
      assert.equal(ms(f[source][at]), ms(boxes.map((c) => c.attributes.data_freshness[source][at] as string | null).reduce(later, null)), `${source}.${at}`);
    }
  }
  // AIS: the last position of the vessel up to the box's discharge from it, not the one after.
  const aisBox: Freshness = boxes.find((c) => c.id === box.id).attributes.data_freshness;
  assert.equal(aisBox.ais.checked_at, positions.before.toISOString());
  assert.equal((await t.request('GET', `/v2/containers/${box.id}`)).body.data.attributes.data_freshness.ais.checked_at, positions.before.toISOString(), 'GET one container reads it the same');
});

test('a later lookup moves when the line and the terminal were last checked', async () => {
  const before: Freshness = (await shipment()).attributes.data_freshness;
  await t.advance(2 * HOUR);
  const after: Freshness = (await shipment()).attributes.data_freshness;
  assert.ok(ms(after.shipping_line.checked_at)! > ms(before.shipping_line.checked_at)!, 'the line was asked again');
  assert.ok(ms(after.terminal.checked_at)! > ms(before.terminal.checked_at)!, 'the terminal reported again');
  assert.ok(ms(after.shipping_line.changed_at)! <= ms(after.shipping_line.checked_at)!);
});

test("a check that found the line's answer applied already counts as the line's last check", async () => {
  const before: Freshness = (await shipment()).attributes.data_freshness;
  // As saveChecks records it: on the schedule row alone, the shipment row untouched.
  const checkedAt = new Date(Date.parse(before.shipping_line.checked_at!) + 1000);
  await t.db.query('UPDATE shipment_refreshes SET last_checked_at = $2 WHERE shipment_id = $1', [shipmentId, checkedAt]);
  const after = (await shipment()).attributes;
  assert.equal(after.data_freshness.shipping_line.checked_at, checkedAt.toISOString());
  assert.equal(after.data_freshness.shipping_line.changed_at, before.shipping_line.changed_at, 'a check changes nothing');
  assert.equal(after.line_tracking_last_succeeded_at, checkedAt.toISOString(), 'as the reference attribute says');
  const box0 = (await t.request('GET', `/v2/containers/${box.id}`)).body.data.attributes.data_freshness;
  assert.equal(box0.shipping_line.checked_at, checkedAt.toISOString());
});

const mcpSource = (s: Source) => ({ checkedAt: s.checked_at, changedAt: s.changed_at });
const asMcp = (f: Freshness) => Object.fromEntries(SOURCES.map((source) => [CAMEL[source], mcpSource(f[source])]));

async function callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  await t.advance(61_000); // a fresh rate-limit window
  const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  assert.ok(!result.isError, JSON.stringify(result.content));
  return result;
}

test('MCP: get_shipment_details, get_container and the container markdown show the REST instants', async () => {
  const shipmentResult = await callTool('get_shipment_details', { id: shipmentId });
  const restShipment: Freshness = (await shipment()).attributes.data_freshness;
  assert.deepEqual((shipmentResult.structuredContent as any).dataFreshness, asMcp(restShipment));
  const text = shipmentResult.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  assert.match(text, new RegExp(`shipping line checked ${restShipment.shipping_line.checked_at}`));

  const containerResult = await callTool('get_container', { id: box.id });
  const restBox: Freshness = (await t.request('GET', `/v2/containers/${box.id}`)).body.data.attributes.data_freshness;
  assert.deepEqual((containerResult.structuredContent as any).dataFreshness, asMcp(restBox));

  await t.advance(61_000);
  const { contents } = await mcp.client.readResource({ uri: `svc://container/${box.id}` });
  const markdown = String((contents[0] as { text: string }).text);
  assert.match(markdown, /## Data freshness/);
  assert.ok(markdown.includes(`- **AIS:** checked ${positions.before.toISOString()}`), markdown);
  assert.ok(markdown.includes(`- **Terminal:** checked ${restBox.terminal.checked_at}, changed ${restBox.terminal.changed_at}`));
});

/** The instants a freshness block of the page shows, by source: the datetime of each `<time>`, or null for "never". */
function pageFreshness(block: string): Freshness {
  const out = {} as Freshness;
  for (const source of SOURCES) {
    const item = block.match(new RegExp(`<li data-source="${source}">(.*?)</li>`, 's'));
    assert.ok(item, `the page shows ${source}`);
    const parts = item[1].split(', changed ');
    const instant = (part: string) => part.match(/datetime="([^"]+)"/)?.[1] ?? (assert.match(part, /never/), null);
    out[source] = { checked_at: instant(parts[0]), changed_at: instant(parts[1]) };
  }
  return out;
}

test('web: the shipment page shows the same instants, in relative words, for the shipment and each box', async () => {
  const address = `user-${randomUUID()}@example.com`;
  await createUser(t.db, t.clock, { accountId: t.accountId, email: address, password: 'correct horse battery' });
  const web = new WebClient(t.baseUrl);
  await web.signIn(address, 'correct horse battery');
  const page = await web.get(`/shipments/${shipmentId}`);
  assert.equal(page.status, 200);
  const blocks = page.text.split('<div class="data-freshness muted">').slice(1);
  const boxes = await containers();
  assert.equal(blocks.length, 1 + boxes.length, 'one block for the shipment and one per box');
  assert.deepEqual(pageFreshness(blocks[0]), (await shipment()).attributes.data_freshness);
  for (const [i, c] of boxes.entries()) assert.deepEqual(pageFreshness(blocks[i + 1]), c.attributes.data_freshness, c.attributes.number);
  assert.match(blocks[0], /Data freshness/);
  assert.match(blocks[0], /Shipping line: checked <time[^>]*>(just now|\d+ (min|h|d) ago)<\/time>/);
});
