// What a failed request to svc says at the terminal: one line, from the JSON:API errors svc sent.
import { ConnectionError, SvcError } from '../../sdk/src/index.ts';

/**
 * `<title>: <detail> (at <pointer>)` for each error svc sent, joined with `; `; the SDK's own
 * message when there were none (an HTML page from a proxy, no answer at all).
 */
export function describeFailure(err: SvcError): string {
  if (err instanceof ConnectionError) return `cannot reach the API (${err.message}); is svc running there? (--base-url or SVC_API_BASE_URL)`;
  if (err.errors.length === 0) return err.message;
  return err.errors
    .map((e) => {
      const where = [e.source?.pointer, e.source?.parameter].filter(Boolean);
      const text = [e.title, e.detail].filter(Boolean).join(': ') || `HTTP ${err.status}`;
      return where.length ? `${text} (at ${where.join(', ')})` : text;
    })
    .join('; ');
}
