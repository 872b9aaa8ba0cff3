// A fetch that hands requests to svc's own fastify app in memory (app.inject): the MCP server
// mounted in svc serve reaches the REST API without a TCP round trip, yet through the same hooks,
// authentication, rate limits and serialisation as any client.
import type { FastifyInstance } from 'fastify';
import { requestIdOf } from '../http/error-documents.ts';
import { readInProcess } from '../http/in-process-reads.ts';
import { answerAsData, asJsonData, dispatch } from './in-process-dispatch.ts';
import { BufferedResponse, withInProcessSend, type InProcessSend, type ParsedAnswer } from '../../sdk/src/transport.ts';

export interface InjectFetchOptions {
  /**
   * A read's JSON body reaches the SDK as the data the route answered with, not as text parsed
   * back (in-process-dispatch.ts): the caller must only read what it gets, never change it (the
   * MCP tools build new views of it). Call before the app is ready.
   */
  readsAsData?: boolean;
}

export function injectFetch(app: FastifyInstance, { readsAsData = false }: InjectFetchOptions = {}): typeof fetch {
  if (readsAsData) answerAsData(app);
  const fetch: typeof globalThis.fetch = async (input, init) => {
    // The SDK sends a Request with its signal in init: read it as it is rather than copy it into another.
    const request = input instanceof Request && (init === undefined || Object.keys(init).every((k) => k === 'signal')) ? input : new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => void (headers[name] = value));
    headers.host = url.host;
    const res = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      payload: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
      signal: init?.signal ?? request.signal,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(v));
    }
    // Answered in full already: the SDK's transport takes it as it is (no copy of the body).
    return new BufferedResponse(new Uint8Array(res.rawPayload), { status: res.statusCode, headers: responseHeaders });
  };

  // SvcClient's own methods take this way: plain headers in, the JSON body parsed once out, and
  // no web Request or Response between. The app's rules apply all the same. A read goes to the
  // app's router directly (in-process-dispatch.ts) once the app listens; a request with a body, or
  // one before then, is one inject, given a callback (a promise-less inject skips
  // light-my-request's chaining object and a tick) and options it need not check (made here).
  const send: InProcessSend = async ({ method, url, headers, body, signal }) => {
    const { host, path } = addressOf(url);
    if (body === undefined && app.server.listening) {
      const request = { method, url: path, headers: serverHeaders(headers, host), asData: readsAsData, ...(signal ? { signal } : {}) };
      let presetError: { err: unknown } | undefined;
      // A /v2 read runs its route's steps past fastify (src/http/in-process-reads.ts); only a
      // failure goes through fastify then, which answers with the error the route raised.
      const read = readsAsData && method === 'GET' && !signal?.aborted ? readInProcess(app, { path, headers: request.headers }) : undefined;
      if (read) {
        try {
          const answer = await read;
          const status = answer.status ?? 200;
          // As the JSON text fastify would have sent parsed back: the body itself when it is plain JSON data.
          const data = status === 204 || status === 304 ? undefined : (asJsonData(answer.body) ?? parsedJson(JSON.stringify(answer.body)));
          return { status, headers: { 'x-request-id': requestIdOf(request.headers), ...answer.headers }, body: data };
        } catch (err) {
          presetError = { err };
        }
      }
      const answer = await dispatch(app, { ...request, ...(presetError ? { presetError } : {}) });
      return { status: answer.status, headers: answer.headers, body: answer.data !== undefined ? answer.data : parsedJson(answer.payload) };
    }
    const options = { method: method as 'GET', url: path, headers: { ...headers, host }, payload: body, validate: false, ...(signal ? { signal } : {}) };
    return new Promise((resolve, reject) =>
      app.inject(options, (err, res) => {
        if (err || !res) reject(err ?? new Error('in-process request without an answer'));
        else resolve({ status: res.statusCode, headers: res.headers as ParsedAnswer['headers'], body: parsedJson(res.payload) });
      }),
    );
  };
  return withInProcessSend(fetch, send);
}

/** Header names as an HTTP server hands them to fastify, with `host` as Host: one copy, not two. */
function serverHeaders(headers: Record<string, string>, host: string): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const name of Object.keys(headers)) lower[name.toLowerCase()] = headers[name];
  lower.host = host;
  return lower;
}

function parsedJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON: the status still tells the kind
  }
}

let lastOrigin = { origin: '', host: '' };

/** `url`'s Host and path with query. The SDK sends every request to the same origin: it is parsed once. */
function addressOf(url: string): { host: string; path: string } {
  const { origin, host } = lastOrigin;
  if (origin && url.startsWith(origin) && url.charCodeAt(origin.length) === 47 /* / */) return { host, path: url.slice(origin.length) };
  const parsed = new URL(url);
  lastOrigin = { origin: parsed.origin, host: parsed.host };
  return { host: parsed.host, path: parsed.pathname + parsed.search };
}
