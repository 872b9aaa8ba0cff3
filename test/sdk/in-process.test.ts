// The SDK's in-process fast path (transport.ts withInProcessSend, used by svc serve's MCP server
// through src/main/inject-fetch.ts): SvcClient's methods take the send, with the same retries and
// typed errors as over the network; the raw client still goes through the fetch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NotFoundError, SvcClient } from '../../sdk/src/index.ts';
import { withInProcessSend, type ParsedAnswer, type PlainRequest } from '../../sdk/src/transport.ts';

function scriptedSend(answers: ParsedAnswer[]) {
  const sent: PlainRequest[] = [];
  const fetched: string[] = [];
  const fetch = withInProcessSend(
    async (input) => {
      fetched.push(input instanceof Request ? input.url : String(input));
      return new Response(JSON.stringify({ data: [] }), { status: 200, headers: { 'content-type': 'application/json' } });
    },
    async (request) => {
      sent.push(request);
      return answers.shift() ?? { status: 500, headers: {}, body: undefined };
    },
  );
  return { fetch, sent, fetched };
}

const container = { data: { id: 'c1', type: 'container', attributes: { number: 'ABCU1234567' } } };

test('a read answered 429 is retried after Retry-After, and the parsed body becomes the record', async () => {
  const { fetch, sent } = scriptedSend([
    { status: 429, headers: { 'retry-after': '1' }, body: { errors: [{ status: '429', title: 'Too Many Requests' }] } },
    { status: 200, headers: {}, body: container },
  ]);
  const waits: number[] = [];
  const client = new SvcClient({ baseUrl: 'http://svc.test', token: 'k-1', fetch, sleep: async (ms) => void waits.push(ms) });
  const got = await client.containers.get('c1', { include: ['shipment'] });
  assert.equal(got.number, 'ABCU1234567');
  assert.deepEqual(waits, [1000]);
  assert.equal(sent.length, 2);
  assert.equal(sent[0].method, 'GET');
  assert.equal(sent[0].url, 'http://svc.test/v2/containers/c1?include=shipment');
  assert.equal(sent[0].headers.authorization, 'Token k-1');
  assert.equal(sent[0].body, undefined);
});

test('a failed answer is the typed error with its request id; a write is sent once, its body as JSON text', async () => {
  const { fetch, sent } = scriptedSend([{ status: 404, headers: { 'x-request-id': 'r-9' }, body: { errors: [{ status: '404', title: 'Not Found', detail: 'none' }] } }]);
  const client = new SvcClient({ baseUrl: 'http://svc.test', token: 'k-1', fetch, sleep: async () => {} });
  const err = await client.parties.create({ company_name: 'ACME' }).catch((e: unknown) => e);
  assert.ok(err instanceof NotFoundError);
  assert.equal(err.requestId, 'r-9');
  assert.equal(sent.length, 1);
  assert.equal(sent[0].headers['content-type'], 'application/vnd.api+json');
  assert.deepEqual(JSON.parse(sent[0].body!), { data: { type: 'party', attributes: { company_name: 'ACME' } } });
});

test('the raw client goes through the fetch itself', async () => {
  const { fetch, sent, fetched } = scriptedSend([]);
  const client = new SvcClient({ baseUrl: 'http://svc.test', token: 'k-1', fetch });
  await client.raw.GET('/v2/parties');
  assert.deepEqual(fetched, ['http://svc.test/v2/parties']);
  assert.equal(sent.length, 0);
});
