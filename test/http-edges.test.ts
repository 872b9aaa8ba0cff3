// The edges of the HTTP surface, driven through real sockets: Host, timeouts, the server's own
// errors, LIKE wildcards, long ids, repeated parameters, request numbers, links and request ids.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { captureLogs } from './support/log-capture.ts';
import type { AnyRouteSpec } from '../src/http/route.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { parseResponse, rawExchange, rawRequest } from './support/raw-http.ts';

const { stream: logStream, lines: logLines } = captureLogs();

let t: TestApp;
before(async () => {
  t = await startTestApp({
    logger: { level: 'info', stream: logStream },
    // Tiny, so the tests see the server give up without waiting long.
    timeouts: { headersMs: 300, requestMs: 600 },
  });
});
after(async () => {
  await t.close();
});

/** A JSON:API error document with `status`, carrying the request id of its X-Request-Id header. */
function assertJsonApiError(res: { status: number; headers: Record<string, string> | Headers; body: any; text: string }, status: number) {
  const header = (name: string) => (res.headers instanceof Headers ? res.headers.get(name) : res.headers[name]) ?? undefined;
  assert.equal(res.status, status, res.text);
  assert.match(header('content-type') ?? '', /^application\/vnd\.api\+json/, res.text);
  assert.ok(Array.isArray(res.body?.errors) && res.body.errors.length > 0, res.text);
  const requestId = header('x-request-id');
  assert.ok(requestId, 'X-Request-Id header');
  for (const e of res.body.errors) {
    assert.equal(e.status, String(status));
    assert.equal(typeof e.title, 'string');
    assert.equal(e.meta?.request_id, requestId, `request id in ${res.text}`);
  }
  for (const member of ['error', 'message', 'statusCode']) assert.ok(!(member in res.body), `no fastify member ${member}`);
}

const auth = () => `Authorization: Token ${t.key}\r\n`;

describe('Host header (item 7)', () => {
  const cases: [string, () => string][] = [
    ['HTTP/1.0 without Host', () => `GET /v2/parties HTTP/1.0\r\n${auth()}\r\n`],
    ['Host with a space', () => `GET /v2/parties HTTP/1.1\r\nHost: a b\r\n${auth()}Connection: close\r\n\r\n`],
    ['Host: [', () => `GET /v2/parties HTTP/1.1\r\nHost: [\r\n${auth()}Connection: close\r\n\r\n`],
  ];
  for (const [name, request] of cases) {
    test(`${name} → 400 JSON:API on a /v2 route`, async () => {
      const res = await rawRequest(t.baseUrl, request());
      assertJsonApiError(res, 400);
      assert.equal(res.body.errors[0].source?.header, 'Host');
    });
  }

  test('a valid Host still works over HTTP/1.0', async () => {
    const res = await rawRequest(t.baseUrl, `GET /v2/parties HTTP/1.0\r\nHost: example.com\r\n${auth()}\r\n`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.links.self, 'http://example.com/v2/parties');
  });
});

describe('request timeouts (item 9)', () => {
  test('headers that never end → 408 JSON:API and the connection closed', async () => {
    const res = await rawExchange(t.baseUrl, (s) => void s.write('GET /v2/parties HTTP/1.1\r\nHost: x\r\n'), 10_000);
    assert.ok(res.closed, 'connection closed');
    assertJsonApiError(res, 408);
  });

  test('a body sent a byte at a time is cut off once the request time is up', async () => {
    let timer: NodeJS.Timeout | undefined;
    const res = await rawExchange(
      t.baseUrl,
      (s) => {
        s.write(`POST /v2/parties HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
        // A byte every 100 ms: never idle, never done.
        timer = setInterval(() => s.writable && s.write(' '), 100);
      },
      10_000,
    );
    clearInterval(timer);
    assert.ok(res.closed, 'connection closed');
    assertJsonApiError(res, 408);
  });
});

describe("the server's own errors are JSON:API (item 10)", () => {
  test('431 headers too large', async () => {
    const res = await rawRequest(t.baseUrl, `GET /v2/parties HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
    assertJsonApiError(res, 431);
  });

  test('400 for a request that is not HTTP', async () => {
    const res = await rawRequest(t.baseUrl, 'NOT HTTP AT ALL\r\n\r\n');
    assertJsonApiError(res, 400);
  });

  test('400 for Content-Length together with Transfer-Encoding', async () => {
    const res = await rawRequest(t.baseUrl, `POST /v2/parties HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{}`);
    assertJsonApiError(res, 400);
  });

  test('400 for a malformed percent-encoding in the path, without echoing it', async () => {
    const res = await rawRequest(t.baseUrl, `GET /v2/parties/%E0%A4%A HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
    assertJsonApiError(res, 400);
  });

  test('framework errors through fetch: 415, 413, 404 and 405', async () => {
    const cases: [number, Promise<any>][] = [
      [415, t.request('POST', '/v2/parties', { rawBody: 'x', headers: { 'content-type': 'text/plain' } })],
      [413, t.request('POST', '/v2/parties', { rawBody: `{"a":"${'x'.repeat(1_100_000)}"}` })],
      [404, t.request('GET', '/v2/nowhere')],
      [405, t.request('DELETE', '/v2/search')],
      [400, t.request('POST', '/v2/parties', { rawBody: '{' })],
      [401, t.request('GET', '/v2/parties', { key: null })],
    ];
    for (const [status, pending] of cases) assertJsonApiError(await pending, status);
  });
});

describe('shutting down (item 10)', () => {
  /** GET /v2/test_slow: answers once released; `inSlowRoute` resolves when a request has reached it. */
  function slowRoute() {
    let entered!: () => void;
    const inSlowRoute = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const route: AnyRouteSpec = {
      method: 'GET',
      url: '/v2/test_slow',
      summary: 'Answers once released',
      tag: 'Test',
      async handler() {
        entered();
        await released;
        return { body: { data: [] } };
      },
    };
    return { route, inSlowRoute, release };
  }

  test('a request arriving while the server drains → 503 JSON:API with Retry-After', async () => {
    const { route, inSlowRoute, release } = slowRoute();
    const logs = captureLogs();
    const app = await startTestApp({ routes: [route], logger: { level: 'info', stream: logs.stream } });
    const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Token ${app.key}\r\n\r\n`;
    let closed: Promise<void> | undefined;
    const res = await rawExchange(app.baseUrl, async (socket) => {
      socket.write(get('/v2/test_slow'));
      await inSlowRoute;
      closed = app.app.close();
      // preClose has run once the server stops listening.
      while (app.app.server.listening) await new Promise(setImmediate);
      socket.write(get('/v2/parties'));
      while (!logs.records().some((r) => r.req?.url === '/v2/parties')) await new Promise(setImmediate);
      release();
    });
    await closed;
    await app.database.drop();
    // The slow route's answer comes first on the connection; the 503 follows it.
    const second = parseResponse(res.raw.slice(res.raw.indexOf('HTTP/1.1 ', 1)));
    assert.equal(res.status, 200);
    assertJsonApiError(second, 503);
    assert.equal(second.headers['retry-after'], '1');
  });

  test('a connection whose request was under way when closing began is ended after its answer, so close() does not wait on the client', async () => {
    const { route, inSlowRoute, release } = slowRoute();
    const app = await startTestApp({ routes: [route] });
    let closed: Promise<void> | undefined;
    // A keep-alive client that sends nothing more: node's server.close() alone would leave this
    // connection open after the answer, for keepAliveTimeout (72 s), and close() would wait.
    const res = await rawExchange(app.baseUrl, async (socket) => {
      socket.write(`GET /v2/test_slow HTTP/1.1\r\nHost: x\r\nAuthorization: Token ${app.key}\r\n\r\n`);
      await inSlowRoute;
      closed = app.app.close();
      while (app.app.server.listening) await new Promise(setImmediate);
      release();
    });
    assert.equal(res.status, 200);
    assert.equal(res.closed, true, 'the server ended the connection once its answer was sent');
    await closed;
    await app.database.drop();
  });
});

describe('request ids (item 27)', () => {
  test('an error body carries the id of its request, the same one as the log lines', async () => {
    const res = await t.request('GET', '/v2/shipments/00000000-0000-4000-8000-000000000000', { headers: { 'x-request-id': 'edge-trace-1' } });
    assertJsonApiError(res, 404);
    assert.equal(res.body.errors[0].meta.request_id, 'edge-trace-1');
    const records = logLines.map((l) => JSON.parse(l));
    assert.ok(records.some((r) => r.reqId === 'edge-trace-1' && r.res?.statusCode === 404), 'completion log line with the same id');
  });

  test("an error raised below the router is logged with the id its body carries", async () => {
    const res = await rawRequest(t.baseUrl, `GET /v2/parties HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
    const id = res.body.errors[0].meta.request_id;
    const records = logLines.map((l) => JSON.parse(l));
    assert.ok(records.some((r) => r.reqId === id), `a log line with reqId ${id}`);
  });
});

describe('LIKE wildcards are literal (item 12)', () => {
  before(async () => {
    const tr = (request_number: string) => ({ data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number, scac: 'MAEU' } } });
    for (const number of ['LIKEABC123', 'LIKEXYZ789']) assert.equal((await t.request('POST', '/v2/tracking_requests', { body: tr(number) })).status, 201);
  });

  test('% and _ match nothing unless they are in the number', async () => {
    for (const q of ['%', '_', 'LIKE%', 'LIKE___123']) {
      const e = encodeURIComponent(q);
      for (const path of [`/v2/search?query=${e}`, `/v2/tracking_requests?q=${e}`, `/v2/shipments?q=${e}`]) {
        const res = await t.request('GET', path);
        assert.equal(res.status, 200, path);
        assert.deepEqual(res.body.data, [], `${path} → ${res.body.data.length} hits`);
      }
    }
    assert.equal((await t.request('GET', '/v2/search?query=LIKEABC')).body.data.length, 1, 'plain substrings still match');
    assert.equal((await t.request('GET', '/v2/tracking_requests?q=likexyz')).body.data.length, 1);
  });
});

describe('ids and repeated parameters (item 13)', () => {
  test('an id over 200 characters is an unknown id (404), not echoed', async () => {
    const long = 'a'.repeat(500);
    for (const path of [`/v2/shipments/${long}`, `/v2/vessels/${long}`, `/v2/ports/${long}`, `/v2/parties/${long}`]) {
      const res = await t.request('GET', path);
      assertJsonApiError(res, 404);
      assert.ok(!res.text.includes(long), 'the id is not echoed');
    }
  });

  test('a repeated single-valued parameter (examples?event=a&event=b) is named as given twice', async () => {
    const res = await t.request('GET', '/v2/webhook_notifications/examples?event=a&event=b');
    assertJsonApiError(res, 400);
    assert.equal(res.body.errors[0].source.parameter, 'event');
    assert.match(res.body.errors[0].detail, /^event was given 2 times/);
    for (const path of ['/v2/search?query=a&query=b', '/v2/tracking_requests?q=a&q=b', '/v2/shipments?page[size]=1&page%5Bsize%5D=2']) {
      const repeated = await t.request('GET', path);
      assertJsonApiError(repeated, 400);
      assert.equal(repeated.body.errors[0].code, 'repeated', path);
    }
  });
});

describe('request_number characters (item 14)', () => {
  test('control, zero-width, bidi, emoji and lone surrogates → 422 at the field', async () => {
    for (const number of ['ABC\u0001123', 'ABC\u200B123', 'ABC\u202E123', 'ABC\u{1F4E6}123', 'ABC\uD800123', 'ABC\u2028123', 'ABC\u0085123']) {
      const body = JSON.stringify({ data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: number, scac: 'MAEU' } } });
      const res = await t.request('POST', '/v2/tracking_requests', { rawBody: body });
      assertJsonApiError(res, 422);
      assert.equal(res.body.errors[0].source.pointer, '/data/attributes/request_number', JSON.stringify(number));
    }
  });
});

describe('links (items 18 and 23)', () => {
  test('a vessel fetched by IMO links to itself by id', async () => {
    const { rows } = await t.db.query('SELECT id, imo FROM vessels WHERE imo IS NOT NULL LIMIT 1');
    const res = await t.request('GET', `/v2/vessels/${rows[0].imo}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.data.links.self, `/v2/vessels/${rows[0].id}`);
  });

  test("an empty list's pagination has last", async () => {
    const other = await t.newAccount('Empty');
    const res = await t.request('GET', '/v2/parties', { key: other.key });
    assert.deepEqual(res.body.meta, { size: 0, total: 0, pagination: { current: 1, last: 1, records: 0 } });
  });

  test('page links carry percent-encoded brackets, and both forms are accepted', async () => {
    for (const path of ['/v2/tracking_requests?page[size]=1', '/v2/tracking_requests?page%5Bsize%5D=1']) {
      const res = await t.request('GET', path);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.length, 1);
      for (const [name, link] of Object.entries(res.body.links as Record<string, string>)) {
        assert.ok(!/[[\]]/.test(link), `${name}: ${link}`);
      }
      assert.match(res.body.links.next, /page%5Bnumber%5D=2&page%5Bsize%5D=1$/);
      assert.equal((await t.request('GET', new URL(res.body.links.next).pathname + new URL(res.body.links.next).search)).body.data.length, 1);
    }
  });
});
