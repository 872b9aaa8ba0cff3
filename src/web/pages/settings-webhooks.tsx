// Webhooks of the signed-in account, all through the REST API (req.svc) so every rule of it holds
// here too: the URL policy, the SSRF guard, the event names, the custom headers. The signing
// secret appears once, in the answer to the creating form.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AttributesOf, BodyOf, Webhook } from '../../../sdk/src/types.ts';
import { MAX_WEBHOOK_HEADERS, type WebhookHeader } from '../../domain/webhooks/headers.ts';
import type { WebOptions } from '../context.ts';
import { formField } from '../csrf.ts';
import { Alert, CsrfField } from '../layout.tsx';
import { sendPage } from '../render.tsx';
import {
  FieldError,
  formValues,
  GeneralProblems,
  invalidProps,
  orNotFound,
  pageNumber,
  Pager,
  problemsOf,
  ProblemSummary,
  queryParam,
  SettingsLayout,
  Time,
  type FormProblems,
} from './settings-shared.tsx';

type EventCatalogue = BodyOf<'getV2WebhooksEvents'>['data'];
type TriggerResult = BodyOf<'postV2WebhooksTrigger'>;
/** Event names as the form sent them: the API, not the page, decides which it accepts. */
type EventNames = AttributesOf<'postV2Webhooks'>['events'];

const PAGE_SIZE = 30;
/** Blank header rows a form offers beyond the webhook's own (pages work without script). */
const SPARE_HEADER_ROWS = 2;
const NOT_YOURS = 'There is no webhook with this id in your account.';

/** What the create and edit forms hold. */
interface WebhookForm {
  url: string;
  events: string[];
  /** One per row of the form, blank rows included. */
  headers: WebhookHeader[];
}

const headerField = (part: 'name' | 'value', row: number) => `header_${part}_${row}`;

function formOf(req: FastifyRequest): WebhookForm {
  const headers: WebhookHeader[] = [];
  for (let row = 0; row < MAX_WEBHOOK_HEADERS + SPARE_HEADER_ROWS; row++) {
    const name = formField(req, headerField('name', row));
    const value = formField(req, headerField('value', row));
    if (name === undefined && value === undefined) break;
    headers.push({ name: name ?? '', value: value ?? '' });
  }
  return { url: formField(req, 'url') ?? '', events: formValues(req, 'events'), headers };
}

/**
 * The attributes the API gets from a form (blank header rows left out, none at all is null), and
 * the form field each JSON pointer of a refusal stands for.
 */
function attributesOf(form: WebhookForm) {
  const rows = form.headers.flatMap((h, row) => (h.name.trim() === '' && h.value.trim() === '' ? [] : [row]));
  const headers = rows.map((row) => form.headers[row]);
  const fieldOf = (pointer: string): string | undefined => {
    const [, , , attribute, index, part] = pointer.split('/'); // /data/attributes/<attribute>/<index>/<part>
    if (attribute === 'url' || attribute === 'events') return attribute;
    if (attribute !== 'headers') return undefined;
    const row = index === undefined ? undefined : rows[Number(index)];
    return row === undefined ? 'headers' : headerField(part === 'value' ? 'value' : 'name', row);
  };
  return { attributes: { url: form.url, events: form.events as EventNames, headers: headers.length > 0 ? headers : null }, fieldOf };
}

const formOfWebhook = (webhook: Webhook): WebhookForm => ({ url: webhook.url, events: webhook.events, headers: webhook.headers ?? [] });

// ---- pages --------------------------------------------------------------------------------------

function StatusBadge({ webhook }: { webhook: Webhook }) {
  if (webhook.active) return <span class="badge ok">active</span>;
  return <span class={webhook.deactivated_at ? 'badge bad' : 'badge warn'}>{webhook.deactivated_at ? 'turned off by svc' : 'paused'}</span>;
}

function ListPage({ req, webhooks, page, total, notice }: { req: FastifyRequest; webhooks: Webhook[]; page: number; total: number; notice?: string }) {
  return (
    <SettingsLayout req={req} title="Webhooks" page="webhooks">
      <h1>Webhooks</h1>
      <p class="muted">svc POSTs a signed notification to each webhook when one of its events happens, and retries when the receiver does not answer 2xx.</p>
      <Alert message={notice} kind="info" />
      <p>
        <a class="button" href="/settings/webhooks/new">
          Add a webhook
        </a>
      </p>
      {total === 0 ? (
        <p>This account has no webhooks yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.map((w) => (
                <tr>
                  <th scope="row" class="url-cell">
                    <a href={`/settings/webhooks/${w.id}`}>{w.url}</a>
                  </th>
                  <td>
                    <EventList events={w.events} />
                  </td>
                  <td>
                    <StatusBadge webhook={w} />
                  </td>
                  <td>
                    <Time at={w.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} hasNext={page * PAGE_SIZE < total} hrefOf={(n) => `/settings/webhooks?page=${n}`} label="Webhook pages" />
    </SettingsLayout>
  );
}

/** A webhook's events, the first few in full. */
function EventList({ events }: { events: string[] }) {
  const shown = events.slice(0, 3);
  return (
    <span class="events">
      {shown.map((e) => (
        <code>{e}</code>
      ))}
      {events.length > shown.length && <span class="muted"> and {events.length - shown.length} more</span>}
    </span>
  );
}

function WebhookFields({ catalogue, form, problems }: { catalogue: EventCatalogue; form: WebhookForm; problems?: FormProblems }) {
  const chosen = new Set(form.events);
  const rows = [...form.headers, ...Array.from({ length: SPARE_HEADER_ROWS }, () => ({ name: '', value: '' }))].slice(0, Math.max(MAX_WEBHOOK_HEADERS, form.headers.length));
  return (
    <>
      <label>
        URL <span class="muted">(https; svc POSTs notifications to it)</span>
        <input type="url" name="url" required value={form.url} placeholder="https://example.com/svc-webhooks" autocomplete="url" {...invalidProps(problems, 'url')} />
        <FieldError problems={problems} field="url" />
      </label>
      <fieldset class="event-groups" {...invalidProps(problems, 'events')}>
        <legend>Events</legend>
        <FieldError problems={problems} field="events" />
        {catalogue.map((category) => (
          <fieldset class="event-group">
            <legend>{category.attributes.name}</legend>
            {category.attributes.events.map((event) => (
              <label class="check">
                <input type="checkbox" name="events" value={event.name} checked={chosen.has(event.name)} />
                <span>
                  <code>{event.name}</code> <span class="muted">{event.description}</span>
                </span>
              </label>
            ))}
          </fieldset>
        ))}
      </fieldset>
      <fieldset class="header-rows" {...invalidProps(problems, 'headers')}>
        <legend>Custom headers <span class="muted">(optional, sent with every delivery, e.g. a token your receiver checks)</span></legend>
        <FieldError problems={problems} field="headers" />
        {rows.map((header, row) => (
          <div class="header-row">
            <label>
              Name
              <input type="text" name={headerField('name', row)} value={header.name} autocomplete="off" {...invalidProps(problems, headerField('name', row))} />
              <FieldError problems={problems} field={headerField('name', row)} />
            </label>
            <label>
              Value
              <input type="text" name={headerField('value', row)} value={header.value} autocomplete="off" {...invalidProps(problems, headerField('value', row))} />
              <FieldError problems={problems} field={headerField('value', row)} />
            </label>
          </div>
        ))}
        <p class="muted">Leave a row blank to remove it; save to get more rows.</p>
      </fieldset>
    </>
  );
}

function NewPage({ req, catalogue, form, problems }: { req: FastifyRequest; catalogue: EventCatalogue; form: WebhookForm; problems?: FormProblems }) {
  return (
    <SettingsLayout req={req} title="Add a webhook" page="webhooks">
      <h1>Add a webhook</h1>
      <ProblemSummary problems={problems} />
      <form method="post" action="/settings/webhooks" class="stack webhook-form">
        <CsrfField req={req} />
        <WebhookFields catalogue={catalogue} form={form} problems={problems} />
        <div class="actions">
          <button type="submit">Add webhook</button>
          <a href="/settings/webhooks">Cancel</a>
        </div>
      </form>
    </SettingsLayout>
  );
}

function CreatedPage({ req, webhook }: { req: FastifyRequest; webhook: Webhook }) {
  return (
    <SettingsLayout req={req} title="Webhook added" page="webhooks">
      <h1>Webhook added</h1>
      <section class="card secret-once" aria-labelledby="secret-heading">
        <h2 id="secret-heading">Its signing secret</h2>
        <p role="status">
          <strong>Copy it now: this page shows it only this once.</strong> Your receiver checks with it that a notification comes from svc: each delivery carries
          an HMAC-SHA256 of its body under this secret (<code>X-SVC-Webhook-Signature</code>, and the Standard Webhooks headers).
        </p>
        <div class="copy-row">
          <label class="grow">
            Signing secret
            <input id="webhook-secret" class="secret" type="text" readonly value={webhook.secret} autocomplete="off" spellcheck={false} />
          </label>
          <button type="button" class="secondary" data-copy="webhook-secret" hidden>
            Copy
          </button>
        </div>
      </section>
      <p>
        Notifications go to <code>{webhook.url}</code> for {webhook.events.length === 1 ? 'one event' : `${webhook.events.length} events`}.{' '}
        <a href={`/settings/webhooks/${webhook.id}`}>Open the webhook</a> to send a test delivery, or <a href="/settings/webhooks">back to the list</a>.
      </p>
    </SettingsLayout>
  );
}

interface WebhookPageProps {
  req: FastifyRequest;
  webhook: Webhook;
  catalogue: EventCatalogue;
  form?: WebhookForm;
  problems?: FormProblems;
  notice?: string;
  test?: { event: string; result?: TriggerResult; problems?: FormProblems };
}

function WebhookPage({ req, webhook, catalogue, form, problems, notice, test }: WebhookPageProps) {
  const base = `/settings/webhooks/${webhook.id}`;
  const testEvent = test?.event ?? webhook.events[0];
  return (
    <SettingsLayout req={req} title="Webhook" page="webhooks">
      <p class="crumbs">
        <a href="/settings/webhooks">Webhooks</a>
      </p>
      <h1 class="url-heading">{webhook.url}</h1>
      <Alert message={notice} kind="info" />
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge webhook={webhook} />
          {webhook.deactivated_at && (
            <span>
              {' '}
              since <Time at={webhook.deactivated_at} />: {webhook.deactivated_reason ?? 'deliveries kept failing'}. Resume it once the receiver works again.
            </span>
          )}
        </dd>
        <dt>Events</dt>
        <dd>
          <span class="events">
            {webhook.events.map((e) => (
              <code>{e}</code>
            ))}
          </span>
        </dd>
        <dt>Custom headers</dt>
        <dd>
          {/* Names only: a value is often a token for the receiver. */}
          {webhook.headers?.length ? webhook.headers.map((h) => <code>{h.name}</code>) : <span class="muted">none</span>}
        </dd>
        <dt>Created</dt>
        <dd>
          <Time at={webhook.created_at} />
        </dd>
        <dt>Last successful delivery</dt>
        <dd>{webhook.last_succeeded_at ? <Time at={webhook.last_succeeded_at} /> : <span class="muted">none yet</span>}</dd>
        <dt>Signing secret</dt>
        <dd class="muted">shown once, when the webhook was added</dd>
      </dl>
      <div class="actions">
        <form method="post" action={`${base}/active`}>
          <CsrfField req={req} />
          <input type="hidden" name="active" value={webhook.active ? 'false' : 'true'} />
          <button type="submit" class="secondary">
            {webhook.active ? 'Pause deliveries' : 'Resume deliveries'}
          </button>
        </form>
        <a href={`/settings/notifications?webhook=${webhook.id}`}>Its notifications</a>
        <a href={`${base}/delete`}>Delete…</a>
      </div>

      <section aria-labelledby="test-heading">
        <h2 id="test-heading">Send a test delivery</h2>
        <p class="muted">
          svc sends the example notification of an event to the webhook's URL now, signed with its secret as a real delivery is (without the custom headers), and
          shows what the receiver answered.
        </p>
        <form method="post" action={`${base}/test`} class="inline">
          <CsrfField req={req} />
          <label>
            Event
            <select name="event">
              {catalogue.map((category) => (
                <optgroup label={category.attributes.name}>
                  {category.attributes.events.map((e) => (
                    <option value={e.name} selected={e.name === testEvent}>
                      {e.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </label>
          <button type="submit">Send test</button>
        </form>
        <div aria-live="polite">
          <GeneralProblems problems={test?.problems} />
          {test?.result && <TestResult result={test.result} />}
        </div>
      </section>

      <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Change the webhook</h2>
        <ProblemSummary problems={problems} />
        <form method="post" action={base} class="stack webhook-form">
          <CsrfField req={req} />
          <WebhookFields catalogue={catalogue} form={form ?? formOfWebhook(webhook)} problems={problems} />
          <div class="actions">
            <button type="submit">Save changes</button>
          </div>
        </form>
      </section>
    </SettingsLayout>
  );
}

function TestResult({ result }: { result: TriggerResult }) {
  return (
    <div class={`card test-result ${result.succeeded ? 'ok' : 'bad'}`}>
      <p>
        <strong>{result.succeeded ? 'Delivered.' : 'Not delivered.'}</strong>{' '}
        {result.status_code !== null ? (
          <>
            The receiver answered <span class="status-code">HTTP {result.status_code}</span>.
          </>
        ) : (
          'No answer from the receiver.'
        )}
        {result.error && <> {result.error}</>}
      </p>
      {result.response_body ? (
        <>
          <p class="muted">Its answer (first KiB):</p>
          <pre class="body">{result.response_body}</pre>
        </>
      ) : (
        result.status_code !== null && <p class="muted">Its answer had no body.</p>
      )}
      <details>
        <summary>What svc sent</summary>
        <pre class="body">{Object.entries(result.request_headers).map(([k, v]) => `${k}: ${v}\n`).join('')}</pre>
        <pre class="body">{result.request_body}</pre>
      </details>
    </div>
  );
}

function DeletePage({ req, webhook }: { req: FastifyRequest; webhook: Webhook }) {
  return (
    <SettingsLayout req={req} title="Delete a webhook" page="webhooks">
      <section class="narrow">
        <h1>Delete this webhook?</h1>
        <p>
          <code class="url">{webhook.url}</code> will get no more notifications, and its notification history goes with it. To stop deliveries for a while,
          pause it instead.
        </p>
        <form method="post" action={`/settings/webhooks/${webhook.id}/delete`} class="inline">
          <CsrfField req={req} />
          <button type="submit" class="danger">
            Delete the webhook
          </button>
          <a href={`/settings/webhooks/${webhook.id}`}>Cancel</a>
        </form>
      </section>
    </SettingsLayout>
  );
}

// ---- routes -------------------------------------------------------------------------------------

const NOTICES: Record<string, string> = {
  saved: 'Your changes are saved.',
  paused: 'Deliveries are paused: events that happen meanwhile are not sent to it.',
  resumed: 'Deliveries are on again.',
  deleted: 'The webhook is deleted.',
};

export function settingsWebhooksRoutes(web: FastifyInstance, _options: WebOptions): void {
  const catalogueOf = async (req: FastifyRequest) => (await req.svc.webhooks.events()).data;
  const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;
  const webhookOf = (req: FastifyRequest) => orNotFound(req.svc.webhooks.get(idOf(req)), NOT_YOURS);

  web.get('/settings/webhooks', async (req, reply) => {
    const page = pageNumber(req);
    const list = await req.svc.webhooks.list({ 'page[number]': page, 'page[size]': PAGE_SIZE });
    return sendPage(reply, <ListPage req={req} webhooks={list.items} page={page} total={list.total} notice={NOTICES[queryParam(req, 'done')]} />);
  });

  web.get('/settings/webhooks/new', async (req, reply) =>
    sendPage(reply, <NewPage req={req} catalogue={await catalogueOf(req)} form={{ url: '', events: [], headers: [] }} />),
  );

  // The secret is in this answer only: it is never put in a redirect or kept by the web app.
  web.post('/settings/webhooks', async (req, reply) => {
    const form = formOf(req);
    const { attributes, fieldOf } = attributesOf(form);
    try {
      const webhook = await req.svc.webhooks.create(attributes);
      return sendPage(reply, <CreatedPage req={req} webhook={webhook} />, 201);
    } catch (err) {
      return sendPage(reply, <NewPage req={req} catalogue={await catalogueOf(req)} form={form} problems={problemsOf(err, fieldOf)} />, 422);
    }
  });

  web.get('/settings/webhooks/:id', async (req, reply) => {
    const [webhook, catalogue] = await Promise.all([webhookOf(req), catalogueOf(req)]);
    return sendPage(reply, <WebhookPage req={req} webhook={webhook} catalogue={catalogue} notice={NOTICES[queryParam(req, 'done')]} />);
  });

  web.post('/settings/webhooks/:id', async (req, reply) => {
    const form = formOf(req);
    const { attributes, fieldOf } = attributesOf(form);
    try {
      await orNotFound(req.svc.webhooks.update(idOf(req), attributes), NOT_YOURS);
      return reply.redirect(`/settings/webhooks/${encodeURIComponent(idOf(req))}?done=saved`, 303);
    } catch (err) {
      const problems = problemsOf(err, fieldOf);
      const [webhook, catalogue] = await Promise.all([webhookOf(req), catalogueOf(req)]);
      return sendPage(reply, <WebhookPage req={req} webhook={webhook} catalogue={catalogue} form={form} problems={problems} />, 422);
    }
  });

  web.post('/settings/webhooks/:id/active', async (req, reply) => {
    const active = formField(req, 'active') === 'true';
    await orNotFound(req.svc.webhooks.update(idOf(req), { active }), NOT_YOURS);
    return reply.redirect(`/settings/webhooks/${encodeURIComponent(idOf(req))}?done=${active ? 'resumed' : 'paused'}`, 303);
  });

  web.post('/settings/webhooks/:id/test', async (req, reply) => {
    const [webhook, catalogue] = await Promise.all([webhookOf(req), catalogueOf(req)]);
    const event = formField(req, 'event') ?? '';
    try {
      const result = await req.svc.webhooks.trigger({ url: webhook.url, event, secret: webhook.secret });
      return sendPage(reply, <WebhookPage req={req} webhook={webhook} catalogue={catalogue} test={{ event, result }} />);
    } catch (err) {
      const problems = problemsOf(err, () => undefined);
      return sendPage(reply, <WebhookPage req={req} webhook={webhook} catalogue={catalogue} test={{ event, problems }} />, 422);
    }
  });

  web.get('/settings/webhooks/:id/delete', async (req, reply) => sendPage(reply, <DeletePage req={req} webhook={await webhookOf(req)} />));

  web.post('/settings/webhooks/:id/delete', async (req, reply) => {
    await orNotFound(req.svc.webhooks.delete(idOf(req)), NOT_YOURS);
    return reply.redirect('/settings/webhooks?done=deleted', 303);
  });
}
