// The SDK client the MCP server calls REST with, one per caller's key.
import { SvcClient } from '../../sdk/src/index.ts';

/**
 * A REST 429 asking for a longer wait than maxRetryDelayMs comes back at once as the tool's error
 * (the model can tell the user), rather than holding the MCP request open for up to a minute.
 */
const MCP_CLIENT_OPTIONS = { timeoutMs: 20_000, maxRetries: 1, maxRetryDelayMs: 1_000 } as const;

export function restClient(baseUrl: string, token: string, fetch?: typeof globalThis.fetch): SvcClient {
  return new SvcClient({ ...MCP_CLIENT_OPTIONS, baseUrl, token, ...(fetch ? { fetch } : {}) });
}
