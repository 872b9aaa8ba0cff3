// Webhook subscriptions: where an account wants its events delivered, which events, with which
// extra headers. svc generates the signing secret. The event catalogue and the addresses
// deliveries come from are served beside them.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { WEBHOOK_EVENT_CATEGORIES, WEBHOOK_EVENT_NAMES, isWebhookEvent } from '../../domain/webhooks/events.ts';
import { MAX_WEBHOOK_HEADERS, headerNameProblem, headerValueProblem, type WebhookHeader } from '../../domain/webhooks/headers.ts';
import { resourceDocument, validateBody } from '../../jsonapi/body.ts';
import { webhookResource } from '../../jsonapi/serializers/webhook.ts';
import { deleteWebhook, findWebhooks, insertWebhook, listWebhooks, updateWebhook, type WebhookChanges } from '../../store/webhooks.ts';
import { recordDocument, resourceSchema } from '../openapi-schemas.ts';
import { listRoute, showRoute } from '../read-routes.ts';
import { webhookSettingsOf, type AnyRouteSpec, type Services } from '../route.ts';
import { assertDeliverable, customIssue, webhookUrlSchema } from './webhook-url.ts';
import { createdReply, writeRecordRoute } from '../write-routes.ts';

// ---- request bodies ---------------------------------------------------------------------------

const MAX_EVENTS = 100;
const quoted = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

const urlAttribute = webhookUrlSchema.describe('The https endpoint deliveries are POSTed to; it must reach a public address.');

const eventsAttribute = z
  .array(z.string().meta({ enum: [...WEBHOOK_EVENT_NAMES] }))
  .max(MAX_EVENTS)
  .superRefine((events, ctx) => {
    if (events.length === 0) ctx.addIssue(customIssue("events can't be blank: subscribe to at least one event.", 'blank'));
    events.forEach((name, i) => {
      if (!isWebhookEvent(name)) ctx.addIssue(customIssue(`${quoted(name)} is not a webhook event; GET /v2/webhooks/events lists them.`, 'invalid', [i]));
    });
    const repeated = [...new Set(events.filter((name, i) => events.indexOf(name) !== i))];
    if (repeated.length > 0) ctx.addIssue(customIssue(`events lists ${repeated.map(quoted).join(', ')} more than once; each event may appear once.`, 'duplicate_event'));
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
        if (nameProblem) ctx.addIssue(customIssue(nameProblem, 'invalid', [i, 'name']));
        else if (seen.has(name.toLowerCase())) ctx.addIssue(customIssue(`The header ${name} is listed more than once.`, 'duplicate_header', [i, 'name']));
        seen.add(name.toLowerCase());
      }
      const valueProblem = value.length <= MAX_HEADER_VALUE ? headerValueProblem(value) : undefined;
      if (valueProblem) ctx.addIssue(customIssue(valueProblem, 'invalid', [i, 'value']));
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

/** 422 at /data/attributes/url unless svc may deliver there; a name that does not resolve right now is accepted. */
const assertWebhookUrl = (url: string, services: Services) => assertDeliverable(url, webhookSettingsOf(services), '/data/attributes/url', true);

/** Trimmed by the schema already; no headers at all is stored as null. */
const storedHeaders = (headers: WebhookHeader[] | null | undefined) => (headers && headers.length > 0 ? headers : null);

const newSecret = () => randomBytes(32).toString('hex');

export const webhookRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/webhooks',
    summary: 'List webhooks, newest first',
    tag: 'Webhooks',
    type: 'webhook',
    schema: webhookSchema,
    description: 'A page of webhooks',
    pageSize: 30,
    list: ({ services, accountId }, limit, offset) => listWebhooks(services.db, accountId, limit, offset),
    serialize: (rows) => rows.map(webhookResource),
  }),
  {
    method: 'POST',
    url: '/v2/webhooks',
    summary: 'Create a webhook',
    tag: 'Webhooks',
    body: createBody,
    parseBody: validateBody,
    response: { status: 201, description: 'The created webhook, with the secret svc generated for it', schema: recordDocument(webhookSchema) },
    async handler({ services, accountId, body, url }) {
      const attributes = body.data.attributes;
      await assertWebhookUrl(attributes.url, services);
      const row = await insertWebhook(
        services.db,
        accountId,
        { url: attributes.url, events: attributes.events, active: attributes.active ?? true, headers: storedHeaders(attributes.headers), secret: newSecret() },
        services.clock.now(),
      );
      return createdReply(webhookResource(row), url);
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
    async handler({ services }) {
      const settings = webhookSettingsOf(services);
      return { body: { webhook_notification_ips: [...settings.sourceIps], last_updated: settings.sourceIpsUpdatedAt.toISOString() } };
    },
  },
  showRoute({
    url: '/v2/webhooks/:id',
    summary: 'Get a webhook',
    tag: 'Webhooks',
    type: 'webhook',
    schema: webhookSchema,
    description: 'The webhook, with its secret',
    find: async ({ services, accountId, params }) => (await findWebhooks(services.db, accountId, [params.id]))[0],
    serialize: (row) => webhookResource(row),
  }),
  writeRecordRoute({
    method: 'PATCH',
    url: '/v2/webhooks/:id',
    summary: 'Change the URL, events, headers or active flag of a webhook',
    tag: 'Webhooks',
    body: patchBody,
    schema: webhookSchema,
    description: 'The updated webhook',
    async write({ services, accountId, params, body }) {
      const [existing] = await findWebhooks(services.db, accountId, [params.id]);
      if (!existing) return undefined;
      const { url, events, active, headers } = body.data.attributes;
      if (url !== undefined) await assertWebhookUrl(url, services);
      const changes: WebhookChanges = { url, events, active, ...(headers !== undefined ? { headers: storedHeaders(headers) } : {}) };
      if (Object.values(changes).every((v) => v === undefined)) return existing;
      return updateWebhook(services.db, accountId, existing.id, changes, services.clock.now());
    },
    serialize: (row) => webhookResource(row),
  }),
  writeRecordRoute({
    method: 'DELETE',
    url: '/v2/webhooks/:id',
    summary: 'Delete a webhook',
    tag: 'Webhooks',
    schema: webhookSchema,
    description: 'The deleted webhook',
    write: ({ services, accountId, params }) => deleteWebhook(services.db, accountId, params.id),
    serialize: (row) => webhookResource(row),
  }),
];
