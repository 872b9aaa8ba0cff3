// Webhook notifications: what svc delivered or tried to deliver, with every attempt's log, and
// a way to send one again.
import { z } from 'zod';
import { notFound } from '../../jsonapi/errors.ts';
import { parseInclude } from '../../jsonapi/query.ts';
import { webhookNotificationResource } from '../../jsonapi/serializers/webhook-notification.ts';
import { findNotifications, listNotifications, requeueNotification } from '../../store/webhook-notifications.ts';
import { resourceTypes } from '../../read-model/resource-types.ts';
import { notificationDocument } from '../../webhooks/notification-document.ts';
import { includeParam, recordDocument, resourceSchema } from '../openapi-schemas.ts';
import { listRoute } from '../read-routes.ts';
import { trackingClockOf, type AnyRouteSpec } from '../route.ts';

const RELATIONSHIPS = Object.keys(resourceTypes.webhook_notification.relationships);

export const notificationSchema = resourceSchema(
  'webhook_notification',
  z.object({
    id: z.string(),
    event: z.string(),
    delivery_status: z.enum(['pending', 'succeeded', 'failed']),
    created_at: z.string(),
    sequence: z.number().int().nullable().describe('Position of the event among the events of its container (1, 2, 3…); null for other events'),
  }),
);

export const webhookNotificationRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/webhook_notifications',
    summary: 'List webhook notifications, newest first',
    tag: 'Webhook notifications',
    type: 'webhook_notification',
    schema: notificationSchema,
    description: 'A page of notifications',
    pageSize: 30,
    includes: RELATIONSHIPS,
    list: ({ services, accountId }, limit, offset) => listNotifications(services.db, accountId, limit, offset),
    serialize: (rows) => rows.map(webhookNotificationResource),
  }),
  {
    method: 'GET',
    url: '/v2/webhook_notifications/:id',
    summary: 'Get a webhook notification; without include it carries what its delivery carries',
    tag: 'Webhook notifications',
    query: [includeParam(RELATIONSHIPS)],
    response: { status: 200, description: 'The notification document', schema: recordDocument(notificationSchema) },
    async handler({ services, accountId, params, query, include }) {
      const [row] = await findNotifications(services.db, accountId, [params.id]);
      if (!row) throw notFound();
      // An explicit include decides what is included; otherwise the document equals the delivered body.
      if (parseInclude(query).length === 0) return { body: await notificationDocument(services.db, row, trackingClockOf(services).now()) };
      const data = webhookNotificationResource(row);
      return { body: { data, included: await include('webhook_notification', [data]) } };
    },
  },
  {
    method: 'POST',
    url: '/v2/webhook_notifications/:id/redeliver',
    summary: 'Deliver a notification again, whatever became of it, with a fresh set of retries',
    tag: 'Webhook notifications',
    response: { status: 202, description: 'The notification, pending again', schema: recordDocument(notificationSchema) },
    async handler({ services, accountId, params }) {
      const requeued = await requeueNotification(services.db, accountId, params.id, services.clock.now());
      if (!requeued) throw notFound();
      const [row] = await findNotifications(services.db, accountId, [params.id]);
      return { status: 202, body: { data: webhookNotificationResource(row) } };
    },
  },
];
