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

/**
 * How a pooled server reaches REST: one SDK client for the server's whole life, and the key of
 * the request it serves set on it for that request alone (http.ts keyedClient). Making a client
 * per request cost more than the JSON-RPC work around a tool call; a key kept between requests
 * would sit in the heap for nothing.
 */
export interface KeyedClient {
  client: SvcClient;
  /** The API key the client's requests carry from now on; undefined between requests (they then fail). */
  use(token: string | undefined): void;
}

/** A pooled server's client, made for the REST base it is given (read per request, see http.ts). */
export type KeyedClientFactory = (baseUrl: string) => KeyedClient;

interface Lendable {
  server: McpServer;
  /** The REST base its client was made for. */
  baseUrl: string;
  /** The key of the request the server serves; undefined between requests. */
  lend(token: string | undefined): void;
}

interface Connected extends Lendable {
  transport: DirectTransport;
}

function lendableServer(clientFor: KeyedClientFactory, baseUrl: string): Lendable {
  const keyed = clientFor(baseUrl);
  return { server: createMcpServer(keyed.client), baseUrl, lend: keyed.use };
}

async function connectedServer(clientFor: KeyedClientFactory, baseUrl: string): Promise<Connected> {
  const lendable = lendableServer(clientFor, baseUrl);
  const transport = new DirectTransport();
  await lendable.server.connect(transport);
  return { ...lendable, transport };
}

/**
 * Servers for stateless HTTP, each serving one request at a time and kept for the next. Building
 * one (ten tools, three prompts, four resources and their schemas) costs more CPU than the REST
 * call behind a tool, so a closed server is lent again, with the next caller's key, rather than
 * built anew for every POST.
 */
export class McpServerPool {
  private readonly idle: Lendable[] = [];
  /** Servers that stay connected to a DirectTransport, for `answer`. */
  private readonly connected: Connected[] = [];
  constructor(
    private readonly clientFor: KeyedClientFactory,
    private readonly keep = 64,
  ) {}

  /** A kept server made for `baseUrl`, if there is one (those made for another base are dropped). */
  private static reuse<T extends Lendable>(kept: T[], baseUrl: string): T | undefined {
    for (let lendable = kept.pop(); lendable; lendable = kept.pop()) {
      if (lendable.baseUrl === baseUrl) return lendable;
      void lendable.server.close();
    }
    return undefined;
  }

  /**
   * One plain JSON-RPC request (direct-transport.ts) answered by a pooled, connected server with
   * `token`'s rights. `extra` is asked for only when the SDK's McpServer answers (a short tool call has no use for it).
   */
  async answer(baseUrl: string, token: string, request: JSONRPCRequest, extra: () => MessageExtraInfo): Promise<JSONRPCMessage> {
    const lendable = McpServerPool.reuse(this.connected, baseUrl) ?? (await connectedServer(this.clientFor, baseUrl));
    lendable.lend(token);
    let reusable = true;
    try {
      const call = shortToolCall(lendable.server, request);
      // The SDK's own order of members, so the answer's text is the same either way.
      if (call) return { result: await call(), jsonrpc: '2.0', id: request.id };
      return await lendable.transport.answer(request, extra());
    } catch (err) {
      reusable = false;
      throw err;
    } finally {
      lendable.lend(undefined);
      if (reusable && this.connected.length < this.keep) this.connected.push(lendable);
      else await lendable.server.close();
    }
  }

  async serve<T>(baseUrl: string, token: string, handle: (server: McpServer) => Promise<T>): Promise<T> {
    const lendable = McpServerPool.reuse(this.idle, baseUrl) ?? lendableServer(this.clientFor, baseUrl);
    lendable.lend(token);
    try {
      return await handle(lendable.server);
    } finally {
      await lendable.server.close();
      lendable.lend(undefined);
      if (this.idle.length < this.keep) this.idle.push(lendable);
    }
  }
}
