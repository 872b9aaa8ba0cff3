// What a shipments list URL asks for (search, filters, order, page) and how it becomes one call of
// GET /v2/shipments. Every view is a plain GET URL, so it can be bookmarked and shared; the page's
// own parameter names are short, and the API's rules (codes, statuses) stay the API's.
import type { QueryOf } from '../../../sdk/src/types.ts';

type ListQuery = QueryOf<'getV2Shipments'>;
export type SortField = NonNullable<ListQuery['sort']> extends `-${infer F}` | infer F ? F : never;

/** Rows a page shows: one screen of a laptop, and one cheap call whatever the account's size. */
export const PAGE_SIZE = 25;
/** The "arriving within" choices the form offers; a shared URL may carry any day count up to the last. */
export const ARRIVING_DAYS = [3, 7, 14, 30] as const;
const MAX_ARRIVING_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ShipmentsView {
  q: string;
  status: string;
  carrier: string;
  pol: string;
  pod: string;
  /** Days from now; '' for any time. */
  arriving: string;
  /** 'yes', 'no' or '' (either). */
  hold: string;
  stopped: string;
  /** An API sort (`-field` for descending); '' for newest first. */
  sort: string;
  page: number;
}

/** The view's fields a form names, in the order the filters read. */
export const FILTER_FIELDS = ['status', 'carrier', 'pol', 'pod', 'arriving', 'hold', 'stopped'] as const;

/** The view a query string asks for; a value the page itself cannot read is reported against its field. */
export function viewOf(query: Record<string, unknown>): { view: ShipmentsView; problems: Record<string, string> } {
  const text = (name: string) => {
    const value = query[name];
    return (Array.isArray(value) ? String(value[0] ?? '') : typeof value === 'string' ? value : '').trim();
  };
  const problems: Record<string, string> = {};
  const arriving = text('arriving');
  if (arriving && !(/^\d{1,3}$/.test(arriving) && Number(arriving) >= 1 && Number(arriving) <= MAX_ARRIVING_DAYS)) {
    problems.arriving = `Arriving within is a number of days from 1 to ${MAX_ARRIVING_DAYS}.`;
  }
  const page = /^\d{1,6}$/.test(text('page')) && Number(text('page')) >= 1 ? Number(text('page')) : 1;
  const yesNo = (name: string) => (['yes', 'no'].includes(text(name)) ? text(name) : '');
  return {
    view: {
      q: text('q'),
      status: text('status'),
      carrier: text('carrier'),
      pol: text('pol'),
      pod: text('pod'),
      arriving: problems.arriving ? '' : arriving,
      hold: yesNo('hold'),
      stopped: yesNo('stopped'),
      sort: text('sort'),
      page,
    },
    problems,
  };
}

/** Whether the view narrows the list at all (for the empty state: none yet, or none matching). */
export const isNarrowed = (v: ShipmentsView) => Boolean(v.q || FILTER_FIELDS.some((f) => v[f]));

/**
 * The one list call of a view: the page's containers come in the same response (include), so a
 * page costs one request whatever its rows hold. `now` bounds "arriving within N days".
 */
export function listQuery(v: ShipmentsView, now: Date): ListQuery {
  const yesNo = (value: string) => (value ? value === 'yes' : undefined);
  const list = (value: string) => (value ? value.split(',').map((s) => s.trim()) : undefined);
  return {
    include: 'containers',
    'page[size]': PAGE_SIZE,
    'page[number]': v.page,
    q: v.q || undefined,
    'filter[status]': list(v.status) as ListQuery['filter[status]'],
    'filter[line_scac]': list(v.carrier),
    'filter[pol_locode]': list(v.pol),
    'filter[pod_locode]': list(v.pod),
    'filter[on_hold]': yesNo(v.hold),
    'filter[tracking_stopped]': yesNo(v.stopped),
    ...(v.arriving ? { 'filter[pod_eta_at][start]': now.toISOString(), 'filter[pod_eta_at][end]': new Date(now.getTime() + Number(v.arriving) * DAY_MS).toISOString() } : {}),
    sort: (v.sort || undefined) as ListQuery['sort'],
  };
}

/** Which of the page's fields an API error's `source.parameter` is about. */
export const FIELD_OF_PARAMETER: Record<string, keyof ShipmentsView> = {
  q: 'q',
  'filter[status]': 'status',
  'filter[line_scac]': 'carrier',
  'filter[pol_locode]': 'pol',
  'filter[pod_locode]': 'pod',
  'filter[pod_eta_at][start]': 'arriving',
  'filter[pod_eta_at][end]': 'arriving',
  'filter[on_hold]': 'hold',
  'filter[tracking_stopped]': 'stopped',
  sort: 'sort',
  'page[number]': 'page',
};

/** The URL of the view with `changes`; defaults are left out, so URLs stay short. */
export function viewHref(v: ShipmentsView, changes: Partial<ShipmentsView> = {}): string {
  const next = { ...v, ...changes };
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(next)) {
    if (name === 'page' ? value !== 1 : value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `/shipments?${search}` : '/shipments';
}

/** The current order of `field`, if the view is sorted by it. */
export function sortOf(v: ShipmentsView, field: SortField): 'ascending' | 'descending' | undefined {
  if (v.sort === field) return 'ascending';
  if (v.sort === `-${field}`) return 'descending';
  return undefined;
}
