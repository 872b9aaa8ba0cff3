// The web app's event stream (GET /live) read without a browser, as a signed-in WebClient.
import { get, type IncomingMessage } from 'node:http';
import type { WebClient } from './web.ts';

/** The client's cookies as a Cookie header. */
export function cookieOf(client: WebClient): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

/**
 * An event stream over node:http: destroying it closes its socket at once (an aborted fetch
 * left a connection that held the server's close for a minute).
 */
export function openStream(url: string, cookie: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, { headers: { cookie, accept: 'text/event-stream' } }, resolve).on('error', reject));
}

/** Reads the event stream until `needle` has come (the test's own timeout bounds the wait). */
export async function readUntil(res: IncomingMessage, needle: string): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const chunk of res) {
    text += chunk;
    if (text.includes(needle)) break;
  }
  // Up to the end of the message that carries it.
  const end = text.indexOf('\n\n', text.indexOf(needle));
  return end < 0 ? text : text.slice(0, end + 2);
}
