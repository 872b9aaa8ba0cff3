// A transport event by id (a milestone of a container; listed per container in containers.ts).
import { showRecordRoute } from '../read-routes.ts';
import type { AnyRouteSpec } from '../route.ts';
import { TRANSPORT_EVENT_INCLUDES, transportEventSchema } from './transport-event-schema.ts';

export const transportEventRoutes: AnyRouteSpec[] = [
  showRecordRoute({
    url: '/v2/transport_events/:id',
    summary: 'Get a transport event (a milestone of a container)',
    tag: 'Containers',
    type: 'transport_event',
    schema: transportEventSchema,
    description: 'The transport event',
    includes: TRANSPORT_EVENT_INCLUDES,
  }),
];
