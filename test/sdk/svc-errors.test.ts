// The error classes a real svc's answers become, with svc's own JSON:API errors and pointers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AuthenticationError, NotFoundError, RateLimitError, SvcClient, ValidationError } from '../../sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let svc: SvcClient;
before(async () => {
  app = await startTestApp();
  svc = new SvcClient({ baseUrl: app.baseUrl, token: app.key });
});
after(() => app.close());

test('401 for a key svc does not know', async () => {
  const err = await new SvcClient({ baseUrl: app.baseUrl, token: 'not-a-key-of-this-svc' }).shipments.list().catch((e: unknown) => e);
  assert.ok(err instanceof AuthenticationError, String(err));
  assert.equal(err.status, 401);
  assert.equal(err.errors[0].status, '401');
});

test('404 for a record this account does not have', async () => {
  const err = await svc.containers.get('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
  assert.ok(err instanceof NotFoundError, String(err));
  assert.equal(err.status, 404);
  assert.ok(err.requestId, 'the request id to quote');
});

test('422 names the attribute by its pointer', async () => {
  const err = await svc.trackingRequests.create({ request_type: 'bill_of_lading', request_number: '', scac: 'TEST' }).catch((e: unknown) => e);
  assert.ok(err instanceof ValidationError, String(err));
  assert.equal(err.status, 422);
  assert.deepEqual(err.pointers, ['/data/attributes/request_number']);
  assert.match(err.message, /request_number/);
});

test('400 for an unknown include names the parameter', async () => {
  const err = await svc.containers.list({ include: ['bogus'] }).catch((e: unknown) => e);
  assert.ok(err instanceof ValidationError, String(err));
  assert.equal(err.status, 400);
  assert.deepEqual(err.pointers, ['include']);
  assert.equal(err.errors[0].code, 'invalid_include');
});

test('429 past the default bucket (100 a minute): RateLimitError with Retry-After in seconds', async () => {
  const { key } = await app.newAccount('Busy');
  const busy = new SvcClient({ baseUrl: app.baseUrl, token: key, maxRetries: 0 });
  for (let i = 0; i < 100; i++) await busy.parties.list();
  const err = await busy.parties.list().catch((e: unknown) => e);
  assert.ok(err instanceof RateLimitError, String(err));
  assert.ok(err.retryAfterSeconds! >= 1 && err.retryAfterSeconds! <= 60, `retryAfterSeconds ${err.retryAfterSeconds}`);
  assert.equal(err.errors[0].code, 'rate_limited');
  // Another key's bucket is its own.
  assert.equal((await svc.parties.list()).total, 0);
});
