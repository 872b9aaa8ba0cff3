// A real webhook receiver on loopback: records every request exactly as it arrived and answers
// as the test tells it to.
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact body bytes, as text. */
  body: string;
  json: any;
}

export type Answer = (req: Received, res: ServerResponse) => void;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** How the next requests are answered (default: 200 "ok"). */
  answer: Answer;
  close(): Promise<void>;
}

export const answerWith = (status: number, body = '', headers: Record<string, string> = {}): Answer => (_req, res) => {
  res.writeHead(status, headers).end(body);
};

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', port: 0, received: [], answer: answerWith(200, 'ok'), close: async () => {} };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
      receiver.received.push(received);
      receiver.answer(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** HMAC-SHA256 hex of `body` under `secret`, computed by openssl: a verifier independent of svc's code. */
export function opensslHmac(secret: string, body: string): string {
  const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: body }).toString();
  return out.trim().split(/\s+/).pop()!;
}
