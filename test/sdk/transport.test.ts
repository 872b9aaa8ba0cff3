// The SDK's transport and errors against a scripted HTTP server on loopback: what is retried and
// how long it waits (the waits are recorded, never slept), timeouts, and the error class each
// failure becomes.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { apiBase, AuthenticationError, AuthorizationError, ConnectionError, FeatureNotEnabledError, NotFoundError, RateLimitError, ServerError, SvcClient, SvcError, ValidationError, type SvcClientOptions } from '../../sdk/src/index.ts';
import { closedPort, errors, startScriptedServer, type ScriptedServer, type Step } from './scripted-server.ts';

const servers: ScriptedServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

/** A scripted server and a client of it whose waits are recorded instead of slept. */
async function scripted(script: Step[] | Parameters<typeof startScriptedServer>[0], options: Partial<SvcClientOptions> = {}) {
  const server = await startScriptedServer(script);
  servers.push(server);
  const waits: number[] = [];
  const client = new SvcClient({ baseUrl: server.url, token: 'k-123', sleep: async (ms) => void waits.push(ms), ...options });
  return { server, client, waits };
}

/** A full garbage collection now, without starting node with --expose-gc. */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const ok: Step = { status: 200, body: { data: [], meta: { total: 0 }, links: {} } };

describe('base URL', () => {
  test('an origin gets /v2; a path prefix is kept; trailing slashes, query and fragment go', () => {
    assert.equal(apiBase('http://h:8080'), 'http://h:8080/v2');
    assert.equal(apiBase('http://h:8080/'), 'http://h:8080/v2');
    assert.equal(apiBase('http://h/v2'), 'http://h/v2');
    assert.equal(apiBase('http://h/v2//'), 'http://h/v2');
    assert.equal(apiBase('http://h/svc'), 'http://h/svc/v2');
    assert.equal(apiBase('http://h/svc/'), 'http://h/svc/v2');
    assert.equal(apiBase('https://h/svc/v2/?x=1#top'), 'https://h/svc/v2');
  });

  test('requests go under the prefix with the key as `Authorization: Token`, and so do pagination links svc names with another origin', async () => {
    const { server, client } = await scripted((request) =>
      request.url.includes('page%5Bnumber%5D=2')
        ? { status: 200, body: { data: [{ id: 'p3', type: 'party', attributes: { company_name: 'C' } }], meta: { total: 3 }, links: {} } }
        : {
            status: 200,
            body: {
              data: ['p1', 'p2'].map((id) => ({ id, type: 'party', attributes: { company_name: id } })),
              meta: { total: 3 },
              links: { next: 'https://public.example/v2/parties?page%5Bnumber%5D=2&page%5Bsize%5D=2' },
            },
          },
    );
    const prefixed = new SvcClient({ baseUrl: `${server.url}/svc/`, token: 'k-123' });
    const names: string[] = [];
    for await (const party of prefixed.parties.iterate({ 'page[size]': 2 })) names.push(party.company_name);
    assert.deepEqual(names, ['p1', 'p2', 'C']);
    assert.deepEqual(
      server.received.map((r) => r.url),
      ['/svc/v2/parties?page%5Bsize%5D=2', '/svc/v2/parties?page%5Bnumber%5D=2&page%5Bsize%5D=2'],
    );
    assert.equal(server.received[0].headers.authorization, 'Token k-123');
    assert.match(server.received[0].headers.accept ?? '', /application\/vnd\.api\+json/);
  });

  test('query parameters are written as URLSearchParams writes them, lists comma-separated', async () => {
    const sent: string[] = [];
    const client = new SvcClient({ baseUrl: 'http://h/v2', token: 'k', fetch: async (input) => (sent.push(input instanceof Request ? input.url : String(input)), Response.json({ data: [] })) });
    const queries: Record<string, string | number | boolean | string[] | undefined | null>[] = [
      {},
      { include: ['shipment'] },
      { include: ['shipment', 'pod_terminal'], 'page[size]': 100 },
      { search: 'MAEU', a_b: 'x.y-z*', n: 0, t: true, skipped: undefined, none: null },
      { q: 'a b+c&d=e', 'filter[status]': 'available', plain: 'x' },
      { plain: 'x', q: 'ü ✓ \u{1F6A2}', after: 'y' },
      { empty: '', '': 'nameless' },
    ];
    for (const query of queries) {
      await client.request('GET', '/things', { query });
      const entries = Object.entries(query).flatMap(([name, value]) => (value === undefined || value === null ? [] : [[name, Array.isArray(value) ? value.join(',') : String(value)]]));
      const search = new URLSearchParams(entries).toString();
      assert.equal(sent.pop(), `http://h/v2/things${search ? `?${search}` : ''}`, JSON.stringify(query));
    }
  });
});

describe('retries', () => {
  test('a GET answered 503 is retried after a backoff, and the 200 that follows is returned', async () => {
    const { server, client, waits } = await scripted([{ status: 503, body: errors(503, 'Service Unavailable') }, ok]);
    assert.equal((await client.parties.list()).total, 0);
    assert.equal(server.received.length, 2);
    assert.equal(waits.length, 1);
    assert.ok(waits[0] >= 375 && waits[0] <= 625, `first backoff ${waits[0]} ms is 500 ms ± 25%`);
  });

  test('a POST answered 503 is sent once: a write may have been carried out', async () => {
    const { server, client, waits } = await scripted([{ status: 503, body: errors(503, 'Service Unavailable'), headers: { 'retry-after': '1' } }, ok]);
    await assert.rejects(client.parties.create({ company_name: 'A' }), ServerError);
    assert.equal(server.received.length, 1);
    assert.deepEqual(waits, []);
    assert.equal(server.received[0].headers['content-type'], 'application/vnd.api+json');
    assert.deepEqual(JSON.parse(server.received[0].body), { data: { type: 'party', attributes: { company_name: 'A' } } });
  });

  test('429 with Retry-After: 2 waits 2000 ms before the retry', async () => {
    const { server, client, waits } = await scripted([{ status: 429, headers: { 'retry-after': '2' }, body: errors(429, 'Too Many Requests') }, ok]);
    await client.parties.list();
    assert.equal(server.received.length, 2);
    assert.deepEqual(waits, [2000]);
  });

  test('Retry-After as an HTTP date is waited for until that time', async () => {
    const at = new Date(Date.now() + 10_000);
    const { server, client, waits } = await scripted([{ status: 503, headers: { 'retry-after': at.toUTCString() } }, ok]);
    await client.parties.list();
    assert.equal(server.received.length, 2);
    // The date has whole seconds: up to a second earlier than `at`, less the time the request took.
    assert.ok(waits[0] > 8000 && waits[0] <= 10_000, `waited ${waits[0]} ms`);
  });

  test('a Retry-After beyond maxRetryDelayMs is not waited for: RateLimitError at once, with the wait asked for', async () => {
    const { server, client, waits } = await scripted([{ status: 429, headers: { 'retry-after': '120' }, body: errors(429, 'Too Many Requests', 'Slow down.') }, ok], { maxRetryDelayMs: 60_000 });
    const err = await client.parties.list().catch((e: unknown) => e);
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.retryAfterSeconds, 120);
    assert.equal(err.status, 429);
    assert.equal(err.errors[0].detail, 'Slow down.');
    assert.equal(server.received.length, 1);
    assert.deepEqual(waits, []);
  });

  test('an HTTP-date Retry-After beyond the cap gives its distance in seconds', async () => {
    const { client, waits } = await scripted([{ status: 429, headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } }]);
    const err = await client.parties.list().catch((e: unknown) => e);
    assert.ok(err instanceof RateLimitError);
    assert.ok(err.retryAfterSeconds! > 3590 && err.retryAfterSeconds! <= 3600, `retryAfterSeconds ${err.retryAfterSeconds}`);
    assert.deepEqual(waits, []);
  });

  test('after maxRetries the last answer is the error', async () => {
    const { server, client, waits } = await scripted([{ status: 429, headers: { 'retry-after': '1' } }]);
    const err = await client.parties.list().catch((e: unknown) => e);
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.retryAfterSeconds, 1);
    assert.equal(server.received.length, 3, 'the first attempt and 2 retries (the default)');
    assert.deepEqual(waits, [1000, 1000]);
  });

  test('a refused connection is retried, then a ConnectionError', async () => {
    const waits: number[] = [];
    const client = new SvcClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, sleep: async (ms) => void waits.push(ms) });
    const err = await client.parties.list().catch((e: unknown) => e);
    assert.ok(err instanceof ConnectionError, String(err));
    assert.equal(err.status, 0);
    assert.equal(waits.length, 2);
  });

  test('a connection closed without an answer: GET retried, then a ConnectionError; POST sent once', async () => {
    const { server, client, waits } = await scripted(['destroy']);
    await assert.rejects(client.parties.list(), ConnectionError);
    assert.equal(server.received.length, 3);
    assert.equal(waits.length, 2);
    await assert.rejects(client.parties.create({ company_name: 'A' }), ConnectionError);
    assert.equal(server.received.length, 4);
  });

  test('an attempt past timeoutMs is abandoned and retried, then a ConnectionError naming the timeout', async () => {
    const { server, client } = await scripted(['hang'], { timeoutMs: 100 });
    const started = performance.now();
    const err = await client.parties.list().catch((e: unknown) => e);
    assert.ok(err instanceof ConnectionError, String(err));
    assert.match(err.message, /no answer within 100 ms/);
    assert.equal(server.received.length, 3);
    assert.ok(performance.now() - started < 2000, 'three attempts of 100 ms, no long waits');
  });

  test('a garbage collection during an attempt does not lose its timeout (Node 20 drops a timeout signal combined with AbortSignal.any)', { timeout: 10_000 }, async () => {
    const { server, client } = await scripted(() => {
      collectGarbage();
      return 'hang';
    }, { timeoutMs: 200, maxRetries: 0 });
    const err = await client.parties.list().catch((e: unknown) => e);
    assert.ok(err instanceof ConnectionError, String(err));
    assert.match(err.message, /no answer within 200 ms/);
    assert.equal(server.received.length, 1);
  });

  test("the caller's own abort is not retried", async () => {
    const controller = new AbortController();
    const { server, client, waits } = await scripted(() => {
      collectGarbage(); // the abort still reaches the attempt: its link is not only weakly held
      controller.abort();
      return 'hang';
    });
    const err = await client.request('GET', '/parties', { signal: controller.signal }).catch((e: unknown) => e);
    assert.equal((err as Error).name, 'AbortError');
    assert.equal(server.received.length, 1);
    assert.deepEqual(waits, []);
  });
});

describe('errors', () => {
  test('403 "not enabled" is a FeatureNotEnabledError; another 403 an AuthorizationError', async () => {
    const { client } = await scripted((r) =>
      r.url.includes('refresh')
        ? { status: 403, body: errors(403, 'API access not enabled', 'This API endpoint is not enabled for your account.') }
        : { status: 403, body: errors(403, 'Forbidden', 'This key may not read that.') },
    );
    const feature = await client.containers.refresh('c1').catch((e: unknown) => e);
    assert.ok(feature instanceof FeatureNotEnabledError);
    assert.ok(feature instanceof AuthorizationError, 'a kind of authorization error');
    const other = await client.containers.get('c1').catch((e: unknown) => e);
    assert.ok(other instanceof AuthorizationError);
    assert.ok(!(other instanceof FeatureNotEnabledError));
    assert.equal(other.message, 'Forbidden: This key may not read that. (HTTP 403)');
  });

  test('each status becomes its class, with the JSON:API errors, pointers and request id', async () => {
    const { client } = await scripted((r) => {
      const status = Number(r.url.split('/').pop());
      return { status, headers: { 'x-request-id': `req-${status}` }, body: errors(status, 'Bad', 'is wrong', { pointer: '/data/attributes/company_name' }) };
    });
    const cases: [number, new (...args: never[]) => SvcError][] = [
      [400, ValidationError],
      [422, ValidationError],
      [401, AuthenticationError],
      [404, NotFoundError],
      [429, RateLimitError],
      [500, ServerError],
      [409, SvcError],
    ];
    for (const [status, kind] of cases) {
      const err = await client.request('POST', `/x/${status}`).catch((e: unknown) => e);
      assert.ok(err instanceof kind, `${status} → ${(err as Error).name}`);
      assert.equal(err.status, status);
      assert.deepEqual(err.pointers, ['/data/attributes/company_name']);
      assert.equal(err.requestId, `req-${status}`);
    }
  });

  test("a proxy's HTML error page still gives the class of its status", async () => {
    const page = (status: number, headers: Record<string, string> = {}): Step => ({ status, headers, body: `<html><body><h1>${status}</h1></body></html>` });
    const { client } = await scripted((r) => {
      const status = Number(r.url.split('/').pop());
      return page(status, status === 429 ? { 'retry-after': '90' } : {});
    });
    const expected: [number, new (...args: never[]) => SvcError][] = [
      [502, ServerError],
      [401, AuthenticationError],
      [403, AuthorizationError],
      [404, NotFoundError],
      [429, RateLimitError],
    ];
    for (const [status, kind] of expected) {
      const err = await client.request('POST', `/x/${status}`).catch((e: unknown) => e);
      assert.ok(err instanceof kind, `${status} → ${(err as Error).name}`);
      assert.deepEqual(err.errors, []);
      assert.equal(err.message, `HTTP ${status}`);
    }
    const limited = await client.request('POST', '/x/429').catch((e: unknown) => e);
    assert.equal((limited as RateLimitError).retryAfterSeconds, 90);
  });
});
