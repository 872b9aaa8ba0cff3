// Where the next page of events is. 2.2's `Next-Page` header is "a link to the next page",
// which implementations fill either with a URL (absolute or relative) or with a bare cursor;
// 3.0's `Next-Page-Cursor` is always a cursor. A cursor goes back with the first page's query
// unchanged: 3.0 requires it, and 2.2 servers accept it.
import { UnrecognizedResponseError } from './errors.ts';
import type { DcsaVersion } from './normalize.ts';

export function nextPageUrl(version: DcsaVersion, headers: Pick<Headers, 'get'>, current: URL, firstPage: URL): URL | null {
  const value = headers.get(version === '2.2' ? 'Next-Page' : 'Next-Page-Cursor')?.trim();
  if (!value) return null;
  if (version === '2.2' && /^(https?:\/\/|[/?])/i.test(value)) {
    const url = new URL(value, current);
    // Our API key goes with every page: never to a host the carrier's answer picked.
    if (url.origin !== firstPage.origin) throw new UnrecognizedResponseError(`Next-Page points to another origin (${url.origin})`);
    return url;
  }
  const url = new URL(firstPage);
  // Appended by hand: URLSearchParams would rewrite `eventCreatedDateTime:gte` as `%3A`.
  url.search = `${firstPage.search}${firstPage.search ? '&' : '?'}cursor=${encodeURIComponent(value)}`;
  return url;
}
