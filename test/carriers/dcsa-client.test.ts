// DcsaClient against a real HTTP server on 127.0.0.1: query parameters, headers, the three
// shapes of 2.2's Next-Page, 3.0's Next-Page-Cursor, the page cap, and typed failures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { DcsaClient, type DcsaClientOptions } from '../../src/carriers/dcsa/client.ts';
import { DcsaHttpError, DcsaUnreachableError, UnrecognizedResponseError } from '../../src/carriers/dcsa/errors.ts';

const sample = (name: string): any => JSON.parse(readFileSync(`/work/shared/reference/dcsa/${name}`, 'utf8'));
const events22 = sample('tnt-220-response.json');
/** A 2.2 event with its own id. */
const event22 = (id: string) => ({ ...events22[0], eventID: id });

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;
interface Seen {
  url: string;
  query: Record<string, string>;
  headers: FastifyRequest['headers'];
}

let app: FastifyInstance;
let origin: string;
let handler: Handler;
let seen: Seen[];

before(async () => {
  app = Fastify({ forceCloseConnections: true });
  // The carrier's API lives under a path prefix, as many do.
  app.get('/carrier/:version/events', (request, reply) => {
    seen.push({ url: request.url, query: request.query as Record<string, string>, headers: request.headers });
    return handler(request, reply);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
after(() => app.close());
beforeEach(() => {
  seen = [];
});

function client(options: Partial<DcsaClientOptions> = {}): DcsaClient {
  return new DcsaClient({ baseUrl: `${origin}/carrier/`, apiKey: 'key-123', version: '2.2', timeoutMs: 2000, ...options });
}

const cursorOf = (request: FastifyRequest) => (request.query as Record<string, string>).cursor;

test('2.2: Next-Page as a cursor, an absolute URL and a relative URL are all followed', async () => {
  handler = (request, reply) => {
    switch (cursorOf(request)) {
      case undefined:
        return reply.header('Next-Page', 'c2').send([event22('a')]);
      case 'c2':
        return reply.header('Next-Page', `${origin}/carrier/v2/events?carrierBookingReference=BK1&cursor=c3`).send([event22('b')]);
      case 'c3':
        return reply.header('Next-Page', '/carrier/v2/events?carrierBookingReference=BK1&cursor=c4').send([event22('c')]);
      default:
        return reply.send([event22('d')]);
    }
  };
  const events = await client().getEvents({ carrierBookingReference: 'BK1' });
  assert.deepEqual(
    events.map((e) => e.id),
    ['a', 'b', 'c', 'd'],
  );
  assert.deepEqual(
    seen.map((s) => s.url),
    [
      '/carrier/v2/events?carrierBookingReference=BK1',
      // A bare cursor goes back with the first page's query.
      '/carrier/v2/events?carrierBookingReference=BK1&cursor=c2',
      '/carrier/v2/events?carrierBookingReference=BK1&cursor=c3',
      '/carrier/v2/events?carrierBookingReference=BK1&cursor=c4',
    ],
  );
  for (const { headers } of seen) {
    assert.equal(headers['api-key'], 'key-123');
    assert.equal(headers['api-version'], '2');
    assert.equal(headers.accept, 'application/json');
  }
});

test('2.2: since becomes eventCreatedDateTime:gte; limit is sent only when asked for', async () => {
  handler = (_request, reply) => reply.send([event22('a')]);
  await client().getEvents({ transportDocumentReference: 'HHL 71/8', since: new Date('2026-01-05T10:00:00Z'), limit: 25 });
  assert.equal(seen[0].url, '/carrier/v2/events?transportDocumentReference=HHL%2071%2F8&eventCreatedDateTime:gte=2026-01-05T10%3A00%3A00.000Z&limit=25');
  assert.equal(seen[0].query['eventCreatedDateTime:gte'], '2026-01-05T10:00:00.000Z');
  assert.equal(seen[0].query.transportDocumentReference, 'HHL 71/8');

  await client().getEvents({ equipmentReference: 'APZU4812090' });
  assert.equal(seen[1].url, '/carrier/v2/events?equipmentReference=APZU4812090');
});

test('3.0: /v3/events, eventUpdatedDateTimeMin, Next-Page-Cursor followed with the original query', async () => {
  handler = (request, reply) =>
    cursorOf(request) === undefined
      ? reply.header('Next-Page-Cursor', 'page/2').send(sample('tnt-300-response.json'))
      : reply.send(sample('tnt-300-response-nextpage.json'));
  const events = await client({ version: '3.0' }).getEvents({
    carrierBookingReference: 'ABC709951',
    equipmentReference: 'APZU4812090',
    since: new Date('2025-01-01T00:00:00Z'),
  });
  assert.deepEqual(
    events.map((e) => e.id),
    ['evt-resp-ship-001', 'evt-resp-trans-001', 'evt-resp-equip-001', 'evt-resp-ship-002', 'evt-resp-trans-002', 'evt-resp-equip-002'],
  );
  const query = 'carrierBookingReference=ABC709951&equipmentReference=APZU4812090&eventUpdatedDateTimeMin=2025-01-01T00%3A00%3A00.000Z';
  assert.deepEqual(
    seen.map((s) => s.url),
    [`/carrier/v3/events?${query}`, `/carrier/v3/events?${query}&cursor=page%2F2`],
  );
  assert.equal(seen[1].query.cursor, 'page/2');
  assert.equal(seen[0].headers['api-version'], '3.0.0');
});

test('the API key header name is configurable; without a key no key header is sent', async () => {
  handler = (_request, reply) => reply.send([]);
  await client({ apiKeyHeader: 'Consumer-Key' }).getEvents({ carrierBookingReference: 'BK1' });
  assert.equal(seen[0].headers['consumer-key'], 'key-123');
  assert.equal(seen[0].headers['api-key'], undefined);
  await client({ apiKey: undefined }).getEvents({ carrierBookingReference: 'BK1' });
  assert.equal(seen[1].headers['api-key'], undefined);
});

test('a Next-Page on another origin is not followed (it would get our API key)', async () => {
  handler = (_request, reply) => reply.header('Next-Page', 'https://collector.example/v2/events?cursor=x').send([event22('a')]);
  await assert.rejects(client().getEvents({ carrierBookingReference: 'BK1' }), (e: unknown) => e instanceof UnrecognizedResponseError && /another origin \(https:\/\/collector\.example\)/.test(e.message));
  assert.equal(seen.length, 1);
});

test('a cursor that never ends is cut off at maxPages', async () => {
  let page = 0;
  handler = (_request, reply) => reply.header('Next-Page-Cursor', `p${++page}`).send({ events: [sample('tnt-300-response.json').events[0]] });
  await assert.rejects(client({ version: '3.0', maxPages: 3 }).getEvents({ equipmentReference: 'APZU4812090' }), { name: 'UnrecognizedResponseError', message: 'still more pages after 3; giving up' });
  assert.equal(seen.length, 3);
});

test('a next link on the last page ends the walk when the page is empty or the link points to itself', async () => {
  handler = (request, reply) => (cursorOf(request) === undefined ? reply.header('Next-Page', 'end').send([event22('a')]) : reply.header('Next-Page', 'more').send([]));
  assert.equal((await client().getEvents({ carrierBookingReference: 'BK1' })).length, 1);
  assert.equal(seen.length, 2);

  seen = [];
  handler = (request, reply) => reply.header('Next-Page', request.url).send([event22('a')]);
  assert.equal((await client().getEvents({ carrierBookingReference: 'BK1' })).length, 1);
  assert.equal(seen.length, 1);
});

test('non-2xx answers, garbage, timeouts, redirects and refused connections are typed errors', async () => {
  const get = (options: Partial<DcsaClientOptions> = {}) => client(options).getEvents({ carrierBookingReference: 'BK1' });

  handler = (_request, reply) => reply.code(503).send({ message: 'maintenance\n window' });
  await assert.rejects(get(), (e: unknown) => e instanceof DcsaHttpError && e.status === 503 && e.bodyExcerpt === '{"message":"maintenance\\n window"}');

  handler = (_request, reply) => reply.type('text/html').send('<html>login</html>');
  await assert.rejects(get(), { name: 'UnrecognizedResponseError', message: 'HTTP 200 body is not JSON: "<html>login</html>"' });

  handler = async (_request, reply) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return reply.send([]);
  };
  await assert.rejects(get({ timeoutMs: 100 }), (e: unknown) => e instanceof DcsaUnreachableError && e.message.endsWith('no answer within 100 ms'));

  // Headers arrive at once but the body trickles: the timeout covers the body too.
  handler = (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/json' });
    reply.raw.write('[');
    setTimeout(() => reply.raw.end(']'), 1000);
  };
  await assert.rejects(get({ timeoutMs: 100 }), DcsaUnreachableError);

  handler = (_request, reply) => reply.redirect('/carrier/v2/elsewhere');
  await assert.rejects(get(), DcsaUnreachableError);
  assert.equal(seen.length, 5, 'the redirect was not followed');

  const closedPort = await freePort();
  await assert.rejects(
    new DcsaClient({ baseUrl: `http://127.0.0.1:${closedPort}`, version: '2.2', timeoutMs: 2000 }).getEvents({ carrierBookingReference: 'BK1' }),
    (e: unknown) => e instanceof DcsaUnreachableError && /ECONNREFUSED/.test(e.message),
  );
});

test('a query without any reference is refused before anything is sent', async () => {
  await assert.rejects(client().getEvents({ since: new Date() }), { message: 'getEvents needs a booking, transport document or equipment reference' });
  assert.equal(seen.length, 0);
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}
