// MCP requests count against the key's rate limit, the REST API's default bucket (100 a minute):
// every JSON-RPC message, a batch as many as it holds, whether or not a tool calls REST. The
// test app's clock stands still, so nothing leaves the window while a test runs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { mcpHttp } from '../src/mcp/http.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { mcpClient, mcpHttpRequest, TOOLS_LIST, withMcp } from './support/mcp.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ beforeListen: withMcp() });
});
after(() => t.close());

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const toolsList = (id: number) => ({ ...TOOLS_LIST, id });
const batch = (n: number) => Array.from({ length: n }, (_, i) => toolsList(i + 1));

/** POSTs `n` tools/list requests one after the other; their statuses. */
async function listTimes(url: string, key: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await mcpHttpRequest(url, { headers: auth(key), body: toolsList(i + 1) })).status);
  return statuses;
}

/** The 429 MCP answers past the limit: Retry-After and a JSON-RPC error naming the request. */
function assertOverLimit(res: Awaited<ReturnType<typeof mcpHttpRequest>>, id: number | null) {
  assert.equal(res.status, 429, res.text);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${res.headers['retry-after']}`);
  assert.equal(res.body.jsonrpc, '2.0');
  assert.equal(res.body.id, id);
  assert.equal(typeof res.body.error.code, 'number');
  assert.match(res.body.error.message, /rate limit/);
}

describe('MCP in svc serve, counted by the REST limiter', () => {
  test('the 101st tools/list of a minute is a 429; another key is not affected', async () => {
    const a = await t.newAccount('Lists a lot');
    const b = await t.newAccount('Bystander');
    const statuses = await listTimes(`${t.baseUrl}/mcp`, a.key, 100);
    assert.deepEqual(new Set(statuses), new Set([200]));
    assertOverLimit(await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(a.key), body: toolsList(101) }), 101);
    // The same budget at /api/mcp and at REST.
    assert.equal((await mcpHttpRequest(`${t.baseUrl}/api/mcp`, { headers: auth(a.key), body: toolsList(102) })).status, 429);
    assert.equal((await t.request('GET', '/v2/account', { key: a.key })).status, 429);
    assert.equal((await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(b.key), body: toolsList(1) })).status, 200);
    assert.equal((await t.request('GET', '/v2/account', { key: b.key })).status, 200);
  });

  test('a batch of 100 uses 100: the next message, MCP or REST, is refused', async () => {
    const { key } = await t.newAccount('Batches');
    const res = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(key), body: batch(100) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.length, 100);
    assert.ok(res.body.every((answer: { result?: { tools?: unknown[] } }) => Array.isArray(answer.result?.tools)));
    assertOverLimit(await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(key), body: toolsList(1) }), 1);
    const rest = await t.request('GET', '/v2/account', { key });
    assert.equal(rest.status, 429);
  });

  test('a batch that does not fit is refused whole and counts nothing', async () => {
    const { key } = await t.newAccount('Half full');
    assert.deepEqual(new Set(await listTimes(`${t.baseUrl}/mcp`, key, 60)), new Set([200]));
    assertOverLimit(await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(key), body: batch(41) }), null);
    assert.equal((await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(key), body: batch(40) })).status, 200);
    assert.equal((await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(key), body: toolsList(1) })).status, 429);
  });

  test('REST and MCP share the budget: 98 REST requests, then the SDK client gets two messages in', async () => {
    const { key } = await t.newAccount('Mixed');
    for (let i = 0; i < 98; i++) assert.equal((await t.request('GET', '/v2/shipping_lines?page[size]=1', { key })).status, 200);
    // initialize and notifications/initialized: the 99th and 100th.
    const client = await mcpClient(`${t.baseUrl}/mcp`, auth(key));
    try {
      await assert.rejects(client.listTools(), (err: Error & { code?: number }) => err.code === 429);
    } finally {
      await client.close().catch(() => {});
    }
    assert.equal((await t.request('GET', '/v2/account', { key })).status, 429);
  });

  test('a batch of more than 100 messages or a body over 1 MiB is refused before anything is counted', async () => {
    const { key } = await t.newAccount('Oversized');
    const tooMany = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(key), body: batch(101) });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.error.code, -32600);
    const big = { ...toolsList(1), params: { padding: 'x'.repeat(1024 * 1024) } };
    assert.equal((await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(key), body: big })).status, 413);
    const res = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: auth(key), body: batch(100) });
    assert.equal(res.status, 200, res.text);
  });
});

describe('MCP as a REST client over HTTP (svc mcp)', () => {
  test('messages are counted in its own memory at the same limit, per key', async () => {
    const app = Fastify();
    await app.register(mcpHttp, { paths: ['/mcp'], apiBaseUrl: () => `${t.baseUrl}/v2`, boundHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
      const a = await t.newAccount('Standalone A');
      const b = await t.newAccount('Standalone B');
      assert.equal((await mcpHttpRequest(url, { headers: auth(a.key), body: batch(99) })).status, 200);
      assert.equal((await mcpHttpRequest(url, { headers: auth(a.key), body: toolsList(100) })).status, 200);
      assertOverLimit(await mcpHttpRequest(url, { headers: auth(a.key), body: toolsList(101) }), 101);
      assert.equal((await mcpHttpRequest(url, { headers: auth(b.key), body: toolsList(1) })).status, 200);
    } finally {
      await app.close();
    }
  });
});
