// Typed failures of the DCSA client. The connector turns each into a lookup outcome, so every
// way a carrier can misbehave ends up as exactly one of these (or a plain Error: our own bug).

/** The carrier answered, but not with something we can read: not JSON, wrong shape, a required member missing. */
export class UnrecognizedResponseError extends Error {
  override name = 'UnrecognizedResponseError';
}

/** The carrier answered with a non-2xx HTTP status. */
export class DcsaHttpError extends Error {
  override name = 'DcsaHttpError';
  constructor(
    readonly status: number,
    /** The start of the response body, for logs and outcome details. */
    readonly bodyExcerpt: string,
  ) {
    super(`HTTP ${status}${bodyExcerpt ? `: ${bodyExcerpt}` : ''}`);
  }
}

/** No HTTP answer at all: connection refused or reset, DNS failure, timeout, a redirect (refused on purpose). */
export class DcsaUnreachableError extends Error {
  override name = 'DcsaUnreachableError';
}

/** Authentication could not be had: the token endpoint refused the credentials, or could not be reached. */
export class CarrierAuthError extends Error {
  override name = 'CarrierAuthError';
  readonly temporary: boolean;
  /** The token endpoint's HTTP status, when it answered. */
  readonly status?: number;
  constructor(message: string, options: { temporary: boolean; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.temporary = options.temporary;
    this.status = options.status;
  }
}

/** The carrier asked svc to wait (429 and Retry-After) longer than a request may wait. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
}
