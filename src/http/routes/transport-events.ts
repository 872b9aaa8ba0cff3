// The events of a shipment's journey by id, each where its links.self points: a transport event
// (a milestone of a container; listed per container in containers.ts), an estimated event (a
// change of an estimate) and a container updated event (a changeset of terminal data).
import { z } from 'zod';
import { instant, resourceSchema, timezone, toOneSchema } from '../openapi-schemas.ts';
import { showRecordRoute } from '../read-routes.ts';
import type { AnyRouteSpec } from '../route.ts';
import { TRANSPORT_EVENT_INCLUDES, transportEventSchema } from './transport-event-schema.ts';

const estimatedEventSchema = resourceSchema(
  'estimated_event',
  z.object({
    event: z.string().describe('shipment.estimated.arrival'),
    estimated_timestamp: instant.describe('The estimate'),
    previous_estimated_timestamp: instant.describe('The estimate it replaced'),
    voyage_number: z.string().nullable(),
    timezone,
    location_locode: z.string().nullable(),
    data_source: z.enum(['shipping_line', 'terminal', 'ais']),
    published_at: instant.describe('When the source published it'),
    created_at: z.string().describe('When svc recorded it'),
  }),
  { relationships: { shipment: toOneSchema('shipment'), port: toOneSchema('port'), vessel: toOneSchema('vessel') }, selfLink: true },
);

const containerUpdatedEventSchema = resourceSchema(
  'container_updated_event',
  z.object({
    changeset: z.record(z.string(), z.array(z.unknown())).describe('Each changed attribute: [before, after]'),
    timestamp: instant,
    timezone,
    data_source: z.string(),
    created_at: z.string().describe('When svc recorded it'),
  }),
  { relationships: { container: toOneSchema('container'), shipment: toOneSchema('shipment'), terminal: toOneSchema('terminal') }, selfLink: true },
);

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
  showRecordRoute({
    url: '/v2/estimated_events/:id',
    summary: "Get an estimated event (a change of a shipment's estimated arrival)",
    tag: 'Shipments',
    type: 'estimated_event',
    schema: estimatedEventSchema,
    description: 'The estimated event',
    includes: ['shipment', 'port', 'vessel'],
  }),
  showRecordRoute({
    url: '/v2/container_updated_events/:id',
    summary: "Get a container updated event (a change of a container's terminal data)",
    tag: 'Containers',
    type: 'container_updated_event',
    schema: containerUpdatedEventSchema,
    description: 'The container updated event',
    includes: ['container', 'shipment', 'terminal'],
  }),
];
