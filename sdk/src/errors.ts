// What a failed request becomes: one class per kind of failure, so callers branch with
// `instanceof` rather than on status numbers, each carrying the JSON:API `errors` svc sent.

/** One entry of a JSON:API `errors` array, as svc sends it. */
export interface ApiErrorObject {
  status?: string;
  title?: string;
  detail?: string | null;
  code?: string;
  source?: { pointer?: string; parameter?: string } | null;
  meta?: Record<string, unknown>;
}

/** Any failure of a request to svc. */
export class SvcError extends Error {
  override name = 'SvcError';
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** The JSON:API errors of the response (empty when there was none). */
  readonly errors: ApiErrorObject[];
  /** svc's x-request-id of the failed response, to quote in a bug report. */
  readonly requestId?: string;

  constructor(message: string, status: number, errors: ApiErrorObject[] = [], requestId?: string, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
    this.errors = errors;
    this.requestId = requestId;
  }

  /** The JSON pointers (or query parameters) the errors name, e.g. `/data/attributes/scac`. */
  get pointers(): string[] {
    return this.errors.flatMap((e) => [e.source?.pointer, e.source?.parameter].filter((p): p is string => typeof p === 'string'));
  }
}

/** 400 or 422: the request or one of its members is wrong; `pointers` name them. */
export class ValidationError extends SvcError {
  override name = 'ValidationError';
}
/** 401: no API key, or one svc does not know (or that was revoked). */
export class AuthenticationError extends SvcError {
  override name = 'AuthenticationError';
}
/** 403: the key is valid but may not do this. */
export class AuthorizationError extends SvcError {
  override name = 'AuthorizationError';
}
/** 403 for a feature the account does not have (e.g. routing data). */
export class FeatureNotEnabledError extends AuthorizationError {
  override name = 'FeatureNotEnabledError';
}
/** 404: no such record in this account (or no such route). */
export class NotFoundError extends SvcError {
  override name = 'NotFoundError';
}
/** 429: over a rate limit; `retryAfterSeconds` says when the bucket has room again. */
export class RateLimitError extends SvcError {
  override name = 'RateLimitError';
  readonly retryAfterSeconds?: number;
  constructor(message: string, status: number, errors: ApiErrorObject[], requestId: string | undefined, retryAfterSeconds: number | undefined) {
    super(message, status, errors, requestId);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
/** 5xx: svc (or the database behind it) failed; worth retrying later. */
export class ServerError extends SvcError {
  override name = 'ServerError';
}
/** No answer: the connection failed or an attempt ran past its timeout. */
export class ConnectionError extends SvcError {
  override name = 'ConnectionError';
}

/** The error a response with this status and body stands for. */
export function errorFor(status: number, body: unknown, requestId: string | undefined, retryAfterSeconds: number | undefined): SvcError {
  const errors = errorObjects(body);
  const first = errors[0];
  const text = [first?.title, first?.detail].filter(Boolean).join(': ');
  const where = `HTTP ${status}${requestId ? `, request ${requestId}` : ''}`;
  const message = text ? `${text} (${where})` : where; // no JSON:API errors, e.g. a proxy's HTML page
  if (status === 400 || status === 422) return new ValidationError(message, status, errors, requestId);
  if (status === 401) return new AuthenticationError(message, status, errors, requestId);
  if (status === 403) {
    const words = errors.map((e) => `${e.title ?? ''} ${e.detail ?? ''}`).join(' ');
    return /not enabled|feature/i.test(words) ? new FeatureNotEnabledError(message, status, errors, requestId) : new AuthorizationError(message, status, errors, requestId);
  }
  if (status === 404) return new NotFoundError(message, status, errors, requestId);
  if (status === 429) return new RateLimitError(message, status, errors, requestId, retryAfterSeconds);
  if (status >= 500) return new ServerError(message, status, errors, requestId);
  return new SvcError(message, status, errors, requestId);
}

function errorObjects(body: unknown): ApiErrorObject[] {
  if (typeof body !== 'object' || body === null) return [];
  const errors = (body as { errors?: unknown }).errors;
  return Array.isArray(errors) ? errors.filter((e): e is ApiErrorObject => typeof e === 'object' && e !== null) : [];
}
