// The short way for a plain tools/call, beside the SDK's. The SDK's McpServer answers a call
// through its whole request machinery: the message type tested against three schemas, an abort
// controller and context per request, the request parsed three times, the arguments parsed
// asynchronously, the structured content checked asynchronously field by field, and the result
// parsed again into a copy. For svc's tools, whose answers are built from typed views, that was a
// fifth of what MCP adds to the REST call behind a tool. Here a call whose arguments the tool's
// own input schema accepts (a compiled check for the plain schemas most tools have,
// input-check.ts) runs the tool's handler directly; its structured content is still
// checked against the output schema, synchronously, by a validator compiled for it
// (output-check.ts). Anything else (an unknown tool, arguments
// the schema refuses, a task or _meta in the request) is left to the SDK, so every error answer
// stays the SDK's own.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { getParseErrorMessage } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode, McpError, type CallToolResult, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { compiledInputParse, type InputParse } from './input-check.ts';
import { compiledCheck, type CompiledCheck } from './output-check.ts';

export interface KeptTool {
  input: z.ZodObject;
  output: z.ZodObject;
  /** Never throws: a failure is an error result (define.ts). */
  handler: (args: unknown) => Promise<CallToolResult>;
  /** The output schema's compiled check, made on the tool's first short call (null: there is none). */
  outputCheck?: CompiledCheck | null;
  /** The input schema's short parse, made on the tool's first short call (null: zod parses). */
  inputParse?: InputParse | null;
}

const kept = new WeakMap<McpServer, Map<string, KeptTool>>();

/** Called by defineTool for each tool it registers on `server`. */
export function keepTool(server: McpServer, name: string, tool: KeptTool): void {
  let tools = kept.get(server);
  if (!tools) kept.set(server, (tools = new Map()));
  tools.set(name, tool);
}

/** The tools kept for `server`, by name (tests read their schemas). */
export function keptTools(server: McpServer): ReadonlyMap<string, KeptTool> {
  return kept.get(server) ?? new Map();
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The call `request` makes of one of `server`'s tools, ready to run, when the short way may take
 * it; undefined when the SDK should answer. Deciding runs nothing: the tool runs when the
 * returned function is called.
 */
export function shortToolCall(server: McpServer, request: JSONRPCRequest): (() => Promise<CallToolResult>) | undefined {
  if (request.method !== 'tools/call') return undefined;
  const params = request.params;
  // What the SDK's CallToolRequestSchema accepts, less the members only the SDK acts on.
  if (!isPlainObject(params) || typeof params.name !== 'string' || params.task !== undefined || params._meta !== undefined) return undefined;
  const args = params.arguments ?? {};
  if (!isPlainObject(args)) return undefined;
  const tool = kept.get(server)?.get(params.name);
  if (!tool) return undefined;
  if (tool.inputParse === undefined) tool.inputParse = compiledInputParse(tool.input) ?? null;
  let parsed = tool.inputParse?.(args);
  if (parsed === undefined) {
    const zodParsed = tool.input.safeParse(args);
    if (!zodParsed.success) return undefined;
    parsed = zodParsed.data;
  }
  const name = params.name;
  return async () => {
    const result = await tool.handler(parsed);
    if (result.isError) return result;
    if (tool.outputCheck === undefined) tool.outputCheck = compiledCheck(tool.output) ?? null;
    if (tool.outputCheck?.(result.structuredContent)) return result;
    const checked = tool.output.safeParse(result.structuredContent);
    if (checked.success) return result;
    // As McpServer answers a tool whose structured content breaks its output schema.
    const error = new McpError(ErrorCode.InvalidParams, `Output validation error: Invalid structured content for tool ${name}: ${getParseErrorMessage(checked.error)}`);
    return { content: [{ type: 'text', text: error.message }], isError: true };
  };
}
