// Example webhook payloads: GET /v2/webhook_notifications/examples shows the document a delivery
// of an event carries, and POST /v2/webhooks/trigger sends it once to any URL, signed and sent as
// the delivery worker sends real ones, so a receiver can be tested before a webhook exists.
import { z } from 'zod';
import { WEBHOOK_EVENT_NAMES, isWebhookEvent } from '../../domain/webhooks/events.ts';
import { validateBody } from '../../jsonapi/body.ts';
import { badParameter } from '../../jsonapi/errors.ts';
import { param, type Query } from '../../jsonapi/query.ts';
import { answerProblem, deliveryHeaders } from '../../webhooks/delivery-request.ts';
import { exampleNotification } from '../../webhooks/examples.ts';
import { WebhookSender } from '../../webhooks/http-sender.ts';
import { webhookSettingsOf, type AnyRouteSpec } from '../route.ts';
import { notificationSchema } from './webhook-notifications.ts';
import { assertDeliverable, customIssue, webhookUrlSchema } from './webhook-url.ts';

const EVENT_HINT = 'GET /v2/webhooks/events lists the event names.';
const MAX_SECRET_LENGTH = 1024;

/** The `event` query parameter, or a 400 naming it. */
function eventParameter(query: Query): string {
  const event = param(query, 'event');
  if (event === undefined || event.trim() === '') throw badParameter('event', `event is required: the name of a webhook event. ${EVENT_HINT}`, 'blank');
  if (!isWebhookEvent(event)) throw badParameter('event', `${JSON.stringify(event.slice(0, 80))} is not a webhook event. ${EVENT_HINT}`);
  return event;
}

// Plain JSON, so validateBody's pointers are /url, /event and /secret.
const triggerBody = z.object({
  url: webhookUrlSchema.describe('Where to send the example; the same rules as a webhook URL (https, a public address).'),
  event: z
    .string()
    .trim()
    .min(1)
    .superRefine((event, ctx) => {
      if (event !== '' && !isWebhookEvent(event)) ctx.addIssue(customIssue(`${JSON.stringify(event.slice(0, 80))} is not a webhook event. ${EVENT_HINT}`, 'invalid'));
    })
    .meta({ enum: [...WEBHOOK_EVENT_NAMES] })
    .describe('The event whose example notification is sent.'),
  secret: z
    .string()
    .min(1)
    .max(MAX_SECRET_LENGTH)
    .nullable()
    .optional()
    .describe('When given, the request is signed with it exactly as deliveries are signed with a webhook secret.'),
});

const anyResource = z.object({
  id: z.string(),
  type: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  relationships: z.record(z.string(), z.object({ data: z.unknown() })).optional(),
  links: z.object({ self: z.string() }).optional(),
});

const exampleSchema = z.object({
  data: notificationSchema,
  included: z.array(anyResource).describe("The records a delivery of this event includes: its reference object and what it relates to"),
  links: z.object({ self: z.string() }),
});

const headersSchema = z.record(z.string(), z.string());

const triggerResultSchema = z.object({
  url: z.string(),
  succeeded: z.boolean().describe('true when the receiver answered 200, 201, 202 or 204'),
  error: z.string().nullable().describe('Why the attempt failed; null when it succeeded'),
  status_code: z.number().int().nullable().describe("The receiver's HTTP status; null when it gave no answer"),
  request_headers: headersSchema,
  request_body: z.string().describe('The exact body sent: the example notification document'),
  response_headers: headersSchema.nullable().describe("The receiver's answer headers; null when it gave no answer"),
  response_body: z.string().nullable().describe("The first KiB of the receiver's answer"),
});

export const webhookExampleRoutes: AnyRouteSpec[] = [
  {
    method: 'GET',
    url: '/v2/webhook_notifications/examples',
    summary: 'Get the notification document a delivery of an event carries, filled with example data',
    tag: 'Webhook notifications',
    query: [{ name: 'event', description: `The event to show (required). ${EVENT_HINT}`, schema: { type: 'string', enum: [...WEBHOOK_EVENT_NAMES] } }],
    response: { status: 200, description: 'The example notification with what its delivery includes', schema: exampleSchema },
    async handler({ query, url }) {
      const example = await exampleNotification(eventParameter(query));
      return { body: { ...example, links: { self: url.href } } };
    },
  },
  {
    method: 'POST',
    url: '/v2/webhooks/trigger',
    summary: "Send an event's example notification once to a URL, as a delivery is sent, and report the answer",
    tag: 'Webhooks',
    plainJson: true,
    body: triggerBody,
    parseBody: validateBody,
    response: { status: 200, description: 'What was sent and what the receiver answered (a failed delivery is still a 200)', schema: triggerResultSchema },
    async handler({ services, body }) {
      const settings = webhookSettingsOf(services);
      // Sent now, so a name that does not resolve is refused rather than reported as a failed send.
      await assertDeliverable(body.url, settings, '/url', false);

      // The body and headers of a real delivery: no links, the notification id as message id.
      const document = await exampleNotification(body.event);
      const requestBody = JSON.stringify(document);
      const headers = deliveryHeaders({ secret: body.secret ?? null, messageId: document.data.id, at: services.clock.now(), body: requestBody });
      const sender = new WebhookSender({ allowInsecure: settings.allowInsecure, timeoutMs: settings.timeoutMs, lookup: settings.lookup });
      const result = await sender.send(body.url, headers, requestBody).finally(() => sender.close());

      const error = answerProblem(result.statusCode, result.error);
      return {
        body: {
          url: body.url,
          succeeded: error === null,
          error,
          status_code: result.statusCode,
          request_headers: headers,
          request_body: requestBody,
          response_headers: result.responseHeaders,
          response_body: result.responseBody,
        },
      };
    },
  },
];
