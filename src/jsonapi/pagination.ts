// Page links and meta in the shape the reference service returns.
import type { Links, PageMeta } from './document.ts';
import type { Page } from './query.ts';

function pageUrl(url: URL, number: number, size: number): string {
  const u = new URL(url);
  u.searchParams.delete('page[number]');
  u.searchParams.delete('page[size]');
  u.searchParams.set('page[number]', String(number));
  u.searchParams.set('page[size]', String(size));
  // Percent-encoded brackets, so the link works as is in curl and strict URL parsers.
  return u.href;
}

/**
 * Links and meta of a page of `count` records out of `total`. When `totalIsLowerBound`, the list
 * has more than `total` records (the store counts a bounded number past the page, see
 * store/account-rows.ts): `last` is then the last page known to exist, not the list's end, and
 * meta says so; `next` is right either way.
 */
export function paginate(url: URL, page: Page, total: number, count: number, totalIsLowerBound = false): { links: Links; meta: PageMeta } {
  const last = Math.max(1, Math.ceil(total / page.size));
  const links: Links = {
    self: url.href,
    current: pageUrl(url, page.number, page.size),
    first: pageUrl(url, 1, page.size),
  };
  if (page.number > 1) links.prev = pageUrl(url, Math.min(page.number - 1, last), page.size);
  if (page.number < last) links.next = pageUrl(url, page.number + 1, page.size);
  links.last = pageUrl(url, last, page.size);
  const pagination: PageMeta['pagination'] = {
    current: page.number,
    ...(page.number < last ? { next: page.number + 1 } : {}),
    // An empty list has one (empty) page, as links.last says.
    last,
    records: total,
  };
  return { links, meta: { size: count, total, ...(totalIsLowerBound ? { total_is_lower_bound: true } : {}), pagination } };
}
