// The short parse of a tool's arguments (src/mcp/input-check.ts) gives what zod gives, or leaves
// the arguments to zod: for every tool of svc's MCP server, sample arguments built from the
// input schema and variants of them (each member left out, replaced by a value of another kind,
// at and past its limits, in characters beyond the Basic Multilingual Plane; unknown members).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { SvcClient } from '../sdk/src/index.ts';
import { compiledInputParse } from '../src/mcp/input-check.ts';
import { createMcpServer } from '../src/mcp/server.ts';
import { keptTools } from '../src/mcp/tool-call.ts';
import { sampleOf, UUID, type Json } from './support/schema-sample.ts';

const REMOVED = Symbol('removed');
const emoji = (n: number) => '\u{1F6A2}'.repeat(n);
const OTHER_VALUES: unknown[] = [
  REMOVED, null, '', 'x', 'MAEU', 'USLAX', ' MAEU ', 'a'.repeat(100), 'a'.repeat(101), 'a'.repeat(200), 'a'.repeat(201), emoji(1), emoji(3), emoji(60), emoji(101),
  UUID.toUpperCase(), `urn:uuid:${UUID}`, `${UUID}\n`, 0, 1, -1, 2.5, 25, 100, 101, 2 ** 60, true, false, [], [null], ['shipment'], ['pod_terminal', 'shipment'], ['nope'], [emoji(2)], {}, { id: 1 },
];

function variants(sample: Json): Json[] {
  const out: Json[] = [sample, { ...sample, unknown_member: 1 }, {}];
  for (const name of Object.keys(sample)) {
    for (const other of OTHER_VALUES) {
      const copy = { ...sample };
      if (other === REMOVED) delete copy[name];
      else copy[name] = other;
      out.push(copy);
    }
  }
  return out;
}

test("the short parse of every tool's arguments gives zod's answer or leaves them to zod", () => {
  const server = createMcpServer(new SvcClient({ baseUrl: 'http://127.0.0.1:9/v2', token: 'unused' }));
  const tools = keptTools(server);
  assert.ok(tools.size >= 10, 'the tools are kept');
  const short = new Set<string>();
  for (const [name, tool] of tools) {
    const parse = compiledInputParse(tool.input);
    if (!parse) continue;
    const sample = sampleOf(z.toJSONSchema(tool.input, { io: 'input' }) as Json) as Json;
    let taken = 0;
    for (const args of variants(sample)) {
      const fast = parse(JSON.parse(JSON.stringify(args)));
      if (fast === undefined) continue;
      taken++;
      const zod = tool.input.safeParse(JSON.parse(JSON.stringify(args)));
      const where = `${name}: ${JSON.stringify(args).slice(0, 200)}`;
      assert.ok(zod.success, `${where}: zod accepts what the short parse took`);
      assert.deepEqual(fast, zod.data, where);
    }
    assert.ok(taken > 0, `${name}: the short parse takes some arguments`);
    short.add(name);
  }
  // The tools called most (by id) take the short way; those with trims, unions or records do not.
  for (const name of ['get_container', 'get_container_transport_events', 'get_container_route', 'get_shipment_details']) assert.ok(short.has(name), `${name} takes the short parse`);
  assert.ok(!short.has('track_container'), 'track_container (trimmed text) is parsed by zod');
});

test('a default is a fresh value for every call, as zod makes it', () => {
  const schema = z.object({ id: z.guid(), include: z.array(z.enum(['a', 'b'])).default(['a']) });
  const parse = compiledInputParse(schema);
  assert.ok(parse);
  const first = parse({ id: UUID });
  const second = parse({ id: UUID });
  assert.deepEqual(first, { id: UUID, include: ['a'] });
  assert.notEqual(first?.include, second?.include);
  (first?.include as string[]).push('b');
  assert.deepEqual(parse({ id: UUID }), { id: UUID, include: ['a'] });
});
