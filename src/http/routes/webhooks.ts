// Webhook subscriptions: where an account wants its events delivered, which events, with which
// extra headers. svc generates the signing secret. The event catalogue and the addresses
// deliveries come from are served beside them.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { loadConfig } from '../../config/index.ts';
import { WEBHOOK_EVENT_CATEGORIES, WEBHOOK_EVENT_NAMES, isWebhookEvent } from '../../domain/webhooks/events.ts';
import { MAX_WEBHOOK_HEADERS, headerNameProblem, headerValueProblem, type WebhookHeader } from '../../domain/webhooks/headers.ts';
import { checkWebhookUrl, urlFormProblem, type HostLookup } from '../../domain/webhooks/url-policy.ts';
import { resourceDocument, validateBody } from '../../jsonapi/body.ts';
import { notFound, unprocessable } from '../../jsonapi/errors.ts';
import { paginate } from '../../jsonapi/pagination.ts';
import { parsePage } from '../../jsonapi/query.ts';
import { webhookResource } from '../../jsonapi/serializers/webhook.ts';
import { deleteWebhook, findWebhooks, insertWebhook, listWebhooks, updateWebhook, type WebhookChanges } from '../../store/webhooks.ts';
import { listDocument, pageParams, recordDocument, resourceSchema } from '../openapi-schemas.ts';
import type { AnyRouteSpec } from '../route.ts';

// ---- settings ---------------------------------------------------------------------------------

export interface WebhookSettings {
  /** Accept http: URLs and loopback or private targets (SVC_WEBHOOK_ALLOW_INSECURE). */
  allowInsecure: boolean;
  /** Where deliveries come from (SVC_WEBHOOK_SOURCE_IPS), for GET /v2/webhooks/ips. */
  sourceIps: readonly string[];
  /** When that list was read: the `last_updated` of GET /v2/webhooks/ips. */
  sourceIpsUpdatedAt: Date;
  /** Resolves webhook host names; the system resolver when unset. */
  lookup?: HostLookup;
}

let configured: WebhookSettings | undefined;

/** The settings from the environment, read (and validated) once. */
function settingsFromConfig(): WebhookSettings {
  if (!configured) {
    const { SVC_WEBHOOK_ALLOW_INSECURE, SVC_WEBHOOK_SOURCE_IPS } = process.env;
    const config = loadConfig({ SVC_WEBHOOK_ALLOW_INSECURE, SVC_WEBHOOK_SOURCE_IPS });
    configured = { allowInsecure: config.SVC_WEBHOOK_ALLOW_INSECURE, sourceIps: config.SVC_WEBHOOK_SOURCE_IPS, sourceIpsUpdatedAt: new Date() };
  }
  return configured;
}

const overrides = new WeakMap<FastifyInstance, Partial<WebhookSettings>>();

/**
 * Overrides the configured webhook settings for one app, e.g. `{ allowInsecure: true }` so a
 * test can subscribe a receiver on http://127.0.0.1. Later calls add to earlier ones.
 */
export function setWebhookSettings(app: FastifyInstance, settings: Partial<WebhookSettings>): void {
  const defined = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
  overrides.set(app, { ...overrides.get(app), ...defined });
}

/** The settings the webhook routes of `app` use: the configuration, then any override. */
export function webhookSettings(app: FastifyInstance): WebhookSettings {
  return { ...settingsFromConfig(), ...overrides.get(app) };
}

// ---- request bodies ---------------------------------------------------------------------------

const MAX_URL_LENGTH = 2048;
const MAX_EVENTS = 100;
const quoted = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
const issue = (message: string, code: string, path: (string | number)[] = []) => ({ code: 'custom' as const, message, path, params: { code } });

const urlAttribute = z
  .string()
  .trim()
  .min(1)
  .max(MAX_URL_LENGTH)
  .superRefine((url, ctx) => {
    // Blank and overlong URLs already have their own error.
    if (url === '' || url.length > MAX_URL_LENGTH) return;
    const problem = urlFormProblem(url);
    if (problem) ctx.addIssue(issue(problem, 'invalid'));
  })
  .describe('The https endpoint deliveries are POSTed to; it must reach a public address.');

const eventsAttribute = z
  .array(z.string().meta({ enum: [...WEBHOOK_EVENT_NAMES] }))
  .max(MAX_EVENTS)
  .superRefine((events, ctx) => {
    if (events.length === 0) ctx.addIssue(issue("events can't be blank: subscribe to at least one event.", 'blank'));
    events.forEach((name, i) => {
      if (!isWebhookEvent(name)) ctx.addIssue(issue(`${quoted(name)} is not a webhook event; GET /v2/webhooks/events lists them.`, 'invalid', [i]));
    });
    const repeated = [...new Set(events.filter((name, i) => events.indexOf(name) !== i))];
    if (repeated.length > 0) ctx.addIssue(issue(`events lists ${repeated.map(quoted).join(', ')} more than once; each event may appear once.`, 'duplicate_event'));
  })
  .describe('The events to deliver: at least one, each once.');

const MAX_HEADER_NAME = 256;
const MAX_HEADER_VALUE = 8192;

const headersAttribute = z
  .array(z.object({ name: z.string().trim().min(1).max(MAX_HEADER_NAME), value: z.string().trim().max(MAX_HEADER_VALUE) }))
  .max(MAX_WEBHOOK_HEADERS)
  .nullable()
  .superRefine((headers, ctx) => {
    const seen = new Set<string>();
    headers?.forEach(({ name, value }, i) => {
      // Blank and overlong members already have their own error.
      if (name !== '' && name.length <= MAX_HEADER_NAME) {
        const nameProblem = headerNameProblem(name);
        if (nameProblem) ctx.addIssue(issue(nameProblem, 'invalid', [i, 'name']));
        else if (seen.has(name.toLowerCase())) ctx.addIssue(issue(`The header ${name} is listed more than once.`, 'duplicate_header', [i, 'name']));
        seen.add(name.toLowerCase());
      }
      const valueProblem = value.length <= MAX_HEADER_VALUE ? headerValueProblem(value) : undefined;
      if (valueProblem) ctx.addIssue(issue(valueProblem, 'invalid', [i, 'value']));
    });
  })
  .describe(`Extra headers sent with every delivery (at most ${MAX_WEBHOOK_HEADERS}), or null.`);

const createBody = resourceDocument(
  'webhook',
  z.object({
    url: urlAttribute,
    events: eventsAttribute,
    active: z.boolean().optional().describe('Whether events are delivered; default true.'),
    headers: headersAttribute.optional(),
  }),
);

const patchBody = resourceDocument(
  'webhook',
  z.object({
    url: urlAttribute.optional(),
    events: eventsAttribute.optional(),
    active: z.boolean().optional(),
    headers: headersAttribute.optional(),
  }),
);

// ---- responses --------------------------------------------------------------------------------

const webhookSchema = resourceSchema(
  'webhook',
  z.object({
    url: z.string(),
    active: z.boolean(),
    events: z.array(z.string()),
    secret: z.string().describe('Key of the HMAC-SHA256 signature of every delivery (hex)'),
    headers: z.array(z.object({ name: z.string(), value: z.string() })).nullable(),
    last_succeeded_at: z.string().nullable().describe('When a delivery last succeeded'),
    deactivated_at: z.string().nullable().describe('When svc turned the webhook off (410 Gone, or failing for too long); cleared by PATCH active: true'),
    deactivated_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);

const eventCategorySchema = z.object({
  id: z.string(),
  type: z.literal('webhook_event_category'),
  attributes: z.object({ name: z.string(), events: z.array(z.object({ name: z.string(), description: z.string() })) }),
});

const sourceIpsSchema = z.object({ webhook_notification_ips: z.array(z.string()), last_updated: z.string() });

// ---- handlers ---------------------------------------------------------------------------------

/**
 * 422 at /data/attributes/url unless the URL policy lets svc deliver there. A name that does not
 * resolve right now (an offline receiver, a DNS hiccup) is accepted: each delivery checks the
 * addresses it connects to, and its log says when the name did not resolve.
 */
async function assertDeliverable(url: string, settings: WebhookSettings): Promise<void> {
  const check = await checkWebhookUrl(url, { allowInsecure: settings.allowInsecure, lookup: settings.lookup });
  if (!check.ok && check.problem !== 'unresolvable') throw unprocessable('/data/attributes/url', check.reason, 'invalid');
}

/** Trimmed by the schema already; no headers at all is stored as null. */
const storedHeaders = (headers: WebhookHeader[] | null | undefined) => (headers && headers.length > 0 ? headers : null);

const newSecret = () => randomBytes(32).toString('hex');

export const webhookRoutes: AnyRouteSpec[] = [
  {
    method: 'GET',
    url: '/v2/webhooks',
    summary: 'List webhooks, newest first',
    tag: 'Webhooks',
    query: pageParams(30),
    response: { status: 200, description: 'A page of webhooks', schema: listDocument(webhookSchema, { paginated: true }) },
    async handler({ services, accountId, query, url, include }) {
      const page = parsePage(query, 30);
      const { rows, total } = await listWebhooks(services.db, accountId, page.size, (page.number - 1) * page.size);
      const data = rows.map(webhookResource);
      return { body: { data, included: await include('webhook', data), ...paginate(url, page, total, rows.length) } };
    },
  },
  {
    method: 'POST',
    url: '/v2/webhooks',
    summary: 'Create a webhook',
    tag: 'Webhooks',
    body: createBody,
    parseBody: validateBody,
    response: { status: 201, description: 'The created webhook, with the secret svc generated for it', schema: recordDocument(webhookSchema) },
    async handler({ services, accountId, body, url, req }) {
      const attributes = body.data.attributes;
      await assertDeliverable(attributes.url, webhookSettings(req.server));
      const row = await insertWebhook(
        services.db,
        accountId,
        { url: attributes.url, events: attributes.events, active: attributes.active ?? true, headers: storedHeaders(attributes.headers), secret: newSecret() },
        services.clock.now(),
      );
      const data = webhookResource(row);
      return { status: 201, body: { data, links: { self: new URL(data.links!.self, url).href } } };
    },
  },
  {
    method: 'GET',
    url: '/v2/webhooks/events',
    summary: 'List the events a webhook can subscribe to, by category',
    tag: 'Webhooks',
    response: { status: 200, description: 'Event categories, each with its events', schema: z.object({ data: z.array(eventCategorySchema) }) },
    async handler() {
      const data = WEBHOOK_EVENT_CATEGORIES.map((category) => ({
        id: category.id,
        type: 'webhook_event_category',
        attributes: { name: category.name, events: category.events.map(({ name, description }) => ({ name, description })) },
      }));
      return { body: { data } };
    },
  },
  {
    method: 'GET',
    url: '/v2/webhooks/ips',
    summary: 'List the IP addresses webhook deliveries come from',
    tag: 'Webhooks',
    plainJson: true,
    response: { status: 200, description: 'The addresses to allow-list (SVC_WEBHOOK_SOURCE_IPS)', schema: sourceIpsSchema },
    async handler({ req }) {
      const settings = webhookSettings(req.server);
      return { body: { webhook_notification_ips: [...settings.sourceIps], last_updated: settings.sourceIpsUpdatedAt.toISOString() } };
    },
  },
  {
    method: 'GET',
    url: '/v2/webhooks/:id',
    summary: 'Get a webhook',
    tag: 'Webhooks',
    response: { status: 200, description: 'The webhook, with its secret', schema: recordDocument(webhookSchema) },
    async handler({ services, accountId, params, include }) {
      const [row] = await findWebhooks(services.db, accountId, [params.id]);
      if (!row) throw notFound();
      const data = webhookResource(row);
      return { body: { data, included: await include('webhook', [data]) } };
    },
  },
  {
    method: 'PATCH',
    url: '/v2/webhooks/:id',
    summary: 'Change the URL, events, headers or active flag of a webhook',
    tag: 'Webhooks',
    body: patchBody,
    parseBody: validateBody,
    response: { status: 200, description: 'The updated webhook', schema: recordDocument(webhookSchema) },
    async handler({ services, accountId, params, body, req }) {
      const [existing] = await findWebhooks(services.db, accountId, [params.id]);
      if (!existing) throw notFound();
      const { url, events, active, headers } = body.data.attributes;
      if (url !== undefined) await assertDeliverable(url, webhookSettings(req.server));
      const changes: WebhookChanges = { url, events, active, ...(headers !== undefined ? { headers: storedHeaders(headers) } : {}) };
      if (Object.values(changes).every((v) => v === undefined)) return { body: { data: webhookResource(existing) } };
      const row = await updateWebhook(services.db, accountId, existing.id, changes, services.clock.now());
      if (!row) throw notFound();
      return { body: { data: webhookResource(row) } };
    },
  },
  {
    method: 'DELETE',
    url: '/v2/webhooks/:id',
    summary: 'Delete a webhook',
    tag: 'Webhooks',
    response: { status: 200, description: 'The deleted webhook', schema: recordDocument(webhookSchema) },
    async handler({ services, accountId, params }) {
      const row = await deleteWebhook(services.db, accountId, params.id);
      if (!row) throw notFound();
      return { body: { data: webhookResource(row) } };
    },
  },
];
