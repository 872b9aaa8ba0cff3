// The SDK client the MCP server calls REST with: one per caller's key (stdio, key checks), or one
// per pooled server with the key of the request it serves set on each request (keyedClient).
import { SvcClient } from '../../sdk/src/index.ts';
import { inProcessSendOf, withInProcessSend } from '../../sdk/src/transport.ts';
import type { KeyedClient } from './server.ts';

/**
 * A REST 429 asking for a longer wait than maxRetryDelayMs comes back at once as the tool's error
 * (the model can tell the user), rather than holding the MCP request open for up to a minute.
 */
const MCP_CLIENT_OPTIONS = { timeoutMs: 20_000, maxRetries: 1, maxRetryDelayMs: 1_000 } as const;

export function restClient(baseUrl: string, token: string, fetch?: typeof globalThis.fetch): SvcClient {
  return new SvcClient({ ...MCP_CLIENT_OPTIONS, baseUrl, token, ...(fetch ? { fetch } : {}) });
}

const OUTSIDE_A_REQUEST = 'an MCP server was used outside a request';

/**
 * A client without a key of its own: each request it sends carries `Authorization: Token <key>`
 * of the key last given to `use`, and a 401 answer calls `refused` with that key (REST no longer
 * accepts it: the MCP layer forgets it). Either way the SDK sends (fetch, or svc serve's in-process
 * send), the header is added there, so the client and its method groups are made only once.
 */
export function keyedClient(baseUrl: string, send: typeof globalThis.fetch, refused: (token: string) => void): KeyedClient {
  let current: string | undefined;
  const keyOfRequest = () => {
    if (current === undefined) throw new Error(OUTSIDE_A_REQUEST);
    return current;
  };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const token = keyOfRequest();
    const request = new Request(input, init);
    request.headers.set('authorization', `Token ${token}`);
    const response = await send(request);
    if (response.status === 401) refused(token);
    return response;
  };
  const inProcess = inProcessSendOf(send);
  const keyed = !inProcess
    ? fetch
    : withInProcessSend(fetch, async (request) => {
        const token = keyOfRequest();
        const answer = await inProcess({ ...request, headers: { ...request.headers, authorization: `Token ${token}` } });
        if (answer.status === 401) refused(token);
        return answer;
      });
  return {
    client: new SvcClient({ ...MCP_CLIENT_OPTIONS, baseUrl, fetch: keyed }),
    use: (token) => void (current = token),
  };
}
