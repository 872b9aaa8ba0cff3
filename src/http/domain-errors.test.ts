import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Conflict, FeatureNotEnabled, Invalid, LimitExceeded, NotFound } from '../domain/errors.ts';
import { apiErrorOf } from './domain-errors.ts';

const answer = (err: unknown) => {
  const api = apiErrorOf(err);
  return api && { status: api.status, errors: api.errors, headers: api.headers };
};

test('Invalid is a 422 whose pointer is the field path, escaped as JSON pointers are', () => {
  assert.deepEqual(answer(new Invalid(['data', 'attributes', 'scac'], "Scac can't be blank", 'blank')), {
    status: 422,
    errors: [{ status: '422', title: 'Unprocessable Entity', detail: "Scac can't be blank", code: 'blank', source: { pointer: '/data/attributes/scac' } }],
    headers: {},
  });
  const odd = apiErrorOf(new Invalid(['data', 'attributes', 'a/b~c', 0], 'x'))!;
  assert.deepEqual(odd.errors[0].source, { pointer: '/data/attributes/a~1b~0c/0' });
  assert.equal(odd.errors[0].code, 'invalid');
});

test('meta comes after the pointer, as the error objects svc answered before', () => {
  const api = apiErrorOf(new Invalid(['data', 'attributes', 'scac'], 'No line.', 'scac_auto_detect_failed', { decision: 'no_prediction' }))!;
  assert.equal(JSON.stringify(api.errors[0]), '{"status":"422","title":"Unprocessable Entity","detail":"No line.","code":"scac_auto_detect_failed","source":{"pointer":"/data/attributes/scac"},"meta":{"decision":"no_prediction"}}');
});

test('a Conflict over a submitted value is a 422 at its pointer; without one, a 409', () => {
  assert.deepEqual(answer(new Conflict('duplicate', 'Already tracked.', ['data', 'attributes', 'request_number'])), {
    status: 422,
    errors: [{ status: '422', title: 'Unprocessable Entity', detail: 'Already tracked.', code: 'duplicate', source: { pointer: '/data/attributes/request_number' } }],
    headers: {},
  });
  assert.deepEqual(answer(new Conflict('exists', 'Exists.', undefined, { id: 'x' })), {
    status: 409,
    errors: [{ status: '409', title: 'Conflict', detail: 'Exists.', code: 'exists', meta: { id: 'x' } }],
    headers: {},
  });
});

test('NotFound is a 404 with the code not_found unless it names another', () => {
  assert.deepEqual(answer(new NotFound()), {
    status: 404,
    errors: [{ status: '404', title: 'Not Found', detail: 'The requested resource does not exist.', code: 'not_found' }],
    headers: {},
  });
  assert.equal(apiErrorOf(new NotFound('No such party.', 'party_not_found'))!.errors[0].code, 'party_not_found');
});

test('LimitExceeded is a 429 with Retry-After in whole seconds (at least 1) when waiting helps', () => {
  assert.deepEqual(answer(new LimitExceeded('rate_limited', 'Slow down.', 1_200)), {
    status: 429,
    errors: [{ status: '429', title: 'Too Many Requests', detail: 'Slow down.', code: 'rate_limited' }],
    headers: { 'retry-after': '2' },
  });
  assert.equal(apiErrorOf(new LimitExceeded('quota', 'Used up.', 10))!.headers['retry-after'], '1');
  assert.deepEqual(apiErrorOf(new LimitExceeded('quota', 'Used up.'))!.headers, {});
});

test('anything else is not a domain error: the error handler answers it as before', () => {
  assert.equal(apiErrorOf(new Error('boom')), undefined);
  assert.equal(apiErrorOf('text'), undefined);
});

test('FeatureNotEnabled is a 403 with exactly the title and detail, as the reference service answers it', () => {
  assert.deepEqual(answer(new FeatureNotEnabled('routing', 'Routing data feature is not enabled for this account')), {
    status: 403,
    errors: [{ status: '403', title: 'Forbidden', detail: 'Routing data feature is not enabled for this account' }],
    headers: {},
  });
});
