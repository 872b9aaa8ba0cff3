// MCP for tests: svc's own /mcp mount on a test app, the SDK's own Client over streamable HTTP,
// and plain HTTP requests to an MCP endpoint with full control of Host, Origin and Authorization
// (node:http sends any Host).
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { mountMcp } from '../../src/main/mcp.ts';
import { createApiKey, generateApiKey } from '../../src/services/api-keys.ts';
import { startTestApp, type TestApp } from './app.ts';

/**
 * A `beforeListen` for startTestApp (and the tracking harness) that mounts MCP at /mcp and
 * /api/mcp as svc serve does, REST reached in memory; `fallbackToken` plays SVC_API_TOKEN.
 */
export const withMcp =
  (fallbackToken?: string) =>
  (app: FastifyInstance, origin: () => string): PromiseLike<unknown> =>
    mountMcp(app, { SVC_API_BASE_URL: undefined, SVC_API_TOKEN: fallbackToken, SVC_MCP_ALLOWED_HOSTS: [], SVC_MCP_ALLOWED_ORIGINS: [] }, '127.0.0.1', () => `${origin()}/v2`);

export interface McpConnection {
  client: Client;
  /** The MCP endpoint the client talks to. */
  url: string;
  close(): Promise<void>;
}

/** The SDK's Client connected to `t`'s /mcp (mounted with withMcp), acting with `key` (default: the first account's). */
export async function connectMcp(t: Pick<TestApp, 'baseUrl' | 'key'>, options: { key?: string } = {}): Promise<McpConnection> {
  const url = `${t.baseUrl}/mcp`;
  const client = await mcpClient(url, { authorization: `Bearer ${options.key ?? t.key}` });
  return { client, url, close: () => client.close() };
}

export interface McpUnderTest {
  /** The endpoint's full URL, ending in /mcp. */
  url: string;
}

/**
 * A real svc on a fresh database with MCP on its own port, whose SVC_API_TOKEN is a key of the
 * first account: tools such as the conformance suite send no Authorization header.
 */
export async function startSvcWithMcp(): Promise<{ app: TestApp; mcp: McpUnderTest; close(): Promise<void> }> {
  const envKey = generateApiKey();
  const app = await startTestApp({ beforeListen: withMcp(envKey) });
  await createApiKey(app.db, app.accountId, 'SVC_API_TOKEN', envKey);
  return { app, mcp: { url: `${app.baseUrl}/mcp` }, close: () => app.close() };
}

/** A connected (initialized) MCP client of `url`, sending `headers` on every request. */
export async function mcpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export interface PlainResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/** The JSON-RPC body of a tools/list request. */
export const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

/** One HTTP request to an MCP endpoint; a POST carries the headers MCP asks for unless overridden. */
export function mcpHttpRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<PlainResponse> {
  const method = options.method ?? 'POST';
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    ...(method === 'POST' ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
