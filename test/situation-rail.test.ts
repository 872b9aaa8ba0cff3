// A box that went on by rail (TEST-RAIL to Chicago) is placed at the inland ramp, and its last free
// day is the ramp's, in the ramp's zone, on every face: REST, MCP (structured and text) and the web card.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DAY } from '../src/domain/time-units.ts';
import { localDate } from '../src/domain/tracking/situation.ts';
import { createUser } from '../src/services/users.ts';
import { forFile } from './support/for-file.ts';
import { connectMcp, type McpConnection } from './support/mcp.ts';
import type { TrackingHarness } from './support/tracking.ts';
import { startTrackingHarnessWithFaces } from './support/tracking-faces.ts';
import { WebClient } from './support/web.ts';

let t: TrackingHarness;
let mcp: McpConnection;
let shipmentId: string;
let truth: any;

forFile(
  async () => {
    const harness = await startTrackingHarnessWithFaces();
    t = harness;
    const tr = await t.track('bill_of_lading', 'TEST-RAIL', 'TEST');
    await t.worker.drain();
    await t.advance(DAY);
    shipmentId = (await t.request('GET', `/v2/tracking_requests/${tr}`)).body.data.relationships.tracked_object.data.id;
    truth = await (await fetch(`${t.sandboxUrl}/sandbox/journeys/TEST/TEST-RAIL`)).json();
    return { harness, mcp: await connectMcp(harness) };
  },
  (s) => ((t = s.harness), (mcp = s.mcp)),
  async (s) => {
    await s.mcp.close();
    await s.harness.close();
  },
);

const containers = async (): Promise<any[]> => (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data;

/** A day at a time until every box is in a situation asked for. */
async function until(done: (situation: any) => boolean) {
  for (let day = 0; day < 90; day++) {
    const boxes = await containers();
    if (boxes.length > 0 && boxes.every((c) => done(c.attributes.situation))) return boxes;
    await t.advance(DAY, 4);
  }
  assert.fail('the boxes never got there');
}

async function signedInWeb() {
  const address = `user-${randomUUID()}@example.com`;
  await createUser(t.db, t.clock, { accountId: t.accountId, email: address, password: 'correct horse battery' });
  const web = new WebClient(t.baseUrl);
  await web.signIn(address, 'correct horse battery');
  return web;
}

/** The card of one box on the shipment page, as text without tags. */
async function card(web: WebClient, containerId: string): Promise<string> {
  const page = await web.get(`/shipments/${shipmentId}`);
  assert.equal(page.status, 200);
  const start = page.text.indexOf(`id="container-${containerId}"`);
  assert.ok(start > 0, 'the box has a card');
  const end = page.text.indexOf('class="data-freshness', start);
  assert.ok(end > start);
  return page.text.slice(start, end).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

async function getContainer(id: string) {
  const result = (await mcp.client.callTool({ name: 'get_container', arguments: { id, include: ['shipment', 'pod_terminal'] } })) as CallToolResult;
  assert.ok(!result.isError, JSON.stringify(result.content));
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { data: result.structuredContent as any, text };
}

test('at the inland ramp: REST, MCP and the web card place the box in Chicago, with the ramp’s last free day in pickup_lfd_rail', async () => {
  const { destination, pod } = truth.shipment;
  assert.equal(destination, 'USCHI');
  const boxes = await until((s) => s.kind === 'at_inland_ramp' && s.pickup?.last_free_day);
  const web = await signedInWeb();
  for (const c of boxes) {
    const a = c.attributes;
    const s = a.situation;
    assert.deepEqual([s.place.role, s.place.locode, s.place.timezone], ['inland_destination', 'USCHI', 'America/Chicago']);
    assert.match(s.place.name, /Chicago/);
    assert.equal(s.pickup.place.locode, 'USCHI');

    // The ramp's last free day: in pickup_lfd_rail, midnight in Chicago, the day the sandbox's ramp gave.
    const rail = a.import_deadlines.pickup_lfd_rail;
    assert.ok(rail, 'pickup_lfd_rail is set');
    assert.equal(a.import_deadlines.pickup_lfd_terminal, null, 'the port terminal gave no last free day');
    assert.equal(a.final_destination_timezone, 'America/Chicago');
    const given = truth.terminal.find((p: any) => p.container === a.number).last_free_days.at(-1).value;
    assert.deepEqual(s.pickup.last_free_day, { date: given, timezone: 'America/Chicago', source: 'rail' });
    assert.equal(localDate(rail, 'America/Chicago'), given);
    assert.equal(new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Chicago', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(rail)), '00:00');

    const { data, text } = await getContainer(c.id);
    assert.deepEqual(data.situation, s, 'MCP gives REST’s situation as it is');
    assert.match(data.location.currentLocation, /inland ramp .*Chicago \(USCHI\)/);
    assert.equal(data.demurrage.lastFreeDay, `${given} (America/Chicago, inland ramp)`);
    assert.match(text, /Chicago/);
    assert.match(text, new RegExp(`Last free day ${given} \\(America/Chicago`));
    // The summary line places the box; the JSON after it names the route's ports, Los Angeles among them.
    assert.doesNotMatch(text.split('\n')[0], /Los Angeles|USLAX/);

    const { contents } = await mcp.client.readResource({ uri: `svc://container/${c.id}` });
    const markdown = String((contents[0] as { text: string }).text);
    assert.match(markdown, /\*\*Status:\*\* [a-z_]+ — At the inland ramp|\*\*Status:\*\* [a-z_]+ — At inland ramp/);
    assert.match(markdown, new RegExp(`\\*\\*Last free day:\\*\\* ${given} \\(America/Chicago, inland ramp\\)`));

    const words = await card(web, c.id);
    assert.match(words, /Location At (the )?inland ramp[^.]*Chicago \(USCHI\)/);
    assert.match(words, /Pickup at Chicago \(USCHI\)/);
    assert.doesNotMatch(words, new RegExp(`${pod}|Los Angeles|Terminal `), 'no port terminal beside the ramp');
  }
});

test('picked up at the ramp: placed in Chicago everywhere, no yellow "Not available", no estimated inland arrival left', async () => {
  const boxes = await until((s) => s.kind === 'picked_up' || s.kind === 'empty_returned');
  const web = await signedInWeb();
  for (const c of boxes) {
    const s = c.attributes.situation;
    assert.equal(s.pickup, null);
    const { data, text } = await getContainer(c.id);
    if (s.kind === 'picked_up') {
      assert.deepEqual([s.place.locode, s.waiting_for], ['USCHI', 'empty_return']);
      assert.match(data.location.currentLocation, /^Picked up at Chicago \(USCHI\)$/);
      assert.match(text, /Picked up at Chicago/);
    } else {
      assert.equal(s.place.role, 'empty_depot');
      assert.match(text, /Empty returned/);
    }
    // The summary line places the box; the JSON after it names the route's ports, Los Angeles among them.
    assert.doesNotMatch(text.split('\n')[0], /Los Angeles|USLAX/);
    // Picked up, the box's markdown still gives the last free day the ramp set: it settles what is owed.
    const { contents } = await mcp.client.readResource({ uri: `svc://container/${c.id}` });
    const lfd = c.attributes.import_deadlines.pickup_lfd_rail;
    assert.ok(lfd, 'the ramp gave a last free day');
    assert.ok((contents[0] as { text: string }).text.includes(`- **Last free day:** ${lfd}`), (contents[0] as { text: string }).text);

    const words = await card(web, c.id);
    assert.match(words, /Pickup Picked up/);
    assert.doesNotMatch(words, /Not available/);
    const page = await web.get(`/shipments/${shipmentId}?container=${c.id}`);
    assert.doesNotMatch(page.text, /data-milestone="ind-eta"/);
    const expected = page.text.match(/<li class="estimated"[\s\S]*?<\/li>/g) ?? [];
    assert.deepEqual(expected.filter((li) => /inland destination/i.test(li)), [], 'the estimated inland arrival left once the box arrived');
  }
});
