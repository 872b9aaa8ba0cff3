// A real HTTP server on loopback that answers each request with the next step of a script, and
// records what arrived: the SDK's transport is tested against real sockets, not a fake fetch.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** One answer: a status with headers and a body (an object goes as JSON), or what to do to the socket. */
export type Step =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | 'destroy' // close the connection without answering
  | 'hang'; // never answer

export interface ScriptedServer {
  /** http://127.0.0.1:port */
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Answers request n with `script[n]`, and every request past the script with its last step. */
export async function startScriptedServer(script: Step[] | ((request: Received) => Step)): Promise<ScriptedServer> {
  const received: Received[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
    received.push(request);
    const step = typeof script === 'function' ? script(request) : script[Math.min(received.length, script.length) - 1];
    if (step === 'destroy') return void req.socket.destroy();
    if (step === 'hang') return;
    const text = step.body === undefined ? '' : typeof step.body === 'string' ? step.body : JSON.stringify(step.body);
    const type = typeof step.body === 'string' ? 'text/html' : 'application/vnd.api+json';
    res.writeHead(step.status, { ...(text ? { 'content-type': type } : {}), ...step.headers });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A loopback port nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A JSON:API error document. */
export const errors = (status: number, title: string, detail?: string, source?: object) => ({ errors: [{ status: String(status), title, detail, ...(source ? { source } : {}) }] });
