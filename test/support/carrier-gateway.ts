// A carrier's API gateway on loopback, as the catalogue's carriers run theirs: an OAuth2
// client-credentials token endpoint, DCSA events (2.2 and 3.0) that want a bearer token or an API
// key, event subscriptions, and whatever a test makes an answer do (429, revoked tokens).
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

export const CLIENT_ID = 'client-id-7f3a';
export const CLIENT_SECRET = 'client-secret-c0ffee-91b2';
export const API_KEY = 'api-key-5d1e-b77a';

export interface SeenRequest {
  method: string;
  url: string;
  headers: FastifyRequest['headers'];
  body: unknown;
  at: number;
}

export interface CarrierGateway {
  origin: string;
  seen: SeenRequest[];
  /** Tokens issued so far, in order; a revoked one is refused with 401. */
  issued: string[];
  revoked: Set<string>;
  /** Lifetime of the next tokens, in seconds (expires_in). */
  tokenLifetimeS: number;
  /** Answers the next events queries, one per call, before the normal answer. */
  queue: ((reply: FastifyReply) => unknown)[];
  /** The events answer for a reference nobody knows: 404 (default) or an empty list. */
  unknownReference: 'not_found' | 'empty';
  tokenRequests(): SeenRequest[];
  eventRequests(): SeenRequest[];
  close(): Promise<void>;
}

export async function startCarrierGateway(): Promise<CarrierGateway> {
  const app = Fastify({ forceCloseConnections: true });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
  const gateway = {
    origin: '',
    seen: [] as SeenRequest[],
    issued: [] as string[],
    revoked: new Set<string>(),
    tokenLifetimeS: 3600,
    queue: [] as ((reply: FastifyReply) => unknown)[],
    unknownReference: 'not_found' as 'not_found' | 'empty',
    tokenRequests: () => gateway.seen.filter((s) => s.url.startsWith('/oauth')),
    eventRequests: () => gateway.seen.filter((s) => s.url.includes('/events')),
    close: () => app.close(),
  };
  app.addHook('onRequest', async (request) => {
    gateway.seen.push({ method: request.method, url: request.url, headers: request.headers, body: undefined, at: Date.now() });
  });
  app.addHook('preHandler', async (request) => {
    gateway.seen.at(-1)!.body = request.body;
  });

  app.post('/oauth/token', (request, reply) => {
    const form = request.body as Record<string, string>;
    if (form.grant_type !== 'client_credentials') return reply.code(400).send({ error: 'unsupported_grant_type' });
    if (form.client_id !== CLIENT_ID || form.client_secret !== CLIENT_SECRET) return reply.code(401).send({ error: 'invalid_client', error_description: `unknown client ${form.client_id}` });
    const token = `token-${gateway.issued.length + 1}`;
    gateway.issued.push(token);
    return reply.send({ access_token: token, token_type: 'Bearer', expires_in: gateway.tokenLifetimeS });
  });

  /** A bearer token issued and not revoked, or the API key. */
  const authorised = (request: FastifyRequest) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer) return gateway.issued.includes(bearer) && !gateway.revoked.has(bearer);
    return request.headers['x-api-key'] === API_KEY;
  };

  const events = (version: '2' | '3.0.0') => (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('API-Version', version === '2' ? '2.2.0' : '3.0.0');
    if (!authorised(request)) return reply.code(401).send({ errors: [{ reason: 'unauthorized' }] });
    const next = gateway.queue.shift();
    if (next) return next(reply);
    if (gateway.unknownReference === 'not_found') return reply.code(404).send({ errors: [{ reason: 'not found' }] });
    return reply.send(version === '2' ? [] : { events: [] });
  };
  app.get('/api/v2/events', events('2'));
  app.get('/api/v3/events', events('3.0.0'));
  app.post('/api/:major/event-subscriptions', (request, reply) => {
    if (!authorised(request)) return reply.code(401).send({ errors: [{ reason: 'unauthorized' }] });
    return reply.code(201).send({ subscriptionID: `sub-${(request.params as { major: string }).major}` });
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  gateway.origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return gateway;
}
