// The official MCP conformance suite's server scenarios against svc's MCP endpoint, a real svc
// behind it. The suite needs Node >= 22 (support/node22.ts), so it runs as a child process. Every
// scenario that applies to a product server must pass; the rest are the baseline
// (fixtures/mcp-conformance-baseline.yml), which must match the failures exactly.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { forFile } from './support/for-file.ts';
import { startSvcWithMcp, type McpUnderTest } from './support/mcp.ts';
import { findNode22, runOnNode } from './support/node22.ts';

const root = path.resolve(import.meta.dirname, '..');
const conformance = path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const baselineFile = path.join(root, 'test/fixtures/mcp-conformance-baseline.yml');
const node22 = findNode22();
const skip = 'skip' in node22 ? node22.skip : false;

/** `- scenario # kind: detail` lines of the baseline: scenario → reason. */
function readBaseline(): Map<string, { kind: string; detail: string }> {
  const entries = new Map<string, { kind: string; detail: string }>();
  for (const line of readFileSync(baselineFile, 'utf8').split('\n')) {
    const entry = /^\s+-\s+(\S+)(?:\s+#\s*(.*))?$/.exec(line);
    if (!entry) continue;
    const reason = /^([^:]+):\s*(.+)$/.exec(entry[2] ?? '');
    assert.ok(reason, `baseline entry ${entry[1]} gives no "# kind: detail" reason`);
    entries.set(entry[1], { kind: reason[1].trim(), detail: reason[2].trim() });
  }
  return entries;
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** The suite's per-scenario results under --output-dir: folders `server-<scenario>-<timestamp>`. */
function readResults(dir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const name of readdirSync(dir)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(name)?.[1];
    if (scenario) results.set(scenario, JSON.parse(readFileSync(path.join(dir, name, 'checks.json'), 'utf8')) as Check[]);
  }
  return results;
}

/** The suite's own rule (and --expected-failures'): a FAILURE or a WARNING fails a scenario. */
const failed = (checks: Check[]) => checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING');

let mcp: McpUnderTest;
if (!skip) forFile(startSvcWithMcp, (s) => (mcp = s.mcp));

test('the MCP conformance suite: every applicable server scenario passes, the rest fail exactly as the baseline says', { skip }, async () => {
  const { node, version } = node22 as { node: string; version: string };
  const baseline = readBaseline();
  const outputDir = mkdtempSync(path.join(tmpdir(), 'svc-mcp-conformance-'));
  try {
    const run = await runOnNode(node, [conformance, 'server', '--url', mcp.url, '--expected-failures', baselineFile, '--output-dir', outputDir], { timeoutMs: 90_000 });
    assert.ok(!run.timedOut, `the suite ran past 90 s:\n${run.stdout.slice(-3000)}`);
    const results = readResults(outputDir);
    assert.ok(results.size >= 20, `the suite reported ${results.size} scenarios:\n${run.stdout.slice(-3000)}${run.stderr.slice(-2000)}`);

    const passed = [...results].filter(([, checks]) => !failed(checks)).map(([name]) => name);
    const failing = [...results].filter(([, checks]) => failed(checks));
    const unexpected = failing.filter(([name]) => !baseline.has(name)).map(([name, checks]) => `${name}: ${checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO').map((c) => `${c.id} ${c.status} ${c.errorMessage ?? ''}`).join('; ')}`);
    const nowPassing = passed.filter((name) => baseline.has(name));
    const notRun = [...baseline.keys()].filter((name) => !results.has(name));
    assert.deepEqual(
      { unexpected, nowPassing, notRun },
      { unexpected: [], nowPassing: [], notRun: [] },
      'the results differ from test/fixtures/mcp-conformance-baseline.yml: unexpected = failing but not listed, nowPassing = listed but passing (take them out), notRun = listed but no longer in the suite',
    );
    // The suite compares with the baseline by the same rule; its exit code must agree.
    assert.equal(run.code, 0, `the suite exited ${run.code}:\n${run.stdout.slice(-3000)}`);
    // What must pass for any product server: the lifecycle, listing, and a failed tool call as an
    // isError result. (tools-call-simple-text passes too, but says little: it calls the suite's
    // test_simple_text, which svc lacks, and accepts the "not found" error result's text.)
    for (const name of ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'resources-list', 'prompts-list']) assert.ok(passed.includes(name), `${name} did not pass`);

    const kinds = new Map<string, number>();
    for (const [name] of failing) kinds.set(baseline.get(name)!.kind, (kinds.get(baseline.get(name)!.kind) ?? 0) + 1);
    const reasons = [...kinds].sort().map(([kind, count]) => `${kind} ${count}`).join(', ');
    process.stdout.write(`conformance: ${passed.length} passed, ${failing.length} expected failures (${reasons}) in ${(run.ms / 1000).toFixed(1)} s on Node.js ${version}\n`);
    process.stdout.write(`conformance passed: ${passed.sort().join(', ')}\n`);
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
});
