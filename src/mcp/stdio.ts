// MCP over stdio, for a desktop assistant that starts `svc mcp --stdio` itself: one server for the
// life of the process, with the key from the environment. stdout is the protocol channel, so
// everything else goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { KeyCache } from './auth.ts';
import { restClient } from './rest-client.ts';
import { createMcpServer } from './server.ts';

/** The key REST refuses: the assistant would only see failing tools, so svc mcp stops instead. */
export class InvalidTokenError extends Error {}

export interface StdioOptions {
  apiBaseUrl: string;
  token: string;
  /** A line for the person (stderr). */
  say: (msg: string) => void;
}

export async function serveStdio(options: StdioOptions): Promise<{ close(): Promise<void> }> {
  const client = restClient(options.apiBaseUrl, options.token);
  const check = await new KeyCache().check(options.token, client);
  if (!check.ok && check.status === 401) throw new InvalidTokenError(`svc at ${client.baseUrl} does not accept SVC_API_TOKEN (${check.message})`);
  // svc may be down or busy right now and up by the first tool call: start all the same.
  if (!check.ok) options.say(`warning: ${check.message}`);
  const server = createMcpServer(client);
  await server.connect(new StdioServerTransport());
  options.say(`MCP server on stdio, REST API ${client.baseUrl}`);
  return { close: () => server.close() };
}
