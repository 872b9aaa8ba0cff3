// How a failed lookup maps onto the contract's outcomes. The whole table, success included:
//
// | what happened                                             | outcome                            | temporary |
// | --------------------------------------------------------- | ---------------------------------- | --------- |
// | 200 with ≥ 1 readable event (unreadable ones ride along   | found                              |           |
// |   as snapshot.rejected, each with its reason)             |                                    |           |
// | … one of them an actual SHIPMENT CANC/CACF on the booking | failed booking_cancelled           | no        |
// | 200 with no events (not manifested yet, may still come)   | failed not_found                   | yes       |
// | 404 (the carrier says the number does not exist)          | failed not_found                   | no        |
// | … but the lookup had `since` (nothing new is not "none")  | found, without new events          |           |
// | 400                                                       | failed invalid_number              | no        |
// | 401, 403 (the carrier withholds the data from us)         | failed data_unavailable            | no        |
// | 408, 429, 5xx                                             | failed shipping_line_unreachable   | yes       |
// | connection error, timeout, redirect                       | failed shipping_line_unreachable   | yes       |
// | 429 whose Retry-After is longer than a request may wait,  | failed shipping_line_unreachable   | yes       |
// |   or a request while the carrier's Retry-After holds      |                                    |           |
// | token endpoint refused the credentials (4xx)              | failed data_unavailable            | no        |
// | token endpoint unreachable, 429 or 5xx, no access_token   | failed shipping_line_unreachable   | yes       |
// | any other status (405, 409, 410, 422…)                    | failed unrecognized_response       | yes       |
// | body not JSON, wrong shape, not one event readable,       | failed unrecognized_response       | yes       |
// |   more pages than the cap, Next-Page to another host      |                                    |           |
// | an exception in our own code                              | failed internal_processing_error   | yes       |
//
// Terminal data is best-effort and never changes the outcome (see connector.ts).
import type { FailedReason, LookupOutcome } from '../types.ts';
import { CarrierAuthError, DcsaHttpError, DcsaUnreachableError, RateLimitedError, UnrecognizedResponseError } from './errors.ts';

export function failed(reason: FailedReason, temporary: boolean, detail: string): LookupOutcome {
  return { kind: 'failed', reason, temporary, detail };
}

export function failureFor(error: unknown): LookupOutcome {
  if (error instanceof DcsaHttpError) return httpFailure(error);
  if (error instanceof DcsaUnreachableError || error instanceof RateLimitedError) return failed('shipping_line_unreachable', true, error.message);
  if (error instanceof CarrierAuthError) return error.temporary ? failed('shipping_line_unreachable', true, error.message) : failed('data_unavailable', false, error.message);
  if (error instanceof UnrecognizedResponseError) return failed('unrecognized_response', true, error.message);
  return failed('internal_processing_error', true, error instanceof Error ? error.message : String(error));
}

function httpFailure(error: DcsaHttpError): LookupOutcome {
  const { status, message } = error;
  if (status === 400) return failed('invalid_number', false, message);
  if (status === 401 || status === 403) return failed('data_unavailable', false, message);
  if (status === 404) return failed('not_found', false, message);
  if (status === 408 || status === 429 || status >= 500) return failed('shipping_line_unreachable', true, message);
  return failed('unrecognized_response', true, message);
}
