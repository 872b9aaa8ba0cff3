// DCSA 2.2 push: creating a subscription against a real HTTP server, checking
// Notification-Signature, and reading callback bodies.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { parseCallback } from '../../src/carriers/dcsa/callback.ts';
import { DcsaClient } from '../../src/carriers/dcsa/client.ts';
import { DcsaHttpError, UnrecognizedResponseError } from '../../src/carriers/dcsa/errors.ts';
import { verifyNotificationSignature } from '../../src/carriers/dcsa/notification-signature.ts';

// RFC 4231 test case 2: an HMAC-SHA256 computed independently of our code.
const KEY = Buffer.from('Jefe');
const BODY = Buffer.from('what do ya want for nothing?');
const DIGEST = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';

test('a correct sha256 signature verifies, in either hex case and with surrounding blanks', () => {
  assert.equal(verifyNotificationSignature(BODY, `sha256=${DIGEST}`, KEY), true);
  assert.equal(verifyNotificationSignature(BODY, `sha256=${DIGEST.toUpperCase()}`, KEY), true);
  assert.equal(verifyNotificationSignature(BODY, `  sha256=${DIGEST} `, KEY), true);
});

test('anything else does not verify', () => {
  const cases: [string, Buffer, string | undefined, Buffer][] = [
    ['tampered body', Buffer.from('what do ya want for nothing!'), `sha256=${DIGEST}`, KEY],
    ['one extra byte', Buffer.concat([BODY, Buffer.from('\n')]), `sha256=${DIGEST}`, KEY],
    ['wrong secret', BODY, `sha256=${DIGEST}`, Buffer.from('jefe')],
    ['empty secret', Buffer.from(''), 'sha256=b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad', Buffer.alloc(0)],
    ['wrong prefix', BODY, `sha512=${DIGEST}`, KEY],
    ['upper-case prefix', BODY, `SHA256=${DIGEST}`, KEY],
    ['no prefix', BODY, DIGEST, KEY],
    ['missing header', BODY, undefined, KEY],
    ['empty header', BODY, '', KEY],
    ['truncated digest', BODY, `sha256=${DIGEST.slice(0, 62)}`, KEY],
    ['digest too long', BODY, `sha256=${DIGEST}00`, KEY],
    ['not hex', BODY, `sha256=${DIGEST.slice(0, 63)}g`, KEY],
    ['two signatures', BODY, `sha256=${DIGEST},sha256=${DIGEST}`, KEY],
  ];
  for (const [name, body, header, secret] of cases) {
    assert.equal(verifyNotificationSignature(body, header, secret), false, name);
  }
});

test('a callback body is an array of events; anything else is unrecognised', () => {
  const raw = readFileSync('/work/shared/reference/dcsa/tnt-220-response.json');
  const events = parseCallback(raw);
  assert.equal(events.length, 7);
  assert.equal(events[2].code, 'LOAD');
  assert.equal(events[2].equipmentReference, 'APZU4812090');

  const v3 = parseCallback(readFileSync('/work/shared/reference/dcsa/tnt-300-response.json'), '3.0');
  assert.deepEqual(
    v3.map((e) => e.id),
    ['evt-resp-ship-001', 'evt-resp-trans-001', 'evt-resp-equip-001'],
  );

  assert.throws(() => parseCallback(Buffer.from('{"events": [')), { name: 'UnrecognizedResponseError', message: 'callback body is not JSON' });
  assert.throws(() => parseCallback(Buffer.from('{"eventID": "x"}')), UnrecognizedResponseError);
});

let app: FastifyInstance;
let origin: string;
let answer: (reply: FastifyReply) => unknown;
const received: { body: unknown; headers: Record<string, unknown>; url: string }[] = [];

before(async () => {
  app = Fastify();
  app.post('/tnt/v2/event-subscriptions', (request, reply) => {
    received.push({ body: request.body, headers: request.headers, url: request.url });
    return answer(reply);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
after(() => app.close());

test('subscribe posts the callback URL, the base64 secret and the filters, and returns the subscription id', async () => {
  answer = (reply) => reply.code(201).send({ subscriptionID: '8fbdc2d8-57c8-48b9-a04b-18fd8ec1d809', callbackUrl: 'https://svc.example/hooks/dcsa' });
  const client = new DcsaClient({ baseUrl: `${origin}/tnt`, apiKey: 'key-9', version: '2.2', timeoutMs: 1000 });
  const secret = Buffer.from('0123456789abcdef0123456789abcdef');
  const id = await client.subscribe({
    callbackUrl: 'https://svc.example/hooks/dcsa',
    secret,
    filters: { eventType: ['TRANSPORT', 'EQUIPMENT'], carrierBookingReference: 'ABC709951' },
  });
  assert.equal(id, '8fbdc2d8-57c8-48b9-a04b-18fd8ec1d809');
  assert.equal(received[0].url, '/tnt/v2/event-subscriptions');
  assert.deepEqual(received[0].body, {
    callbackUrl: 'https://svc.example/hooks/dcsa',
    secret: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    eventType: ['TRANSPORT', 'EQUIPMENT'],
    carrierBookingReference: 'ABC709951',
  });
  assert.equal(received[0].headers['api-key'], 'key-9');
  assert.equal(received[0].headers['content-type'], 'application/json');

  answer = (reply) => reply.code(400).send({ errors: [{ message: 'callbackUrl must be https' }] });
  await assert.rejects(client.subscribe({ callbackUrl: 'http://x', secret, filters: {} }), (e: unknown) => e instanceof DcsaHttpError && e.status === 400);

  answer = (reply) => reply.code(201).send({ callbackUrl: 'https://svc.example/hooks/dcsa' });
  await assert.rejects(client.subscribe({ callbackUrl: 'https://svc.example/hooks/dcsa', secret, filters: {} }), {
    name: 'UnrecognizedResponseError',
    message: 'subscription created but the answer has no subscriptionID',
  });
});
