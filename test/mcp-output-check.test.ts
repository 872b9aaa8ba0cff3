// The compiled check of a tool's output schema (src/mcp/output-check.ts) answers "valid" only
// where zod does: for every tool of svc's MCP server, a sample answer built from the schema and
// each variant of it with one member removed or replaced by a value of another kind (a Date,
// NaN and undefined among them) get the same verdict from both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { SvcClient } from '../sdk/src/index.ts';
import { compiledCheck } from '../src/mcp/output-check.ts';
import { createMcpServer } from '../src/mcp/server.ts';
import { keptTools } from '../src/mcp/tool-call.ts';
import { sampleOf, type Json } from './support/schema-sample.ts';

const REMOVED = Symbol('removed');
const OTHER_VALUES: unknown[] = [REMOVED, undefined, null, 'text', '', 0, -1, 2.5, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY, true, [], [null], {}, { id: 1 }, new Date(0)];

/** `value` with the member at `path` replaced (or removed). */
function withMember(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? withMember(item, rest, replacement) : item));
  const copy = { ...(value as Json) };
  const next = withMember(copy[head as string], rest, replacement);
  if (next === REMOVED) delete copy[head as string];
  else copy[head as string] = next;
  return copy;
}

/** Every path to a member of `value`, outermost first. */
function* paths(value: unknown, at: (string | number)[] = []): Generator<(string | number)[]> {
  const members: [string | number, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : value && typeof value === 'object' ? Object.entries(value) : [];
  for (const [name, member] of members) {
    yield [...at, name];
    yield* paths(member, [...at, name]);
  }
}

test("every tool's compiled output check gives zod's verdict on its answers and their variants", () => {
  const server = createMcpServer(new SvcClient({ baseUrl: 'http://127.0.0.1:9/v2', token: 'unused' }));
  const tools = keptTools(server);
  assert.ok(tools.size >= 10, 'the tools are kept');
  for (const [name, tool] of tools) {
    const check = compiledCheck(tool.output);
    assert.ok(check, `${name}'s output schema compiles`);
    const sample = sampleOf(z.toJSONSchema(tool.output, { io: 'input' }) as Json);
    assert.ok(tool.output.safeParse(sample).success, `${name}: zod accepts the sample`);
    assert.equal(check(sample), true, `${name}: the compiled check accepts the sample`);
    let variants = 0;
    for (const path of paths(sample)) {
      for (const other of OTHER_VALUES) {
        const variant = withMember(sample, path, other);
        const zodAccepts = tool.output.safeParse(variant).success;
        const where = `${name}: ${path.join('.')} = ${String(other)}`;
        assert.equal(check(variant), zodAccepts, where);
        variants++;
      }
    }
    assert.ok(variants > 0, `${name}: variants were tried`);
  }
});
