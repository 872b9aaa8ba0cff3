// What a tool answers: structured content with a short text summary and the same content as JSON
// text, or, when the call failed, an error result the assistant can read and act on. A failure
// never escapes as a protocol error: an assistant sees isError results in the conversation and
// can correct itself (another id, a SCAC, waiting out a rate limit), whereas a thrown error only
// ends its turn.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AuthenticationError, AuthorizationError, ConnectionError, NotFoundError, RateLimitError, ServerError, SvcError, ValidationError, type ApiErrorObject } from '../../sdk/src/index.ts';

/**
 * A successful answer: `structured` must match the tool's output schema. The MCP specification
 * asks a tool that returns structured content to return it serialised in a text block as well:
 * many clients hand the model only the text, and a summary alone has no ids to call the next tool
 * with, nor the fees, holds and local dates a question may be about.
 */
export function toolResult(summary: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: summary }, { type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** A failed call, in words for the assistant. */
export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** One JSON:API error as a sentence: its detail (else title) and where it points. */
function describe(error: ApiErrorObject): string {
  const where = error.source?.pointer ?? error.source?.parameter;
  const text = error.detail || error.title || 'error';
  return where ? `${text} (at ${where})` : text;
}

function details(err: SvcError): string {
  const listed = err.errors.map(describe);
  const text = listed.length > 0 ? listed.join('; ') : err.message;
  return err.requestId ? `${text} [request ${err.requestId}]` : text;
}

/**
 * The error result for anything a handler threw. `notFound` words a 404 for the record the tool
 * was asked about ("No container with id …"), since svc's own 404 does not say which record.
 */
export function errorResult(err: unknown, notFound?: string): CallToolResult {
  if (err instanceof NotFoundError) return toolError(notFound ? `${notFound} (svc answered 404: ${details(err)})` : `Not found: ${details(err)}`);
  if (err instanceof RateLimitError) {
    const wait = err.retryAfterSeconds === undefined ? 'in about a minute' : `in ${err.retryAfterSeconds} seconds`;
    return toolError(`svc's rate limit for this API key is reached: ${details(err)}. Retry ${wait}; do not repeat the call before then.`);
  }
  if (err instanceof ValidationError) return toolError(`svc refused the request (HTTP ${err.status}): ${details(err)}`);
  if (err instanceof AuthenticationError) return toolError(`svc did not accept the API key (HTTP 401): ${details(err)}`);
  if (err instanceof AuthorizationError) return toolError(`This API key may not do that (HTTP 403): ${details(err)}`);
  if (err instanceof ServerError) return toolError(`svc failed (HTTP ${err.status}): ${details(err)}. Try again later.`);
  if (err instanceof ConnectionError) return toolError(`svc could not be reached: ${err.message}`);
  if (err instanceof SvcError) return toolError(`svc answered HTTP ${err.status}: ${details(err)}`);
  return toolError(`The tool failed: ${err instanceof Error ? err.message : String(err)}`);
}
