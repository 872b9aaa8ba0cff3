// Containers: their state, labels, milestones and raw carrier events, and a refresh on demand.
import { z } from 'zod';
import { notFound } from '../../jsonapi/errors.ts';
import { paginate } from '../../jsonapi/pagination.ts';
import { optionalParam, parsePage } from '../../jsonapi/query.ts';
import { transportEventResource } from '../../jsonapi/serializers/tracking.ts';
import { containerResources, rawEventResources } from '../../read-model/tracking.ts';
import { findContainers, makeDueNow, updateContainerRefNumbers, type ContainerRow } from '../../store/shipments.ts';
import { listContainers } from '../../store/tracking-lists.ts';
import { transportEventsOfContainers } from '../../store/transport-events.ts';
import { includeParam, listDocument, pageParams } from '../openapi-schemas.ts';
import { listRoute, showRecordRoute } from '../read-routes.ts';
import { trackingClockOf, type AnyRouteSpec, type Ctx } from '../route.ts';
import { containerSchema, rawEventSchema } from './container-schema.ts';
import { customFieldFilterKeys, customFieldFilterParam } from './custom-field-filters.ts';
import { journeyFilterParams, journeyFilterValues } from './journey-filters.ts';
import { TRANSPORT_EVENT_INCLUDES, transportEventSchema } from './transport-event-schema.ts';
import { writeRecordRoute } from '../write-routes.ts';
import { labels } from './labels.ts';

// data.type may be left out (the reference's clients do); data.id, when sent, must be the URL's.
const containerPatch = z.object({ data: z.object({ type: z.literal('container').optional(), id: z.string().optional(), attributes: z.object({ ref_numbers: labels }) }) });

const CONTAINER_INCLUDES = ['shipment', 'pod_terminal', 'transport_events', 'pickup_facility', 'raw_events', 'custom_fields'];

/** The container the path names, or a 404. */
async function pathContainer({ services, accountId, params }: Ctx<unknown>): Promise<ContainerRow> {
  const [row] = await findContainers(services.db, accountId, [params.id]);
  if (!row) throw notFound();
  return row;
}

export const containerRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/containers',
    summary: 'List containers, newest first',
    tag: 'Containers',
    type: 'container',
    schema: containerSchema,
    description: 'A page of containers',
    pageSize: 30,
    includes: CONTAINER_INCLUDES,
    filters: [
      { name: 'filter[number]', description: 'Container number (spaces and dashes ignored)' },
      { name: 'filter[shipment_id]', description: 'Containers of one shipment' },
      ...journeyFilterParams('container'),
      customFieldFilterParam('Container'),
    ],
    list: async ({ services, accountId, query }, limit, offset) =>
      listContainers(
        services.db,
        accountId,
        { number: optionalParam(query, 'filter[number]'), shipment_id: optionalParam(query, 'filter[shipment_id]'), ...journeyFilterValues(query), custom_fields: await customFieldFilterKeys(services.db, accountId, 'Container', query) },
        limit,
        offset,
      ),
    serialize: (rows, { services }) => containerResources(services.db, rows),
  }),
  showRecordRoute({
    url: '/v2/containers/:id',
    summary: 'Get a container',
    tag: 'Containers',
    type: 'container',
    schema: containerSchema,
    description: 'The container',
    includes: CONTAINER_INCLUDES,
  }),
  writeRecordRoute({
    method: 'PATCH',
    url: '/v2/containers/:id',
    summary: 'Set the reference numbers of a container',
    tag: 'Containers',
    body: containerPatch,
    schema: containerSchema,
    description: 'The updated container',
    write: ({ services, accountId, params, body }) =>
      updateContainerRefNumbers(services.db, accountId, params.id, body.data.attributes.ref_numbers, services.clock.now()),
    // As GET shows it: with its transport events' ids.
    serialize: async (row, { services }) => (await containerResources(services.db, [row]))[0],
  }),
  {
    method: 'PATCH',
    url: '/v2/containers/:id/refresh',
    summary: "Ask the container's carrier again now, rather than at the next scheduled refresh",
    tag: 'Containers',
    bucket: 'containers.refresh',
    plainJson: true,
    response: {
      status: 200,
      description: 'The refresh is queued',
      schema: z.object({ message: z.string().describe('A fixed acknowledgement; changes arrive as events') }),
    },
    async handler(ctx) {
      const row = await pathContainer(ctx);
      // The worker picks it up at once; what changes arrives as events, as with any refresh.
      await makeDueNow(ctx.services.db, row.shipment_id, trackingClockOf(ctx.services).now());
      return { body: { message: 'Started refresh for Shipping line, Terminal' } };
    },
  },
  {
    method: 'GET',
    url: '/v2/containers/:id/transport_events',
    summary: "A container's milestones, oldest first",
    tag: 'Containers',
    query: [...pageParams(30), includeParam(TRANSPORT_EVENT_INCLUDES)],
    response: { status: 200, description: 'A page of transport events', schema: listDocument(transportEventSchema, { paginated: true }) },
    async handler(ctx) {
      const row = await pathContainer(ctx);
      const page = parsePage(ctx.query);
      const all = await transportEventsOfContainers(ctx.services.db, [row.id]);
      const slice = all.slice((page.number - 1) * page.size, page.number * page.size);
      const data = slice.map(transportEventResource);
      return { body: { data, included: await ctx.include('transport_event', data), ...paginate(ctx.url, page, all.length, data.length) } };
    },
  },
  {
    method: 'GET',
    url: '/v2/containers/:id/raw_events',
    summary: "The carrier's own events for a container, with their normalised names",
    tag: 'Containers',
    response: { status: 200, description: 'The raw events, oldest first', schema: z.object({ data: z.array(rawEventSchema) }) },
    async handler(ctx) {
      return { body: { data: await rawEventResources(ctx.services.db, await pathContainer(ctx)) } };
    },
  },
];
