// The sign-in throttle's three counts: one guesser at one account from one address meets the
// pair's limit; guessers at one account from many addresses meet the e-mail address's; one address
// guessing at many accounts meets the far higher address ceiling; users behind that address whom
// nobody failed against sign in meanwhile, and every wait ends with the window.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../src/clock.ts';
import { LimitExceeded } from '../src/domain/errors.ts';
import { SIGN_IN_FAILURES, SignInThrottle } from '../src/services/sign-in-throttle.ts';

const OFFICE = '203.0.113.7';
const limited = (fn: () => void) => assert.throws(fn, (err: unknown) => err instanceof LimitExceeded && err.code === 'too_many_sign_in_attempts' && err.retryAfterMs! > 0);

function fail(throttle: SignInThrottle, address: string, email: string, times: number): void {
  for (let i = 0; i < times; i++) {
    throttle.check(address, email);
    throttle.failed(address, email);
  }
}

test('one address failing at one account is stopped there; other users behind the address are not', () => {
  const clock = new ManualClock();
  const throttle = new SignInThrottle(clock);
  fail(throttle, OFFICE, 'ann@example.com', SIGN_IN_FAILURES.pair);
  limited(() => throttle.check(OFFICE, 'ann@example.com'));
  limited(() => throttle.check(OFFICE, ' ANN@example.com '));
  throttle.check(OFFICE, 'bob@example.com');
  // Ann herself, from elsewhere, is not stopped by one address's guesses.
  throttle.check('198.51.100.1', 'ann@example.com');
  clock.advance(SIGN_IN_FAILURES.windowMs);
  throttle.check(OFFICE, 'ann@example.com');
});

test('failures at one account from many addresses stop that account everywhere', () => {
  const throttle = new SignInThrottle(new ManualClock());
  for (let i = 0; i < SIGN_IN_FAILURES.email; i++) fail(throttle, `198.51.100.${i}`, 'ann@example.com', 1);
  limited(() => throttle.check('198.51.100.250', 'ann@example.com'));
  throttle.check('198.51.100.250', 'bob@example.com');
});

test('one address failing at many accounts meets the address ceiling, far above one account’s limit', () => {
  const clock = new ManualClock();
  const throttle = new SignInThrottle(clock);
  assert.ok(SIGN_IN_FAILURES.address >= 5 * SIGN_IN_FAILURES.pair);
  for (let i = 0; i < SIGN_IN_FAILURES.address; i++) fail(throttle, OFFICE, `user${i}@example.com`, 1);
  limited(() => throttle.check(OFFICE, 'someone-else@example.com'));
  throttle.check('198.51.100.1', 'someone-else@example.com');
  clock.advance(SIGN_IN_FAILURES.windowMs);
  throttle.check(OFFICE, 'someone-else@example.com');
});

test('a success clears its account’s failures; link guesses count per address only', () => {
  const throttle = new SignInThrottle(new ManualClock());
  fail(throttle, OFFICE, 'ann@example.com', SIGN_IN_FAILURES.pair - 1);
  throttle.succeeded(OFFICE, 'ann@example.com');
  fail(throttle, OFFICE, 'ann@example.com', SIGN_IN_FAILURES.pair - 1);
  throttle.check(OFFICE, 'ann@example.com');

  fail(throttle, OFFICE, '', SIGN_IN_FAILURES.pair);
  limited(() => throttle.check(OFFICE, ''));
  throttle.check('198.51.100.1', '');
  throttle.check(OFFICE, 'bob@example.com');
});
