// Example webhook payloads: GET /v2/webhook_notifications/examples and POST /v2/webhooks/trigger.
import type { AnyRouteSpec } from '../route.ts';

export const webhookExampleRoutes: AnyRouteSpec[] = [];
