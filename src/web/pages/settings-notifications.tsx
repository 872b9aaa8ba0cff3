// Webhook notifications of the signed-in account: what svc delivered or tried to, each delivery
// attempt as the receiver answered it, and a way to send one again. Read through the REST API.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Page } from '../../../sdk/src/client.ts';
import type { Webhook, WebhookNotification } from '../../../sdk/src/types.ts';
import type { WebOptions } from '../context.ts';
import { Alert, CsrfField } from '../layout.tsx';
import { sendPage } from '../render.tsx';
import { orNotFound, pageNumber, Pager, queryParam, SettingsLayout, Time } from './settings-shared.tsx';

const PAGE_SIZE = 25;
/**
 * The API lists notifications newest first without filters; a filtered page reads the newest
 * ones page by page and keeps the matches. How many it reads at most, so a page stays quick.
 */
const SCAN_LIMIT = 1000;
const SCAN_PAGE_SIZE = 100;
const INCLUDE = 'webhook,webhook_notification_logs';
const STATUSES = ['pending', 'succeeded', 'failed'] as const;
type Status = (typeof STATUSES)[number];
const NOT_YOURS = 'There is no webhook notification with this id in your account.';

/** One delivery attempt, as the API's webhook_notification_log has it. */
interface Attempt {
  id: string;
  attempt: number;
  url: string;
  succeeded: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  created_at: string;
}

const attemptsOf = (n: WebhookNotification): Attempt[] =>
  (Array.isArray(n.webhook_notification_logs) ? (n.webhook_notification_logs as unknown as Attempt[]) : []).slice().sort((a, b) => a.attempt - b.attempt);
const webhookOf = (n: WebhookNotification) => n.webhook as unknown as Partial<Webhook> & { id: string };

interface Filters {
  status?: Status;
  webhook?: string;
}

function filtersOf(req: FastifyRequest): Filters {
  const status = queryParam(req, 'status');
  const webhook = queryParam(req, 'webhook');
  return { status: (STATUSES as readonly string[]).includes(status) ? (status as Status) : undefined, webhook: webhook || undefined };
}

function hrefOf(filters: Filters, page: number): string {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  if (filters.webhook) query.set('webhook', filters.webhook);
  if (page > 1) query.set('page', String(page));
  const q = query.toString();
  return `/settings/notifications${q ? `?${q}` : ''}`;
}

const STATUS_BADGE: Record<Status, string> = { pending: 'badge warn', succeeded: 'badge ok', failed: 'badge bad' };

function StatusBadge({ status }: { status: string }) {
  return <span class={STATUS_BADGE[status as Status] ?? 'badge'}>{status}</span>;
}

/** "HTTP 200 in 35 ms", "no answer: connection refused". */
function attemptOutcome(a: Attempt): string {
  const answer = a.status_code !== null ? `HTTP ${a.status_code}` : 'no answer';
  return `${answer} in ${a.duration_ms} ms${a.error ? `: ${a.error}` : ''}`;
}

// ---- list ---------------------------------------------------------------------------------------

interface ListView {
  items: WebhookNotification[];
  hasNext: boolean;
  /** Set when a filtered page stopped reading before the oldest notification. */
  scanned?: number;
}

async function listView(req: FastifyRequest, filters: Filters, page: number): Promise<ListView> {
  if (!filters.status && !filters.webhook) {
    const list = await req.svc.webhookNotifications.list({ 'page[number]': page, 'page[size]': PAGE_SIZE, include: INCLUDE });
    return { items: list.items, hasNext: page * PAGE_SIZE < list.total };
  }
  const wanted = (n: WebhookNotification) => (!filters.status || n.delivery_status === filters.status) && (!filters.webhook || webhookOf(n)?.id === filters.webhook);
  const enough = page * PAGE_SIZE + 1; // one beyond the page tells there is a next one
  const matches: WebhookNotification[] = [];
  let read = 0;
  let list: Page<WebhookNotification> | undefined = await req.svc.webhookNotifications.list({ 'page[size]': SCAN_PAGE_SIZE, include: INCLUDE });
  while (list) {
    read += list.items.length;
    matches.push(...list.items.filter(wanted));
    if (matches.length >= enough || read >= SCAN_LIMIT) break;
    list = await list.next();
  }
  const stoppedEarly = list !== undefined && matches.length < enough && list.links.next !== undefined;
  return { items: matches.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), hasNext: matches.length >= enough, scanned: stoppedEarly ? read : undefined };
}

function ListPage({ req, view, filters, page, webhooks }: { req: FastifyRequest; view: ListView; filters: Filters; page: number; webhooks: Webhook[] }) {
  const filtered = Boolean(filters.status || filters.webhook);
  return (
    <SettingsLayout req={req} title="Webhook notifications" page="notifications">
      <h1>Webhook notifications</h1>
      <p class="muted">Every notification svc sent or is sending to your webhooks, newest first, with each delivery attempt.</p>
      <form method="get" action="/settings/notifications" class="inline filters" role="search" aria-label="Filter notifications">
        <label>
          Delivery status
          <select name="status">
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option value={s} selected={filters.status === s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Webhook
          <select name="webhook">
            <option value="">any</option>
            {webhooks.map((w) => (
              <option value={w.id} selected={filters.webhook === w.id}>
                {w.url}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="secondary">
          Filter
        </button>
        {filtered && <a href="/settings/notifications">Clear</a>}
      </form>
      {view.scanned !== undefined && <p class="muted">Only the newest {view.scanned} notifications were searched for these filters.</p>}
      {view.items.length === 0 ? (
        <p>{filtered ? 'No notification matches these filters.' : 'No notifications yet: they appear once an event a webhook subscribes to happens.'}</p>
      ) : (
        <div class="table-wrap">
          <table class="notifications">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Webhook</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {view.items.map((n) => (
                <NotificationRow n={n} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} hasNext={view.hasNext} hrefOf={(p) => hrefOf(filters, p)} label="Notification pages" />
    </SettingsLayout>
  );
}

function NotificationRow({ n }: { n: WebhookNotification }) {
  const attempts = attemptsOf(n);
  const last = attempts.at(-1);
  return (
    <tr>
      <th scope="row">
        <a href={`/settings/notifications/${n.id}`}>
          <code>{n.event}</code>
        </a>
      </th>
      <td class="url-cell">{webhookOf(n)?.url ?? webhookOf(n)?.id}</td>
      <td>
        <StatusBadge status={n.delivery_status} />
      </td>
      <td>
        {last ? (
          <details>
            <summary>
              {attempts.length === 1 ? '1 attempt' : `${attempts.length} attempts`}, last {last.status_code !== null ? `HTTP ${last.status_code}` : 'no answer'}
            </summary>
            <ol class="attempts">
              {attempts.map((a) => (
                <li>
                  <Time at={a.created_at} />: {attemptOutcome(a)}
                </li>
              ))}
            </ol>
          </details>
        ) : (
          <span class="muted">none yet</span>
        )}
      </td>
      <td>
        <Time at={n.created_at} />
      </td>
    </tr>
  );
}

// ---- one notification ----------------------------------------------------------------------------

function NotificationPage({ req, n, notice }: { req: FastifyRequest; n: WebhookNotification; notice?: string }) {
  const attempts = attemptsOf(n);
  const webhook = webhookOf(n);
  const about = n.reference_object as { id: string; type: string } | null | undefined;
  return (
    <SettingsLayout req={req} title="Webhook notification" page="notifications">
      <p class="crumbs">
        <a href="/settings/notifications">Notifications</a>
      </p>
      <h1>
        <code>{n.event}</code>
      </h1>
      <Alert message={notice} kind="info" />
      <dl class="facts">
        <dt>Delivery status</dt>
        <dd>
          <StatusBadge status={n.delivery_status} />
        </dd>
        <dt>Webhook</dt>
        <dd>
          <a href={`/settings/webhooks/${webhook.id}`}>{webhook.url ?? webhook.id}</a>
        </dd>
        <dt>Created</dt>
        <dd>
          <Time at={n.created_at} />
        </dd>
        {about && (
          <>
            <dt>About</dt>
            <dd>
              {about.type.replace(/_/g, ' ')} <code>{about.id}</code>
            </dd>
          </>
        )}
        <dt>Notification id</dt>
        <dd>
          <code>{n.id}</code>
        </dd>
      </dl>
      <form method="post" action={`/settings/notifications/${n.id}/redeliver`} class="inline">
        <CsrfField req={req} />
        <button type="submit">Redeliver</button>
        <span class="muted">Sends it again now, with a fresh set of retries, whatever became of it.</span>
      </form>

      <h2>Delivery attempts</h2>
      {attempts.length === 0 ? (
        <p>{n.delivery_status === 'pending' ? 'None yet: it is waiting for its first attempt.' : 'None.'}</p>
      ) : (
        <div class="table-wrap">
          <table class="attempts">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">When</th>
                <th scope="col">Result</th>
                <th scope="col">Status code</th>
                <th scope="col">Duration</th>
                <th scope="col">Error</th>
                <th scope="col">Receiver's answer</th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((a) => (
                <tr>
                  <th scope="row">{a.attempt}</th>
                  <td>
                    <Time at={a.created_at} />
                  </td>
                  <td>{a.succeeded ? <span class="badge ok">delivered</span> : <span class="badge bad">failed</span>}</td>
                  <td>{a.status_code ?? <span class="muted">no answer</span>}</td>
                  <td>{a.duration_ms} ms</td>
                  <td>{a.error ?? <span class="muted">—</span>}</td>
                  <td>{a.response_body ? <pre class="body">{a.response_body}</pre> : <span class="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SettingsLayout>
  );
}

// ---- routes -------------------------------------------------------------------------------------

export function settingsNotificationsRoutes(web: FastifyInstance, _options: WebOptions): void {
  const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

  web.get('/settings/notifications', async (req, reply) => {
    const filters = filtersOf(req);
    const page = pageNumber(req);
    const webhooks: Webhook[] = [];
    for await (const w of req.svc.webhooks.iterate({ 'page[size]': 100 })) webhooks.push(w);
    const view = await listView(req, filters, page);
    return sendPage(reply, <ListPage req={req} view={view} filters={filters} page={page} webhooks={webhooks} />);
  });

  web.get('/settings/notifications/:id', async (req, reply) => {
    const n = await orNotFound(req.svc.webhookNotifications.get(idOf(req), { include: INCLUDE }), NOT_YOURS);
    const notice = queryParam(req, 'done') === 'redelivered' ? 'Queued for delivery again: its next attempt appears here once it is made.' : undefined;
    return sendPage(reply, <NotificationPage req={req} n={n} notice={notice} />);
  });

  web.post('/settings/notifications/:id/redeliver', async (req, reply) => {
    await orNotFound(req.svc.webhookNotifications.redeliver(idOf(req)), NOT_YOURS);
    return reply.redirect(`/settings/notifications/${encodeURIComponent(idOf(req))}?done=redelivered`, 303);
  });
}
