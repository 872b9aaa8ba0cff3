// MCP over streamable HTTP on svc's own port (/mcp, /api/mcp): the SDK's own client against a
// real svc, authentication, Host and Origin checks, CORS, methods, rate limits and logs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { pino } from 'pino';
import { mountMcp, type McpSettings } from '../src/main/mcp.ts';
import { INVALID_TOKEN, KeyCache, MISSING_TOKEN } from '../src/mcp/auth.ts';
import { mcpHttp } from '../src/mcp/http.ts';
import { listApiKeys, revokeApiKey } from '../src/store/accounts.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { captureLogs } from './support/log-capture.ts';
import { mcpClient, mcpHttpRequest, TOOLS_LIST } from './support/mcp.ts';
import { freePort, serveDatabase, startMcp, startServe, stopServe } from './support/svc-process.ts';

const logs = captureLogs();
let t: TestApp;
/** The key svc falls back to for requests without Authorization (SVC_API_TOKEN). */
let envKey: string;
const settings: McpSettings = { SVC_API_BASE_URL: undefined, SVC_API_TOKEN: undefined, SVC_MCP_ALLOWED_HOSTS: [], SVC_MCP_ALLOWED_ORIGINS: [] };
const invalidKey = 'svc_not-a-real-key-0123456789abcdef';
const used: string[] = [invalidKey];

before(async () => {
  t = await startTestApp({
    loggerInstance: pino({ level: 'trace' }, logs.stream),
    beforeListen: (app, origin) => mountMcp(app, settings, '127.0.0.1', () => `${origin()}/v2`),
  });
  envKey = (await t.newAccount('Env account')).key;
  used.push(t.key, envKey);
});
after(() => t.close());

/** Connects, lists the tools and calls the shipping-line tool; its structured answer as JSON text (the shape is the tools' business). */
const callLines = async (url: string, headers: Record<string, string>) => {
  const client = await mcpClient(url, headers);
  try {
    const tools = await client.listTools();
    assert.ok(tools.tools.some((tool) => tool.name === 'get_supported_shipping_lines'));
    const result = await client.callTool({ name: 'get_supported_shipping_lines', arguments: { search: 'MAEU' } });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const text = JSON.stringify(result.structuredContent);
    assert.match(text, /"MAEU"/); // from svc's reference data, through REST
    return text;
  } finally {
    await client.close();
  }
};

describe('on svc own port', () => {
  for (const path of ['/mcp', '/api/mcp']) {
    test(`initialize, tools/list and tools/call at ${path} (Bearer)`, async () => {
      await callLines(t.baseUrl + path, { authorization: `Bearer ${t.key}` });
    });
  }

  test('Authorization: Token works as well', async () => {
    await callLines(`${t.baseUrl}/mcp`, { authorization: `Token ${t.key}` });
  });

  test('the answer carries the request id like every svc response', async () => {
    const res = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: { authorization: `Bearer ${t.key}` }, body: TOOLS_LIST });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['x-request-id']), /\S/);
    assert.ok(res.body.result.tools.length >= 1);
  });
});

describe('authentication', () => {
  test('no header and no SVC_API_TOKEN: 401 with a Bearer challenge', async () => {
    const app = await standalone({});
    try {
      const res = await mcpHttpRequest(`${app.url}/mcp`, { body: TOOLS_LIST });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'Unauthorized', message: MISSING_TOKEN });
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="mcp"');
    } finally {
      await app.close();
    }
  });

  test('no header: SVC_API_TOKEN is used (over HTTP too)', async () => {
    const app = await standalone({ fallbackToken: envKey });
    try {
      await callLines(`${app.url}/mcp`, {});
    } finally {
      await app.close();
    }
  });

  test('a header of another scheme is not replaced by SVC_API_TOKEN: 401', async () => {
    const app = await standalone({ fallbackToken: envKey });
    try {
      const res = await mcpHttpRequest(`${app.url}/mcp`, { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, body: TOOLS_LIST });
      assert.equal(res.status, 401);
      assert.equal(res.body.message, MISSING_TOKEN);
    } finally {
      await app.close();
    }
  });

  test('a key svc does not know: 401 invalid_token', async () => {
    for (const scheme of ['Bearer', 'Token']) {
      const res = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: { authorization: `${scheme} ${invalidKey}` }, body: TOOLS_LIST });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'Unauthorized', message: INVALID_TOKEN });
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="mcp", error="invalid_token"');
    }
  });

  test('a key revoked after it was used is refused at the next request: svc serve reads the key with every count', async () => {
    const { accountId, key } = await t.newAccount('Revoked later');
    used.push(key);
    const client = await mcpClient(`${t.baseUrl}/mcp`, { authorization: `Bearer ${key}` });
    try {
      assert.notEqual((await client.callTool({ name: 'get_supported_shipping_lines', arguments: {} })).isError, true);
      const [row] = await listApiKeys(t.db, accountId);
      await revokeApiKey(t.db, row.id, new Date());
      await assert.rejects(client.callTool({ name: 'get_supported_shipping_lines', arguments: {} }), (err: Error & { code?: number }) => err.code === 401);
    } finally {
      await client.close();
    }
    const res = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: { authorization: `Bearer ${key}` }, body: TOOLS_LIST });
    assert.equal(res.status, 401);
    assert.equal(res.body.message, INVALID_TOKEN);
  });

  test('REST unreachable: 502 JSON', async () => {
    const port = await freePort();
    const app = await standalone({ apiBaseUrl: `http://127.0.0.1:${port}/v2` });
    try {
      const res = await mcpHttpRequest(`${app.url}/mcp`, { headers: { authorization: `Bearer ${t.key}` }, body: TOOLS_LIST });
      assert.equal(res.status, 502);
      assert.equal(res.body.error, 'Bad Gateway');
      assert.match(res.body.message, /could not be reached/);
    } finally {
      await app.close();
    }
  });
});

describe('Host and Origin', () => {
  const post = (headers: Record<string, string>) => mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: { authorization: `Bearer ${t.key}`, ...headers }, body: TOOLS_LIST });

  test('bound to loopback: a foreign Host is refused (DNS rebinding), loopback names on any port pass', async () => {
    const refused = await post({ host: 'evil.example:8080' });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { error: 'Forbidden', message: 'Invalid Host header: evil.example:8080' });
    for (const host of ['localhost:1234', '127.0.0.1', '[::1]:80', 'LOCALHOST']) assert.equal((await post({ host })).status, 200, host);
  });

  test('a foreign Origin is refused; loopback origins and requests without Origin pass', async () => {
    const refused = await post({ origin: 'https://evil.example' });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { error: 'Forbidden', message: 'Invalid Origin header: https://evil.example' });
    assert.equal((await post({ origin: 'null' })).status, 403);
    const local = await post({ origin: 'http://localhost:6274' });
    assert.equal(local.status, 200);
    assert.equal(local.headers['access-control-allow-origin'], 'http://localhost:6274');
    assert.equal((await post({})).headers['access-control-allow-origin'], '*');
  });

  test('allowlists replace the defaults', async () => {
    const app = await standalone({ fallbackToken: envKey, allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] });
    try {
      const at = (headers: Record<string, string>) => mcpHttpRequest(`${app.url}/mcp`, { headers, body: TOOLS_LIST });
      assert.equal((await at({ host: 'mcp.example.com:443', origin: 'https://app.example.com' })).status, 200);
      assert.equal((await at({ host: 'mcp.example.com' })).status, 200);
      const host = await at({});
      assert.equal(host.status, 403); // 127.0.0.1:port is not listed
      assert.match(host.body.message, /^Invalid Host header: 127\.0\.0\.1:\d+$/);
      const origin = await at({ host: 'mcp.example.com', origin: 'http://localhost:3000' });
      assert.equal(origin.status, 403);
      assert.equal(origin.body.message, 'Invalid Origin header: http://localhost:3000');
    } finally {
      await app.close();
    }
  });

  test('bound to all interfaces without an allowlist: any Host', async () => {
    const app = await standalone({ fallbackToken: envKey, boundHost: '0.0.0.0' });
    try {
      assert.equal((await mcpHttpRequest(`${app.url}/mcp`, { headers: { host: 'mcp.example.com' }, body: TOOLS_LIST })).status, 200);
    } finally {
      await app.close();
    }
  });
});

describe('methods and CORS', () => {
  test('OPTIONS preflight: 204 with the CORS headers', async () => {
    const res = await mcpHttpRequest(`${t.baseUrl}/api/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:6274');
    assert.equal(res.headers['access-control-allow-methods'], 'POST, OPTIONS');
    assert.equal(res.headers['access-control-allow-headers'], 'Content-Type, Authorization, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID');
    const foreign = await mcpHttpRequest(`${t.baseUrl}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    assert.equal(foreign.status, 403);
  });

  for (const method of ['GET', 'DELETE', 'PUT']) {
    test(`${method}: 405, POST only`, async () => {
      const res = await mcpHttpRequest(`${t.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${t.key}` } });
      assert.equal(res.status, 405);
      assert.deepEqual(res.body, { error: 'Method not allowed', message: 'Only POST requests are accepted' });
      assert.equal(res.headers.allow, 'POST, OPTIONS');
    });
  }

  test('a body that is not JSON: a JSON-RPC parse error, and the server carries on', async () => {
    const res = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: { authorization: `Bearer ${t.key}` }, body: '{"jsonrpc": "2.0", ' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, -32700);
    const wrongType = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: { authorization: `Bearer ${t.key}`, 'content-type': 'text/plain' }, body: TOOLS_LIST });
    assert.equal(wrongType.status, 415);
    assert.equal((await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: { authorization: `Bearer ${t.key}` }, body: TOOLS_LIST })).status, 200);
  });
});

describe('rate limits: MCP traffic is REST traffic of the same key', () => {
  const exhaust = async (key: string) => {
    for (let i = 0; i < 120; i++) if ((await t.request('GET', '/v2/shipping_lines?search=none', { key })).status === 429) return;
    assert.fail('the REST limit never applied');
  };

  test('a key connected earlier and over its limit now: the tool call is refused with the limit named', async () => {
    const { key } = await t.newAccount('Busy');
    used.push(key);
    const client = await mcpClient(`${t.baseUrl}/mcp`, { authorization: `Bearer ${key}` });
    try {
      await exhaust(key);
      await assert.rejects(client.callTool({ name: 'get_supported_shipping_lines', arguments: {} }), (err: Error & { code?: number }) => err.code === 429 && /rate limit/i.test(err.message));
    } finally {
      await client.close();
    }
  });

  test('a key over its limit: HTTP 429 with Retry-After and a JSON-RPC error', async () => {
    const { key } = await t.newAccount('Busier');
    used.push(key);
    await exhaust(key);
    const res = await mcpHttpRequest(`${t.baseUrl}/mcp`, { headers: { authorization: `Bearer ${key}` }, body: TOOLS_LIST });
    assert.equal(res.status, 429);
    assert.match(String(res.headers['retry-after']), /^\d+$/);
    assert.equal(res.body.jsonrpc, '2.0');
    assert.equal(res.body.id, TOOLS_LIST.id);
    assert.match(res.body.error.message, /rate limit/i);
  });
});

describe('the key cache', () => {
  test('remembers accepted keys for its time, by digest, and holds a bounded number', () => {
    let now = 0;
    const cache = new KeyCache({ ttlMs: 30_000, maxEntries: 2, now: () => now });
    cache.remember('key-a');
    assert.equal(cache.has('key-a'), true);
    now = 29_999;
    assert.equal(cache.has('key-a'), true);
    now = 30_000;
    assert.equal(cache.has('key-a'), false);
    for (const k of ['k1', 'k2', 'k3']) cache.remember(k);
    assert.equal(cache.size, 2);
    assert.equal(cache.has('k1'), false); // the oldest went first
    assert.equal(cache.has('k3'), true);
    cache.forget('k3');
    assert.equal(cache.has('k3'), false);
    assert.doesNotMatch(JSON.stringify([...(cache as unknown as { until: Map<string, number> }).until.keys()]), /k2/);
  });
});

describe('as processes', () => {
  test('svc mcp: its own port, any svc by SVC_API_BASE_URL, at /, /mcp and /api/mcp', async () => {
    const mcp = await startMcp({ SVC_API_BASE_URL: t.baseUrl, SVC_API_TOKEN: '' });
    try {
      const origin = mcp.url.replace(/\/mcp$/, '');
      for (const path of ['/', '/mcp', '/api/mcp']) {
        await callLines(origin + path, { authorization: `Bearer ${t.key}` });
      }
      const missing = await mcpHttpRequest(mcp.url, { body: TOOLS_LIST });
      assert.equal(missing.status, 401);
      const other = await mcpHttpRequest(`${origin}/elsewhere`, { body: TOOLS_LIST });
      assert.equal(other.status, 404);
      assert.equal((await mcpHttpRequest(mcp.url, { method: 'GET' })).status, 405);
    } finally {
      mcp.child.kill('SIGINT');
      assert.equal(await mcp.exited, 0);
    }
    assert.ok(!mcp.stderr().includes(t.key));
  });

  test('svc mcp: SVC_API_TOKEN for requests without a header, allowlists from the environment', async () => {
    const mcp = await startMcp({ SVC_API_BASE_URL: `${t.baseUrl}/v2`, SVC_API_TOKEN: envKey, SVC_MCP_ALLOWED_HOSTS: 'mcp.example.com', SVC_MCP_ALLOWED_ORIGINS: 'https://app.example.com' });
    try {
      const ok = await mcpHttpRequest(mcp.url, { headers: { host: 'mcp.example.com', origin: 'https://app.example.com' }, body: TOOLS_LIST });
      assert.equal(ok.status, 200, ok.text);
      assert.equal((await mcpHttpRequest(mcp.url, { body: TOOLS_LIST })).status, 403);
    } finally {
      mcp.child.kill('SIGINT');
      await mcp.exited;
    }
  });

  test('svc serve answers MCP at /mcp on its own port', async () => {
    const database = await serveDatabase();
    const svc = await startServe({ DATABASE_URL: database.url });
    try {
      const key = /API key \(shown once, keep it\): (\S+)/.exec(svc.stderr())?.[1];
      assert.ok(key, svc.stderr());
      assert.match(svc.stderr(), new RegExp(`MCP server: ${svc.origin}/mcp`));
      await callLines(`${svc.origin}/mcp`, { authorization: `Bearer ${key}` });
    } finally {
      await stopServe(svc);
      await database.drop();
    }
  });
});

test('no API key appears in the logs', () => {
  assert.ok(logs.lines.length > 10, 'the app logged requests');
  assert.ok(logs.lines.some((l) => l.includes('/mcp')));
  for (const key of used) assert.ok(!logs.lines.some((l) => l.includes(key)), `a log line holds ${key.slice(0, 8)}…`);
});

/** The MCP plugin alone on a port of its own, against the test svc unless told otherwise. */
async function standalone(options: { fallbackToken?: string; apiBaseUrl?: string; allowedHosts?: string[]; allowedOrigins?: string[]; boundHost?: string }) {
  const app = Fastify({ loggerInstance: pino({ level: 'trace' }, logs.stream) });
  await app.register(mcpHttp, {
    paths: ['/', '/mcp'],
    apiBaseUrl: () => options.apiBaseUrl ?? `${t.baseUrl}/v2`,
    fallbackToken: options.fallbackToken,
    boundHost: options.boundHost ?? '127.0.0.1',
    allowedHosts: options.allowedHosts ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, close: () => app.close() };
}
