// The shipments list: the home page of a signed-in user. Search, filters, order and page are all
// in the URL (a GET form and links), and a page is one call of GET /v2/shipments as the user's
// account, with its containers included: the API's rules and account scope, no copy of them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../sdk/src/errors.ts';
import type { Container, Shipment } from '../../../sdk/src/types.ts';
import { CONTAINER_STATUSES } from '../../domain/tracking/types.ts';
import { assetUrl } from '../assets.ts';
import type { WebOptions } from '../context.ts';
import { badgeClass, containerStatusTone, containerStatusWords, localDateTime, relativeTime, utcTitle } from '../format.ts';
import { Alert, Layout } from '../layout.tsx';
import { sendPage } from '../render.tsx';
import {
  ARRIVING_DAYS,
  FIELD_OF_PARAMETER,
  isNarrowed,
  listQuery,
  PAGE_SIZE,
  sortOf,
  viewHref,
  viewOf,
  type ShipmentsView,
  type SortField,
} from './shipments-view.ts';

interface Listing {
  items: Shipment[];
  total: number;
  /** The API counted only so far: there are at least `total`. */
  totalIsLowerBound: boolean;
}

export function shipmentsRoutes(web: FastifyInstance, options: WebOptions): void {
  web.get('/shipments', async (req, reply) => {
    const { view, problems } = viewOf(req.query as Record<string, unknown>);
    const now = (options.trackingClock ?? options.clock).now();
    let listing: Listing | undefined;
    if (Object.keys(problems).length === 0) {
      try {
        const page = await req.svc.shipments.list(listQuery(view, now));
        listing = { items: page.items, total: page.total, totalIsLowerBound: page.totalIsLowerBound };
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        // The API refused a filter (a malformed SCAC or UN/LOCODE): its words, next to the field.
        for (const e of err.errors) {
          const field = FIELD_OF_PARAMETER[e.source?.parameter ?? ''] ?? 'q';
          problems[field] = e.detail ?? e.title ?? 'This value is not accepted.';
        }
      }
    }
    return sendPage(reply, <ShipmentsPage req={req} view={view} problems={problems} listing={listing} now={now} />, listing ? 200 : 400);
  });
}

function ShipmentsPage({ req, view, problems, listing, now }: { req: FastifyRequest; view: ShipmentsView; problems: Record<string, string>; listing?: Listing; now: Date }) {
  const lastPage = listing ? Math.max(1, Math.ceil(listing.total / PAGE_SIZE)) : 1;
  return (
    <Layout req={req} title="Shipments" section="shipments" styles={['/assets/shipments.css']} scripts={[assetUrl('live.js')]}>
      <div class="list-head">
        <h1>Shipments</h1>
        <a class="button secondary" href="/track">
          Track a shipment
        </a>
      </div>
      <Filters view={view} problems={problems} />
      {/* live.js refetches this URL when a shipment changes and swaps the list in: statuses, ETAs and checks stay current. */}
      <div data-live="shipments" data-live-region="shipments-list">
        {!listing ? (
          <Alert message="Some of the search could not be read: see the fields marked above." />
        ) : listing.total === 0 ? (
          <Empty view={view} />
        ) : listing.items.length === 0 ? (
          <p class="card">
            Page {view.page} is past the end: there {listing.total === 1 ? 'is 1 shipment' : `are ${count(listing.total)} shipments`}.{' '}
            <a href={viewHref(view, { page: lastPage })}>Go to the last page</a>.
          </p>
        ) : (
          <>
            <p class="muted" role="status">
              {count(listing.total)}
              {listing.totalIsLowerBound && '+'} {listing.total === 1 ? 'shipment' : 'shipments'}
              {lastPage > 1 && `, page ${view.page} of ${lastPage}${listing.totalIsLowerBound ? '+' : ''}`}
              {isNarrowed(view) && (
                <>
                  {' '}
                  matching your search · <a href="/shipments">Clear</a>
                </>
              )}
            </p>
            <ShipmentsTable view={view} items={listing.items} now={now} />
            <Pagination view={view} lastPage={lastPage} />
          </>
        )}
      </div>
    </Layout>
  );
}

const count = (n: number) => n.toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------
// Search and filters: one GET form, so the result is a URL
// ---------------------------------------------------------------------------------------------

function Filters({ view, problems }: { view: ShipmentsView; problems: Record<string, string> }) {
  const error = (field: keyof ShipmentsView) =>
    problems[field] ? (
      <span class="field-error" id={`${field}-error`}>
        {problems[field]}
      </span>
    ) : null;
  const invalid = (field: keyof ShipmentsView) => (problems[field] ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${field}-error` } : {});
  const yesNo = (field: 'hold' | 'stopped', label: string) => (
    <label>
      {label}
      <select name={field} {...invalid(field)}>
        <option value="">Either</option>
        <option value="yes" selected={view[field] === 'yes'}>
          Yes
        </option>
        <option value="no" selected={view[field] === 'no'}>
          No
        </option>
      </select>
      {error(field)}
    </label>
  );
  const code = (field: 'carrier' | 'pol' | 'pod', label: string, placeholder: string, size: number) => (
    <label>
      {label}
      <input name={field} value={view[field]} placeholder={placeholder} maxLength={size * 4} autocapitalize="characters" spellcheck={false} {...invalid(field)} />
      {error(field)}
    </label>
  );
  const arrivingChoices: string[] = ARRIVING_DAYS.map(String);
  if (view.arriving && !arrivingChoices.includes(view.arriving)) arrivingChoices.push(view.arriving);
  return (
    <form method="get" action="/shipments" class="filters card" role="search" aria-label="Shipments">
      <div class="search-row">
        <label class="search">
          Search
          <input
            type="search"
            name="q"
            value={view.q}
            placeholder="B/L, booking, container or reference number"
            aria-describedby={problems.q ? 'q-error' : 'q-hint'}
            aria-invalid={problems.q ? 'true' : undefined}
            spellcheck={false}
          />
          {error('q') ?? (
            <span class="muted" id="q-hint">
              Part of a number is enough; spaces and dashes do not matter.
            </span>
          )}
        </label>
        <button type="submit">Search</button>
      </div>
      <fieldset>
        <legend>Filters</legend>
        <label>
          Container status
          <select name="status" {...invalid('status')}>
            <option value="">Any</option>
            {CONTAINER_STATUSES.map((s) => (
              <option value={s} selected={view.status === s}>
                {containerStatusWords(s)}
              </option>
            ))}
          </select>
          {error('status')}
        </label>
        {code('carrier', 'Carrier (SCAC)', 'e.g. MAEU', 4)}
        {code('pol', 'Port of lading', 'e.g. CNSHA', 5)}
        {code('pod', 'Port of discharge', 'e.g. USLAX', 5)}
        <label>
          Arriving at discharge
          <select name="arriving" {...invalid('arriving')}>
            <option value="">Any time</option>
            {arrivingChoices.map((days) => (
              <option value={days} selected={view.arriving === days}>
                within {days} days
              </option>
            ))}
          </select>
          {error('arriving')}
        </label>
        {yesNo('hold', 'On hold')}
        {yesNo('stopped', 'Tracking stopped')}
      </fieldset>
      {view.sort && <input type="hidden" name="sort" value={view.sort} />}
      {error('sort')}
      <div class="actions">
        <button type="submit">Apply filters</button>
        {isNarrowed(view) && <a href={viewHref({ ...view, q: '', status: '', carrier: '', pol: '', pod: '', arriving: '', hold: '', stopped: '' }, { page: 1 })}>Clear search and filters</a>}
      </div>
    </form>
  );
}

function Empty({ view }: { view: ShipmentsView }) {
  if (!isNarrowed(view)) {
    return (
      <div class="card empty">
        <h2>No shipments yet</h2>
        <p>
          Track a bill of lading, booking or container number and its shipment appears here. <a href="/track">Track a shipment</a>.
        </p>
      </div>
    );
  }
  return (
    <div class="card empty">
      <h2>No shipments match</h2>
      <p>{view.q ? <>Nothing matches “{view.q}”{hasFilters(view) ? ' with these filters' : ''}.</> : 'Nothing matches these filters.'}</p>
      <p>
        <a href="/shipments">Clear search and filters</a>
        {view.q && (
          <>
            {' '}
            · <a href={`/track?number=${encodeURIComponent(view.q)}`}>Track “{view.q}”</a>
          </>
        )}
      </p>
    </div>
  );
}

/** Whether filters narrow the view, besides the search. */
const hasFilters = (v: ShipmentsView) => isNarrowed({ ...v, q: '' });

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

function SortHeader({ view, field, children }: { view: ShipmentsView; field: SortField; children: string }) {
  const current = sortOf(view, field);
  const next = current === 'ascending' ? `-${field}` : field;
  return (
    <th scope="col" aria-sort={current}>
      <a href={viewHref(view, { sort: next, page: 1 })}>
        {children}
        <span class="sort-mark" aria-hidden="true">
          {current === 'ascending' ? ' ▲' : current === 'descending' ? ' ▼' : ''}
        </span>
        <span class="visually-hidden">{current === 'ascending' ? ', sort descending' : ', sort ascending'}</span>
      </a>
    </th>
  );
}

function ShipmentsTable({ view, items, now }: { view: ShipmentsView; items: Shipment[]; now: Date }) {
  return (
    <div class="table-wrap shipments-wrap">
      <table class="shipments">
        <caption class="visually-hidden">Shipments{view.sort ? '' : ', newest first'}</caption>
        <thead>
          <tr>
            <SortHeader view={view} field="bill_of_lading_number">
              B/L
            </SortHeader>
            <SortHeader view={view} field="shipping_line_scac">
              Carrier
            </SortHeader>
            <SortHeader view={view} field="port_of_discharge_name">
              Route
            </SortHeader>
            <SortHeader view={view} field="pod_arrival_at">
              Arrival at discharge
            </SortHeader>
            <th scope="col">Containers</th>
            <th scope="col">Status</th>
            <th scope="col">Ref numbers</th>
            <SortHeader view={view} field="line_tracking_last_succeeded_at">
              Checked
            </SortHeader>
          </tr>
        </thead>
        <tbody>
          {items.map((s) => (
            <ShipmentRow shipment={s} now={now} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

const containersOf = (s: Shipment): Container[] => (Array.isArray(s.containers) ? (s.containers as unknown as Container[]) : []);

function ShipmentRow({ shipment: s, now }: { shipment: Shipment; now: Date }) {
  const containers = containersOf(s);
  const place = (name: string | null, locode: string | null) => (name ? <span title={locode ?? undefined}>{name}</span> : (locode ?? '—'));
  return (
    <tr>
      <th scope="row">
        <a href={`/shipments/${encodeURIComponent(s.id)}`}>{s.bill_of_lading_number}</a>
        {s.booking_number && s.booking_number !== s.bill_of_lading_number && <div class="muted">Booking {s.booking_number}</div>}
      </th>
      <td>
        {s.shipping_line_short_name ?? s.shipping_line_name ?? s.shipping_line_scac}
        {(s.shipping_line_short_name || s.shipping_line_name) && <div class="muted">{s.shipping_line_scac}</div>}
      </td>
      <td class="route">
        {place(s.port_of_lading_name, s.port_of_lading_locode)} <span aria-label="to">→</span> {place(s.port_of_discharge_name, s.port_of_discharge_locode)}
      </td>
      <td class="arrival">
        <Arrival shipment={s} now={now} />
      </td>
      <td class="num">{containers.length}</td>
      <td>
        <Badges shipment={s} containers={containers} />
      </td>
      <td class="refs">{s.ref_numbers.length ? s.ref_numbers.join(', ') : <span class="muted">—</span>}</td>
      <td class="checked">
        <Freshness shipment={s} now={now} />
      </td>
    </tr>
  );
}

/** At the port of discharge, in its own time: the actual arrival once there is one, else the carrier's estimate. */
function Arrival({ shipment: s, now }: { shipment: Shipment; now: Date }) {
  const [label, at] = s.pod_ata_at ? ['Arrived', s.pod_ata_at] : s.pod_eta_at ? ['ETA', s.pod_eta_at] : [null, null];
  if (!at) return <span class="muted">Not known yet</span>;
  return (
    <>
      <span class="muted">{label}</span>{' '}
      <time datetime={at} title={utcTitle(at)}>
        <ZonedTime text={localDateTime(at, s.pod_timezone, now)} />
      </time>
    </>
  );
}

/** "24 Nov 14:05 GMT+8" kept on one line, its zone's name free to wrap below it in a narrow column. */
function ZonedTime({ text }: { text: string }) {
  const at = text.indexOf(' (');
  if (at < 0) return <span class="nowrap">{text}</span>;
  return (
    <>
      <span class="nowrap">{text.slice(0, at)}</span>
      {text.slice(at)}
    </>
  );
}

/** One badge per container status (with how many), then the holds and a stopped tracking. */
function Badges({ shipment: s, containers }: { shipment: Shipment; containers: Container[] }) {
  const statuses = new Map<string, number>();
  for (const c of containers) statuses.set(c.current_status, (statuses.get(c.current_status) ?? 0) + 1);
  const holds = [...new Set(containers.flatMap((c) => c.holds_at_pod_terminal.filter((h) => h.status === 'hold').map((h) => h.name)))];
  return (
    <div class="badges">
      {[...statuses].map(([status, n]) => (
        <span class={badgeClass(containerStatusTone(status))}>
          {containerStatusWords(status)}
          {n > 1 ? ` ×${n}` : ''}
        </span>
      ))}
      {holds.length > 0 && <span class={badgeClass('bad')}>On hold: {holds.join(', ')}</span>}
      {s.line_tracking_stopped_at && <span class={badgeClass('warn')}>Tracking stopped</span>}
    </div>
  );
}

/**
 * When svc last heard from the carrier: line_tracking_last_succeeded_at, the last time the
 * shipping line answered. Not updated_at, which moves only when something changed (or a user
 * edited the ref numbers), so a shipment checked a minute ago with no news would look stale; and
 * not line_tracking_last_attempted_at alone, which a failed try also sets, so a carrier that has
 * been down for a day would look fresh. A later failed attempt is said beside it.
 */
function Freshness({ shipment: s, now }: { shipment: Shipment; now: Date }) {
  const heard = s.line_tracking_last_succeeded_at;
  const tried = s.line_tracking_last_attempted_at;
  const failedSince = tried && (!heard || new Date(tried) > new Date(heard));
  return (
    <>
      {heard ? (
        <time datetime={heard} title={utcTitle(heard)}>
          checked {relativeTime(heard, now)}
        </time>
      ) : (
        <span class="muted">not checked yet</span>
      )}
      {failedSince && (
        <div class="muted">
          last try failed{' '}
          <time datetime={tried} title={utcTitle(tried)}>
            {relativeTime(tried, now)}
          </time>
        </div>
      )}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// Pages
// ---------------------------------------------------------------------------------------------

/** The pages around the current one, the first and the last; gaps shown as an ellipsis. */
function pageNumbers(current: number, last: number): (number | null)[] {
  const wanted = [...new Set([1, current - 2, current - 1, current, current + 1, current + 2, last])].filter((n) => n >= 1 && n <= last).sort((a, b) => a - b);
  return wanted.flatMap((n, i) => (i > 0 && n - wanted[i - 1] > 1 ? [null, n] : [n]));
}

function Pagination({ view, lastPage }: { view: ShipmentsView; lastPage: number }) {
  if (lastPage <= 1) return null;
  const current = Math.min(view.page, lastPage);
  return (
    <nav class="pages" aria-label="Pages">
      <ul>
        <li>{current > 1 ? <a href={viewHref(view, { page: current - 1 })} rel="prev">← Previous</a> : <span class="muted">← Previous</span>}</li>
        {pageNumbers(current, lastPage).map((n) =>
          n === null ? (
            <li aria-hidden="true">…</li>
          ) : (
            <li>
              <a href={viewHref(view, { page: n })} aria-current={n === current ? 'page' : undefined} aria-label={`Page ${n}`}>
                {n}
              </a>
            </li>
          ),
        )}
        <li>{current < lastPage ? <a href={viewHref(view, { page: current + 1 })} rel="next">Next →</a> : <span class="muted">Next →</span>}</li>
      </ul>
    </nav>
  );
}
