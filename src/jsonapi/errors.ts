// JSON:API error objects and the exception that carries them to the HTTP layer.
import { STATUS_CODES } from 'node:http';

export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  code?: string;
  /** `header` (JSON:API 1.1) names a request header at fault. */
  source?: { pointer?: string; parameter?: string; header?: string };
  meta?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorObject[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.detail ?? e.title).join('; '));
  }

  static of(status: number, fields: Omit<ErrorObject, 'status' | 'title'> & { title?: string }, headers?: Record<string, string>): ApiError {
    return new ApiError(status, [errorObject(status, fields)], headers);
  }
}

export function errorObject(status: number, fields: Omit<ErrorObject, 'status' | 'title'> & { title?: string }): ErrorObject {
  const { title, ...rest } = fields;
  return { status: String(status), title: title ?? STATUS_CODES[status] ?? 'Error', ...rest };
}

export const badParameter = (parameter: string, detail: string, code = 'invalid') =>
  ApiError.of(400, { detail, code, source: { parameter } });

export const notFound = (detail = 'The requested resource does not exist.') => ApiError.of(404, { detail, code: 'not_found' });

/** 422 for one attribute; `pointer` is a JSON pointer into the request document. */
export const unprocessable = (pointer: string, detail: string, code = 'invalid') =>
  ApiError.of(422, { detail, code, source: { pointer } });
