// The MCP server's short way for plain requests (src/mcp/direct-transport.ts): which POSTs take
// it, and that it answers exactly as the SDK's web-standard transport does (the long way, taken
// by a batch of the same one request, which the SDK answers with the lone response), over HTTP
// against a real svc.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JSONRPCRequestSchema, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { mountMcp } from '../src/main/mcp.ts';
import { plainRequest } from '../src/mcp/direct-transport.ts';
import { createMcpServer } from '../src/mcp/server.ts';
import { shortToolCall } from '../src/mcp/tool-call.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { mcpHttpRequest, TOOLS_LIST } from './support/mcp.ts';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_supported_shipping_lines', arguments: { search: 'MAEU' } } };

describe('plainRequest: what takes the short way', () => {
  test('one valid request with the headers the transport asks for', () => {
    assert.deepEqual(plainRequest({ headers: HEADERS, body: JSON.stringify(CALL) }), CALL);
    assert.deepEqual(plainRequest({ headers: { ...HEADERS, 'mcp-protocol-version': undefined }, body: JSON.stringify(TOOLS_LIST) }), TOOLS_LIST);
    assert.ok(plainRequest({ headers: { ...HEADERS, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(CALL) }));
  });

  const longWay: [string, Record<string, string | undefined>, string][] = [
    ['Accept without text/event-stream', { ...HEADERS, accept: 'application/json' }, JSON.stringify(CALL)],
    ['no Accept', { ...HEADERS, accept: undefined }, JSON.stringify(CALL)],
    ['a Content-Type other than JSON', { ...HEADERS, 'content-type': 'text/plain' }, JSON.stringify(CALL)],
    ['an unsupported protocol version', { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }, JSON.stringify(CALL)],
    ['a body that is no JSON', HEADERS, '{"jsonrpc":'],
    ['a batch', HEADERS, JSON.stringify([CALL])],
    ['no JSON-RPC message', HEADERS, JSON.stringify({ hello: 'world' })],
    ['a notification', HEADERS, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })],
    ['initialize', HEADERS, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })],
  ];
  for (const [what, headers, body] of longWay) {
    test(`${what}: the SDK's transport answers`, () => assert.equal(plainRequest({ headers, body }), undefined));
  }

  // Common requests are checked by hand, others by the SDK's schema: the answer is the schema's either way.
  const bodies: unknown[] = [
    CALL,
    { jsonrpc: '2.0', id: 'a', method: 'ping' },
    { jsonrpc: '2.0', id: 0, method: 'tools/list', params: {} },
    { jsonrpc: '2.0', id: -3, method: 'tools/call', params: { name: 'x', arguments: { a: [1, { b: null }] }, other: true } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 'p' } } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 1.5 } } },
    { jsonrpc: '2.0', id: 1.5, method: 'ping' },
    { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' },
    { jsonrpc: '2.0', id: null, method: 'ping' },
    { jsonrpc: '2.0', method: 'ping' },
    { jsonrpc: '1.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 1, method: 7 },
    { jsonrpc: '2.0', id: 1, method: 'ping', extra: 1 },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: null },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: [1] },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: 'x' },
  ];
  for (const body of bodies) {
    test(`${JSON.stringify(body)}: as JSONRPCRequestSchema parses it`, () => {
      const parsed = JSONRPCRequestSchema.safeParse(body);
      assert.deepEqual(plainRequest({ headers: HEADERS, body: JSON.stringify(body) }), parsed.success ? parsed.data : undefined);
    });
  }
});

describe('shortToolCall: which tool calls skip the SDK\'s McpServer', () => {
  const server = createMcpServer({} as never); // deciding calls no tool, so no client is needed
  const call = (params: object) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) as unknown as JSONRPCRequest;
  test('a known tool with arguments its schema accepts (defaults applied)', () => {
    assert.equal(typeof shortToolCall(server, CALL as JSONRPCRequest), 'function');
    assert.equal(typeof shortToolCall(server, call({ name: 'get_supported_shipping_lines' })), 'function');
    assert.equal(typeof shortToolCall(server, call({ name: 'get_container', arguments: { id: '00000000-0000-4000-8000-000000000000' } })), 'function');
  });
  const sdkWay: [string, JSONRPCRequest][] = [
    ['another method', TOOLS_LIST as JSONRPCRequest],
    ['an unknown tool', call({ name: 'no_such_tool', arguments: {} })],
    ['arguments the schema refuses', call({ name: 'get_container', arguments: { id: 'x' } })],
    ['an argument the schema does not declare', call({ name: 'get_container', arguments: { id: '00000000-0000-4000-8000-000000000000', other: 1 } })],
    ['arguments that are no object', call({ name: 'get_container', arguments: ['x'] })],
    ['a task', call({ name: 'get_supported_shipping_lines', task: { ttl: 1 } })],
    ['_meta', call({ name: 'get_supported_shipping_lines', _meta: { progressToken: 1 } })],
    ['no name', call({ arguments: {} })],
  ];
  for (const [what, request] of sdkWay) test(`${what}: the SDK answers`, () => assert.equal(shortToolCall(server, request), undefined));
});

describe('the short way answers as the long way does', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ beforeListen: (app, origin) => mountMcp(app, { SVC_API_BASE_URL: undefined, SVC_API_TOKEN: undefined, SVC_MCP_ALLOWED_HOSTS: [], SVC_MCP_ALLOWED_ORIGINS: [] }, '127.0.0.1', () => `${origin()}/v2`) });
  });
  after(() => t.close());

  // Tool calls past the SDK's McpServer (tool-call.ts) and those left to it: an unknown tool,
  // arguments the tool's schema refuses, arguments that are no object, a task, _meta, no arguments.
  const call = (id: number, params: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });
  const messages: { jsonrpc: string; id: number | string; method: string; params?: object }[] = [
    TOOLS_LIST,
    CALL,
    { jsonrpc: '2.0', id: 'p', method: 'ping' },
    call(3, { name: 'no_such_tool', arguments: {} }),
    call(4, { name: 'get_container', arguments: { id: 'not-a-uuid' } }),
    call(5, { name: 'get_container', arguments: { id: '00000000-0000-4000-8000-000000000000', include: ['cargo'] } }),
    call(6, { name: 'get_supported_shipping_lines', arguments: ['MAEU'] }),
    call(7, { name: 'get_supported_shipping_lines', arguments: { search: 'MAEU' }, _meta: { progressToken: 1 } }),
    call(8, { name: 'get_supported_shipping_lines', arguments: { search: 'MAEU' }, task: { ttl: 1000 } }),
    call(9, { name: 'get_supported_shipping_lines' }),
    call(10, { name: 'get_supported_shipping_lines', arguments: { search: 'MAEU', intent: 'which line is MAEU', unknown: 1 } }),
  ];
  for (const message of messages) {
    test(`${message.method} ${JSON.stringify(message.params ?? {})}`, async () => {
      const headers = { authorization: `Bearer ${t.key}` };
      const short = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers, body: message });
      const long = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers, body: [message] });
      assert.equal(short.status, 200, long.text);
      assert.equal(long.status, 200, long.text);
      assert.equal(short.headers['content-type'], long.headers['content-type']);
      assert.deepEqual(short.body, long.body);
    });
  }
});
