// The tracking requests list: what was asked of the carriers, how far each request got and, when
// one failed, why in words a person can act on. The page updates itself (live.js) as requests change.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Page } from '../../../sdk/src/client.ts';
import type { TrackingRequest } from '../../../sdk/src/types.ts';
import { assetUrl } from '../assets.ts';
import type { WebOptions } from '../context.ts';
import { badgeClass, relativeTime, utcTitle, type BadgeTone } from '../format.ts';
import { Alert, Layout } from '../layout.tsx';
import { sendPage } from '../render.tsx';

type Status = TrackingRequest['status'];
export type RequestType = TrackingRequest['request_type'];

export const REQUEST_TYPE_WORDS: Record<RequestType, string> = {
  bill_of_lading: 'bill of lading',
  booking_number: 'booking',
  container: 'container',
};

const STATUS_WORDS: Record<Status, { label: string; tone: BadgeTone }> = {
  pending: { label: 'pending', tone: 'neutral' },
  awaiting_manifest: { label: 'awaiting manifest', tone: 'warn' },
  created: { label: 'created', tone: 'ok' },
  failed: { label: 'failed', tone: 'bad' },
  tracking_stopped: { label: 'tracking stopped', tone: 'neutral' },
};
const STATUSES = Object.keys(STATUS_WORDS) as Status[];

/**
 * Every failed_reason the API can give (src/carriers/types.ts FailedReason, the reference
 * service's list), as what happened and what to do about it.
 */
const FAILED_REASON_WORDS: Record<string, string> = {
  not_found: 'The carrier does not know this number. Check it and the carrier.',
  invalid_number: 'The carrier refused this number as malformed. Check it for a typo.',
  booking_cancelled: 'The carrier says the booking was cancelled.',
  expired: 'The carrier never published a shipment for this number, so svc stopped asking. Track it again once the carrier has it.',
  duplicate: 'This number is tracked already.',
  data_unavailable: 'The carrier does not share the data of this number.',
  shipping_line_unreachable: 'The carrier could not be reached. svc tries again by itself.',
  retries_exhausted: 'The carrier could not be reached for a long time, so svc gave up. Track the number again later.',
  unrecognized_response: 'The carrier answered with something svc cannot read.',
  internal_processing_error: 'svc failed while reading the carrier’s answer.',
};

export function failedReasonText(reason: string | null | undefined): string {
  if (!reason) return 'No reason was given.';
  return FAILED_REASON_WORDS[reason] ?? `The carrier’s answer: ${reason.replaceAll('_', ' ')}.`;
}

const PAGE_SIZE = 30;

interface ListQuery {
  status?: Status;
  page: number;
}

function listQuery(req: FastifyRequest): ListQuery {
  const q = req.query as Record<string, string | undefined>;
  const status = STATUSES.find((s) => s === q.status);
  const page = Number.parseInt(q.page ?? '', 10);
  return { status, page: Number.isSafeInteger(page) && page > 0 ? page : 1 };
}

const hrefOf = (q: ListQuery) => {
  const params = new URLSearchParams();
  if (q.status) params.set('status', q.status);
  if (q.page > 1) params.set('page', String(q.page));
  const search = params.toString();
  return `/tracking-requests${search ? `?${search}` : ''}`;
};

function shipmentOf(tr: TrackingRequest): { id: string; label: string } | undefined {
  const shipment = tr.tracked_object;
  if (!shipment || Array.isArray(shipment)) return undefined;
  const number = typeof shipment.bill_of_lading_number === 'string' ? shipment.bill_of_lading_number : tr.request_number;
  return { id: shipment.id, label: number };
}

function RequestRow({ tr, now, fresh }: { tr: TrackingRequest; now: Date; fresh: boolean }) {
  const status = STATUS_WORDS[tr.status] ?? { label: tr.status, tone: 'neutral' };
  const shipment = shipmentOf(tr);
  return (
    <tr id={`tr-${tr.id}`} class={fresh ? 'fresh' : undefined} data-status={tr.status}>
      <th scope="row">{tr.request_number}</th>
      <td>{tr.scac}</td>
      <td>{REQUEST_TYPE_WORDS[tr.request_type] ?? tr.request_type}</td>
      <td>
        <span class={badgeClass(status.tone)}>{status.label}</span>
        {tr.is_retrying && <span class="muted"> (retrying)</span>}
      </td>
      <td>
        {tr.status === 'failed' || tr.is_retrying ? <span class="reason">{failedReasonText(tr.failed_reason)}</span> : null}
        {shipment && <a href={`/shipments/${encodeURIComponent(shipment.id)}`}>Shipment {shipment.label}</a>}
        {tr.ref_numbers.length > 0 && <div class="muted">Ref. {tr.ref_numbers.join(', ')}</div>}
      </td>
      <td>
        <time datetime={tr.created_at} title={utcTitle(tr.created_at)}>
          {relativeTime(tr.created_at, now)}
        </time>
      </td>
    </tr>
  );
}

function Pagination({ q, page }: { q: ListQuery; page: Page<TrackingRequest> }) {
  const last = Math.max(1, Math.ceil(page.total / PAGE_SIZE));
  if (last === 1) return null;
  return (
    <nav class="pagination" aria-label="Pages">
      {q.page > 1 ? <a href={hrefOf({ ...q, page: q.page - 1 })} rel="prev">Previous</a> : <span />}
      <span>
        Page {q.page} of {last}
        {page.totalIsLowerBound && '+'}
      </span>
      {q.page < last ? <a href={hrefOf({ ...q, page: q.page + 1 })} rel="next">Next</a> : <span />}
    </nav>
  );
}

function TrackingRequestsPage({ req, q, page, now, fresh }: { req: FastifyRequest; q: ListQuery; page: Page<TrackingRequest>; now: Date; fresh?: string }) {
  return (
    <Layout req={req} title="Tracking requests" section="tracking-requests" scripts={[assetUrl('live.js')]} styles={[assetUrl('track.css')]}>
      <div data-live="tracking-requests">
        <div class="heading-row">
          <h1>Tracking requests</h1>
          <a class="button" href="/track">
            Track a number
          </a>
        </div>
        <form method="get" action="/tracking-requests" class="inline filters">
          <label>
            Status
            <select name="status">
              <option value="">Any status</option>
              {STATUSES.map((s) => (
                <option value={s} selected={q.status === s}>
                  {STATUS_WORDS[s].label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" class="secondary">
            Show
          </button>
        </form>
        <div data-live-region="tracking-requests-list">
          {/* Inside the region: once the carrier has answered, the row says so and the notice goes. */}
          {page.items.some((tr) => tr.id === fresh && (tr.status === 'pending' || tr.status === 'awaiting_manifest')) && (
            <Alert kind="info" message="svc is asking the carrier now. This page updates itself when the answer comes." />
          )}
          <p class="muted">
            {page.total}
            {page.totalIsLowerBound && '+'} {page.total === 1 ? 'request' : 'requests'}
            {q.status ? ` ${STATUS_WORDS[q.status].label}` : ''}
          </p>
          {page.items.length === 0 ? (
            <p>
              No tracking requests{q.status ? ' with this status' : ''} yet. <a href="/track">Track a number</a>.
            </p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Number</th>
                    <th scope="col">SCAC</th>
                    <th scope="col">Type</th>
                    <th scope="col">Status</th>
                    <th scope="col">Result</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((tr) => (
                    <RequestRow tr={tr} now={now} fresh={tr.id === fresh} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pagination q={q} page={page} />
        </div>
      </div>
    </Layout>
  );
}

export function trackingRequestsRoutes(web: FastifyInstance, options: WebOptions): void {
  web.get('/tracking-requests', async (req, reply) => {
    const q = listQuery(req);
    const page = await req.svc.trackingRequests.list({
      'filter[status]': q.status,
      'page[number]': q.page,
      'page[size]': PAGE_SIZE,
      include: 'tracked_object',
    });
    const fresh = (req.query as Record<string, string | undefined>).new;
    return sendPage(reply, <TrackingRequestsPage req={req} q={q} page={page} now={options.clock.now()} fresh={fresh} />);
  });
}
