// Raw HTTP over node:net, for requests fetch will not send (no Host, bad headers, slow bodies).
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
  /** Milliseconds from connecting to the server closing the connection (or the answer, when it stays open). */
  elapsedMs: number;
}

/** Parses the first HTTP response in `raw` (Content-Length framed, as svc sends). */
export function parseResponse(raw: string, elapsedMs = 0): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let text = split === -1 ? '' : raw.slice(split + 4);
  if (headers['content-length'] !== undefined) text = Buffer.from(text).subarray(0, Number(headers['content-length'])).toString();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body, text, elapsedMs };
}

/**
 * Connects to `baseUrl`, lets `drive` write to the socket (at its own pace), and resolves with the
 * response once the server has answered and closed, or after `waitMs` for one that keeps the
 * connection open. `raw` is everything the server sent, for pipelined answers.
 */
export function rawExchange(baseUrl: string, drive: (socket: Socket) => void | Promise<void>, waitMs = 5_000): Promise<RawResponse & { closed: boolean; raw: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ host: hostname, port: Number(port) });
    let data = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponse(data, Date.now() - started), closed, raw: data });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('close', () => finish(true));
    socket.on('error', (err) => (data ? finish(true) : done || reject(err)));
    socket.on('connect', () => void Promise.resolve(drive(socket)).catch(() => {}));
  });
}

/** Sends `request` at once and waits for the answer. */
export const rawRequest = (baseUrl: string, request: string, waitMs?: number) => rawExchange(baseUrl, (s) => void s.write(request), waitMs);
