// The MCP Inspector in CLI mode (`inspector --cli`, the command @modelcontextprotocol/inspector
// installs) against svc's MCP endpoint, a real svc behind it. The Inspector needs Node >= 22.19
// (support/node22.ts), so it runs as a child process; its HOME is a temporary folder, since it
// keeps a storage folder there.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { forFile } from './support/for-file.ts';
import { startSvcWithMcp, type McpUnderTest } from './support/mcp.ts';
import { findNode22, runOnNode } from './support/node22.ts';
import type { TestApp } from './support/app.ts';

const root = path.resolve(import.meta.dirname, '..');
const packageDir = path.join(root, 'node_modules/@modelcontextprotocol/inspector');
const { bin } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const inspector = path.join(packageDir, bin.inspector);
const node22 = findNode22();
const skip = 'skip' in node22 ? node22.skip : false;

let app: TestApp;
let mcp: McpUnderTest;
if (!skip) forFile(startSvcWithMcp, (s) => ({ app, mcp } = s));
const home = mkdtempSync(path.join(tmpdir(), 'svc-mcp-inspector-home-'));
after(() => rmSync(home, { recursive: true, force: true }));

/** `inspector --cli <url> --transport http --method <method> …` with the key's header; the parsed JSON it prints. */
async function inspect(args: string[], key = app.key): Promise<{ code: number | null; json: any; output: string }> {
  const { node } = node22 as { node: string };
  const run = await runOnNode(node, [inspector, '--cli', mcp.url, '--transport', 'http', '--header', `Authorization: Bearer ${key}`, ...args], {
    timeoutMs: 30_000,
    env: { HOME: home },
  });
  assert.ok(!run.timedOut, `inspector ${args.join(' ')} ran past 30 s`);
  let json: any;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    json = undefined;
  }
  return { code: run.code, json, output: run.stdout + run.stderr };
}

test('inspector --cli tools/list: valid JSON naming get_supported_shipping_lines with its input schema', { skip }, async () => {
  const { code, json, output } = await inspect(['--method', 'tools/list']);
  assert.equal(code, 0, output);
  assert.ok(Array.isArray(json?.tools), output);
  const tool = json.tools.find((t: { name: string }) => t.name === 'get_supported_shipping_lines');
  assert.ok(tool, `tools: ${json.tools.map((t: { name: string }) => t.name).join(', ')}`);
  assert.equal(tool.inputSchema.type, 'object');
  assert.equal(tool.inputSchema.properties.search.type, 'string');
  process.stdout.write(`inspector tools/list: ${json.tools.map((t: { name: string }) => t.name).join(', ')}\n`);
});

test('inspector --cli tools/call get_supported_shipping_lines: svc\'s carriers, and a search narrows them', { skip }, async () => {
  const all = await inspect(['--method', 'tools/call', '--tool-name', 'get_supported_shipping_lines']);
  assert.equal(all.code, 0, all.output);
  assert.notEqual(all.json?.isError, true, all.output);
  const lines = all.json.structuredContent.shippingLines as { scac: string; name: string }[];
  assert.equal(all.json.structuredContent.totalLines, lines.length);
  assert.ok(lines.some((l) => l.scac === 'MAEU'), 'Maersk (MAEU) is among svc\'s shipping lines');

  const maersk = await inspect(['--method', 'tools/call', '--tool-name', 'get_supported_shipping_lines', '--tool-arg', 'search=MAEU']);
  assert.equal(maersk.code, 0, maersk.output);
  const found = maersk.json.structuredContent.shippingLines as { scac: string }[];
  assert.ok(found.length >= 1 && found.length < lines.length, `search=MAEU found ${found.length} of ${lines.length}`);
  assert.ok(found.some((l) => l.scac === 'MAEU'));
});

test('inspector --cli resources/list and prompts/list: valid JSON lists', { skip }, async () => {
  const resources = await inspect(['--method', 'resources/list']);
  assert.equal(resources.code, 0, resources.output);
  assert.ok(Array.isArray(resources.json?.resources), resources.output);
  for (const r of resources.json.resources) assert.ok(typeof r.uri === 'string' && typeof r.name === 'string', JSON.stringify(r));
  const prompts = await inspect(['--method', 'prompts/list']);
  assert.equal(prompts.code, 0, prompts.output);
  assert.ok(Array.isArray(prompts.json?.prompts), prompts.output);
  for (const p of prompts.json.prompts) assert.equal(typeof p.name, 'string', JSON.stringify(p));
  process.stdout.write(`inspector resources/list: ${resources.json.resources.length} resources; prompts/list: ${prompts.json.prompts.length} prompts\n`);
});

test('inspector --cli sends its --header: an unknown key is refused, not replaced by the configured token', { skip }, async () => {
  const { code, json, output } = await inspect(['--method', 'tools/call', '--tool-name', 'get_supported_shipping_lines'], 'svc_not_a_key_of_this_svc');
  // The endpoint answers 401 with a Bearer challenge, which the Inspector reports as auth_required
  // (it would start an OAuth flow on a terminal): it exits non-zero and never prints the carriers.
  assert.notEqual(code, 0, `the call succeeded with an unknown key: ${output.slice(0, 500)}`);
  assert.match(output, /auth_required|401|unauthori[sz]ed/i);
  assert.equal(json?.structuredContent, undefined);
});
