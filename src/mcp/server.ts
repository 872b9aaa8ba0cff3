// The MCP server's definition: svc's tools, prompts and resources for AI assistants. It is a
// client of svc's REST API through the SDK (never svc's services or store), so one MCP server
// can serve any svc, and every call obeys the REST API's rules, account scope and rate limits.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { SvcClient } from '../../sdk/src/index.ts';
import { DirectTransport } from './direct-transport.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { registerContainerTools } from './tools/containers.ts';
import { registerListTools } from './tools/lists.ts';
import { registerRouteTool } from './tools/route.ts';
import { registerSearchTool } from './tools/search.ts';
import { registerShipmentTools } from './tools/shipments.ts';
import { registerShippingLineTools } from './tools/shipping-lines.ts';
import { registerTrackTool } from './tools/track.ts';
import { shortToolCall } from './tool-call.ts';

export const MCP_SERVER_INFO = { name: 'svc-mcp', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'svc tracks ocean containers, bills of lading and bookings for this API key\'s account. Start with search_container for a number the user gives ' +
  '(track_container when it is not tracked yet), then get_container or get_shipment_details with the ids found. ' +
  'svc://docs/mcp-query-guidance says which tool answers which question; svc://docs/milestone-glossary explains statuses and events.';

/** A new server for one caller: `client` carries the caller's API key. */
export function createMcpServer(client: SvcClient): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} }, instructions: INSTRUCTIONS });
  registerSearchTool(server, client);
  registerTrackTool(server, client);
  registerContainerTools(server, client);
  registerShipmentTools(server, client);
  registerShippingLineTools(server, client);
  registerRouteTool(server, client);
  registerListTools(server, client);
  registerPrompts(server, client);
  registerResources(server, client);
  return server;
}

interface Lendable {
  server: McpServer;
  /** The caller whose key the server's tools use, for one request; undefined between requests. */
  lend(client: SvcClient | undefined): void;
}

interface Connected extends Lendable {
  transport: DirectTransport;
}

/** A server whose tools reach REST through whichever client it is lent to. */
function lendableServer(): Lendable {
  let current: SvcClient | undefined;
  const client = new Proxy({} as SvcClient, {
    get: (_target, member) => {
      if (!current) throw new Error('an MCP server was used outside a request');
      return Reflect.get(current, member, current);
    },
  });
  return { server: createMcpServer(client), lend: (c) => void (current = c) };
}

async function connectedServer(): Promise<Connected> {
  const lendable = lendableServer();
  const transport = new DirectTransport();
  await lendable.server.connect(transport);
  return { ...lendable, transport };
}

/**
 * Servers for stateless HTTP, each serving one request at a time and kept for the next. Building
 * one (ten tools, three prompts, four resources and their schemas) costs more CPU than the REST
 * call behind a tool, so a closed server is lent again, with the next caller's client, rather
 * than built anew for every POST.
 */
export class McpServerPool {
  private readonly idle: Lendable[] = [];
  /** Servers that stay connected to a DirectTransport, for `answer`. */
  private readonly connected: Connected[] = [];
  constructor(private readonly keep = 64) {}

  /** One plain JSON-RPC request (direct-transport.ts) answered by a pooled, connected server. */
  async answer(client: SvcClient, request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    const lendable = this.connected.pop() ?? (await connectedServer());
    lendable.lend(client);
    let reusable = true;
    try {
      const call = shortToolCall(lendable.server, request);
      // The SDK's own order of members, so the answer's text is the same either way.
      if (call) return { result: await call(), jsonrpc: '2.0', id: request.id };
      return await lendable.transport.answer(request, extra);
    } catch (err) {
      reusable = false;
      throw err;
    } finally {
      lendable.lend(undefined);
      if (reusable && this.connected.length < this.keep) this.connected.push(lendable);
      else await lendable.server.close();
    }
  }

  async serve<T>(client: SvcClient, handle: (server: McpServer) => Promise<T>): Promise<T> {
    const lendable = this.idle.pop() ?? lendableServer();
    lendable.lend(client);
    try {
      return await handle(lendable.server);
    } finally {
      await lendable.server.close();
      lendable.lend(undefined);
      if (this.idle.length < this.keep) this.idle.push(lendable);
    }
  }
}
