// One way to register a tool, so every tool gets the same things: the optional `intent`
// parameter and no undeclared ones, annotations, an output schema its answers are typed against,
// and the conversion of whatever it throws into an error result (tool-result.ts). Each tool is also kept where the
// short way for a plain tools/call (tool-call.ts) finds it, with the same schemas and handler.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorResult, toolResult } from '../tool-result.ts';
import { keepTool } from '../tool-call.ts';

/** Accepted by every tool and ignored: assistants often say why they call, and refusing it would fail the call. */
const intent = z.string().max(200).optional().describe('Optional: why you are calling this tool, in a sentence (not used to answer)');

type Args<I extends z.ZodRawShape> = z.output<z.ZodObject<I>>;

/** An answer: a short summary for the conversation and the structured data. */
export interface Answer<O extends z.ZodRawShape> {
  summary: string;
  data: z.input<z.ZodObject<O>>;
}

export interface ToolSpec<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  title: string;
  description: string;
  input: I;
  output: O;
  /** Only track_container writes. */
  readOnly?: boolean;
  /** Words for a 404 about the record the arguments name, e.g. "No container with id …". */
  notFound?: (args: Args<I>) => string;
  run: (args: Args<I>) => Promise<Answer<O> | CallToolResult>;
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(server: McpServer, name: string, spec: ToolSpec<I, O>): void {
  const readOnly = spec.readOnly ?? true;
  const handler = async (args: Args<I>): Promise<CallToolResult> => {
    try {
      const answer = await spec.run(args);
      return 'content' in answer ? answer : toolResult(answer.summary, answer.data as Record<string, unknown>);
    } catch (err) {
      return errorResult(err, spec.notFound?.(args));
    }
  };
  // Object schemas made here, once, rather than by the SDK from shapes: the short way parses with the same ones.
  // Strict: an argument the tool does not declare (a misspelt name, a filter it lacks) is refused
  // by name rather than dropped, which would answer as if the assistant had not asked for it; its
  // JSON Schema then says additionalProperties: false.
  const input = z.strictObject({ ...spec.input, intent });
  const output = z.object(spec.output);
  keepTool(server, name, { input, output, handler: handler as (args: unknown) => Promise<CallToolResult> });
  server.registerTool(
    name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: input,
      outputSchema: output,
      annotations: { title: spec.title, readOnlyHint: readOnly, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    handler as never,
  );
}

/** A path id: any UUID form svc hands out. */
export const idParam = (what: string) => z.guid().describe(`The ${what}'s id (a UUID from another tool's answer)`);
