// One HTTP exchange with a carrier (or terminal) endpoint. The timeout covers the whole
// exchange, body included, so a server that trickles bytes cannot hold a worker. Redirects are
// refused: following one would send the API key wherever the carrier (or an attacker on its
// path) points us.
import { DcsaHttpError, DcsaUnreachableError, UnrecognizedResponseError } from './errors.ts';

export interface HttpSettings {
  fetch: typeof fetch;
  timeoutMs: number;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: string;
}

export async function exchange(
  settings: HttpSettings,
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
): Promise<HttpAnswer> {
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    const response = await settings.fetch(url, { ...init, signal, redirect: 'error' });
    return { status: response.status, headers: response.headers, body: await response.text() };
  } catch (error) {
    if (signal.aborted) throw new DcsaUnreachableError(`${init.method} ${url.origin}${url.pathname}: no answer within ${settings.timeoutMs} ms`);
    throw new DcsaUnreachableError(`${init.method} ${url.origin}${url.pathname}: ${describe(error)}`, { cause: error });
  }
}

/** The JSON body of a 2xx answer; anything else becomes the matching typed error. */
export function jsonBody(answer: HttpAnswer): unknown {
  if (answer.status < 200 || answer.status > 299) throw new DcsaHttpError(answer.status, excerpt(answer.body));
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new UnrecognizedResponseError(`HTTP ${answer.status} body is not JSON: ${JSON.stringify(excerpt(answer.body))}`);
  }
}

function excerpt(body: string): string {
  return body.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** undici reports "fetch failed" and hides the useful part (ECONNREFUSED, "redirect") in the cause. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const detail = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : cause?.message;
  return detail ? `${error.message} (${detail})` : error.message;
}
