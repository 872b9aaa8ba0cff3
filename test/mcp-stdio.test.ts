// `svc mcp --stdio` as a desktop assistant starts it: the SDK's stdio client spawns the real
// command, which reaches a real svc over REST with SVC_API_TOKEN.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_SERVER_INFO } from '../src/mcp/server.ts';
import type { TestApp } from './support/app.ts';
import { startTestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { freePort, runSvc, spawnSvc } from './support/svc-process.ts';

const bin = path.resolve(import.meta.dirname, '../bin/svc.js');
let t: TestApp;
forFile(startTestApp, (s) => (t = s));

test('tools over stdio, with the key from SVC_API_TOKEN; stdout carries only the protocol', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--stdio'],
    env: { ...(process.env as Record<string, string>), SVC_API_BASE_URL: t.baseUrl, SVC_API_TOKEN: t.key, SVC_LOG_LEVEL: 'debug' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d));
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(transport); // a stray line on stdout would break this exchange
  try {
    assert.equal(client.getServerVersion()?.name, MCP_SERVER_INFO.name);
    const tools = await client.listTools();
    assert.ok(tools.tools.some((tool) => tool.name === 'get_supported_shipping_lines'));
    const result = await client.callTool({ name: 'get_supported_shipping_lines', arguments: { search: 'MAEU' } });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    assert.match(JSON.stringify(result.structuredContent), /"MAEU"/);
  } finally {
    await client.close();
  }
  assert.match(stderr, /MCP server on stdio/);
  assert.ok(!stderr.includes(t.key), 'the key is not echoed');
});

test('without SVC_API_TOKEN: says what to set and exits 1', () => {
  const r = runSvc(['mcp', '--stdio'], { SVC_API_BASE_URL: t.baseUrl, SVC_API_TOKEN: '' });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /needs SVC_API_TOKEN/);
});

test('a key svc refuses: says so and exits 1, without printing the key', async () => {
  const key = 'svc_refused-key-0123456789abcdef';
  const r = await runToEnd(['mcp', '--stdio'], { SVC_API_BASE_URL: t.baseUrl, SVC_API_TOKEN: key });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /does not accept SVC_API_TOKEN/);
  assert.ok(!r.stderr.includes(key));
});

test('svc unreachable at start: a warning on stderr, and the server starts all the same', async () => {
  const port = await freePort();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--stdio'],
    env: { ...(process.env as Record<string, string>), SVC_API_BASE_URL: `http://127.0.0.1:${port}`, SVC_API_TOKEN: t.key },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d));
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'get_supported_shipping_lines', arguments: {} });
    assert.equal(result.isError, true); // the tool fails; the server does not
    assert.ok((await client.listTools()).tools.length >= 1);
  } finally {
    await client.close();
  }
  assert.match(stderr, /warning: .*could not be reached/);
});

test('--stdio belongs to svc mcp', () => {
  const r = runSvc(['serve', '--stdio'], {});
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--stdio is an option of svc mcp/);
});

/** runSvc without blocking this process, whose svc the command calls. */
function runToEnd(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawnSvc(args, env);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (out.stdout += d));
  child.stderr!.on('data', (d: Buffer) => (out.stderr += d));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, ...out })));
}
