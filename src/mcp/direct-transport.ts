// The cheap way into a pooled MCP server for the common POST: one JSON-RPC request (a tool call,
// a list, a read) answered with one JSON response. The SDK's web-standard transport is built for
// every case (batches, SSE streams, sessions) and, being stateless, must be created, connected
// and closed for each request, with a web Request in and a web Response out; that cost as much
// CPU as the REST call behind a tool. Here a server stays connected to one transport for its
// whole life in the pool, and a request is a message handed to it and the answer it sends back.
// Whatever is not plainly such a request goes the SDK's way (http.ts decides), so every answer
// to a malformed or unusual request is still the SDK's own.
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  JSONRPCRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { memoize } from '../domain/memoize.ts';
import { parsedJson } from './json-body.ts';

// A client sends the same Content-Type every time: each is parsed once (bounded: clients choose them).
const jsonContentType = memoize(isJsonContentType, 1_000);

/** The web-standard transport's own bound on a body (DEFAULT_MAX_REQUEST_BODY_SIZE, 4 MiB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface PostedRequest {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body's JSON when the caller parsed it already (`value` undefined: it is not JSON). */
  json?: { value: unknown };
}

/**
 * The JSON-RPC request a POST carries, when it is one the web-standard transport would hand to
 * the server as it is and answer with one JSON response: Accept and Content-Type as it demands,
 * a single, valid, non-initialize request and a supported MCP-Protocol-Version (or none).
 * Undefined for anything else, which that transport then answers itself.
 */
export function plainRequest({ headers, body, json }: PostedRequest): JSONRPCRequest | undefined {
  const accept = headers.accept;
  if (typeof accept !== 'string' || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  const contentType = headers['content-type'];
  if (typeof contentType !== 'string' || !jsonContentType(contentType)) return undefined;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
  if (body.length > MAX_BODY_BYTES / 3 && Buffer.byteLength(body) > MAX_BODY_BYTES) return undefined;
  const raw = (json ?? parsedJson(body)).value;
  if (raw === undefined || Array.isArray(raw)) return undefined;
  // The request schema is the first of the message union the SDK's transport parses with, so a
  // body it accepts is one the transport would take as this request; one parse, not two.
  const request = commonRequest(raw) ?? schemaRequest(raw);
  // Initialization (valid or not) is left to the SDK's transport, which has rules of its own for it.
  if (!request || request.method === 'initialize') return undefined;
  return request;
}

function schemaRequest(raw: unknown): JSONRPCRequest | undefined {
  const parsed = JSONRPCRequestSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The request as JSONRPCRequestSchema parses it, checked by hand, for the common shape only:
 * `jsonrpc`, `id`, `method` and `params` without `_meta` (whose schema has more to check). The
 * schema's parse cost a tenth of what MCP adds to a tool's REST call. Anything else is undefined
 * and goes to the schema, so what is accepted, refused and returned stays the schema's.
 */
function commonRequest(raw: unknown): JSONRPCRequest | undefined {
  if (!isPlainObject(raw) || raw.jsonrpc !== '2.0' || typeof raw.method !== 'string') return undefined;
  const id = raw.id;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  for (const name of Object.keys(raw)) if (!REQUEST_MEMBERS.has(name)) return undefined;
  if (!('params' in raw)) return { jsonrpc: '2.0', id: id as RequestId, method: raw.method };
  const params = raw.params;
  if (!isPlainObject(params) || '_meta' in params || Object.hasOwn(params, '__proto__')) return undefined;
  return { jsonrpc: '2.0', id: id as RequestId, method: raw.method, params: { ...params } };
}

/**
 * A server-side transport that carries one request at a time: `answer` hands the server a
 * request and resolves with the response it sends. Notifications the server sends meanwhile are
 * dropped, as the web-standard transport drops them when it answers with JSON.
 */
export class DirectTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private pending?: { id: RequestId; resolve: (message: JSONRPCMessage) => void; reject: (err: Error) => void };

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    const pending = this.pending;
    if (!pending || !('id' in message) || message.id !== pending.id || !('result' in message || 'error' in message)) return;
    this.pending = undefined;
    pending.resolve(message);
  }

  async close(): Promise<void> {
    this.pending?.reject(new Error('the MCP server closed before answering'));
    this.pending = undefined;
    this.onclose?.();
  }

  answer(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    if (this.pending) return Promise.reject(new Error('a DirectTransport carries one request at a time'));
    if (!this.onmessage) return Promise.reject(new Error('the DirectTransport is not connected'));
    const onmessage = this.onmessage;
    return new Promise((resolve, reject) => {
      this.pending = { id: request.id, resolve, reject };
      onmessage(request, extra);
    });
  }
}
