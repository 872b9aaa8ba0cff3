// What a service refuses, and why, in words every face of svc can pass on: the REST API turns these
// into JSON:API errors (src/http/domain-errors.ts), and a face added later gives them its own form.
// Each carries a stable machine `code` and a `detail` for people.

/**
 * Where in the input a problem is: a path into the request document the client sent, as zod
 * reports paths (['data', 'attributes', 'scac']). The REST API answers it as a JSON pointer.
 */
export type FieldPath = readonly (string | number)[];

export abstract class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    /** Machine-readable details a client can act on (candidates, limits…). */
    readonly meta?: Record<string, unknown>,
  ) {
    super(detail);
  }
}

/** The record the request names does not exist (or is not the caller's to see). */
export class NotFound extends DomainError {
  constructor(detail = 'The requested resource does not exist.', code = 'not_found', meta?: Record<string, unknown>) {
    super(code, detail, meta);
  }
}

/** The request clashes with a record that exists already; `field` names the clashing value. */
export class Conflict extends DomainError {
  constructor(
    code: string,
    detail: string,
    readonly field?: FieldPath,
    meta?: Record<string, unknown>,
  ) {
    super(code, detail, meta);
  }
}

/** A value breaks a rule: blank, unknown, unsupported… `field` is the value at fault. */
export class Invalid extends DomainError {
  constructor(
    readonly field: FieldPath,
    detail: string,
    code = 'invalid',
    meta?: Record<string, unknown>,
  ) {
    super(code, detail, meta);
  }
}

/** The caller has used up an allowance; `retryAfterMs` when waiting helps. */
export class LimitExceeded extends DomainError {
  constructor(
    code: string,
    detail: string,
    readonly retryAfterMs?: number,
    meta?: Record<string, unknown>,
  ) {
    super(code, detail, meta);
  }
}

/** The account does not have `feature` (the operator switched it off): no input would help. */
export class FeatureNotEnabled extends DomainError {
  constructor(
    readonly feature: string,
    detail: string,
  ) {
    super('feature_not_enabled', detail);
  }
}

/** The request carries more than svc accepts (a document over the size cap). */
export class TooLarge extends DomainError {
  constructor(
    detail: string,
    readonly maxBytes: number,
  ) {
    super('too_large', detail, { max_bytes: maxBytes });
  }
}
