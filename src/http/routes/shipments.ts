// Shipments and containers: what tracking requests became, read and labelled by the user.
import { z } from 'zod';
import { validateBody } from '../../jsonapi/body.ts';
import type { Resource } from '../../jsonapi/document.ts';
import { notFound } from '../../jsonapi/errors.ts';
import { paginate } from '../../jsonapi/pagination.ts';
import { booleanParam, optionalParam, parsePage } from '../../jsonapi/query.ts';
import { containerResource, shipmentResource, transportEventResource } from '../../jsonapi/serializers/tracking.ts';
import type { Queryable } from '../../store/db.ts';
import {
  containersOfShipments,
  findContainers,
  findShipments,
  listContainers,
  listShipments,
  updateContainerRefNumbers,
  updateShipmentLabels,
  type ContainerRow,
  type ShipmentRow,
} from '../../store/shipments.ts';
import { setTracking } from '../../services/tracking/stop.ts';
import { findTransportEvents, rawEventsOfContainer, transportEventsOfContainers } from '../../store/transport-events.ts';
import { includeParam, pageParams } from '../openapi-schemas.ts';
import { trackingClockOf, type AnyRouteSpec } from '../route.ts';

const labels = z.array(z.string().trim().min(1).max(200)).max(100);
const shipmentPatch = z.object({ data: z.object({ type: z.literal('shipment'), attributes: z.object({ ref_numbers: labels.optional(), tags: labels.optional() }) }) });
const containerPatch = z.object({ data: z.object({ type: z.literal('container'), attributes: z.object({ ref_numbers: labels }) }) });

const SHIPMENT_INCLUDES = ['containers', 'port_of_lading', 'port_of_discharge', 'pod_terminal', 'destination', 'destination_terminal', 'customer'];
const CONTAINER_INCLUDES = ['shipment', 'pod_terminal', 'transport_events'];
const TRANSPORT_EVENT_INCLUDES = ['shipment', 'container', 'location', 'vessel', 'terminal'];

/** Shipment resources with their container ids and shipping line names, in few queries. */
export async function shipmentResources(db: Queryable, rows: ShipmentRow[]): Promise<Resource[]> {
  const containers = await containersOfShipments(db, rows.map((r) => r.id));
  const { rows: lines } = await db.query<{ scac: string; name: string; short_name: string }>(
    'SELECT scac, name, short_name FROM shipping_lines WHERE scac = ANY($1)',
    [[...new Set(rows.map((r) => r.scac))]],
  );
  const lineOf = new Map(lines.map((l) => [l.scac, l]));
  const customerIds = [...new Set(rows.map((r) => r.customer_id).filter((id): id is string => !!id))];
  const { rows: customers } = customerIds.length
    ? await db.query<{ id: string; company_name: string }>('SELECT id, company_name FROM parties WHERE id = ANY($1::uuid[])', [customerIds])
    : { rows: [] };
  const customerName = new Map(customers.map((c) => [c.id, c.company_name]));
  return rows.map((r) =>
    shipmentResource(r, containers.filter((c) => c.shipment_id === r.id).map((c) => c.id), lineOf.get(r.scac), r.customer_id ? customerName.get(r.customer_id) : null),
  );
}

/** Container resources with their transport event ids, so `include=transport_events` has something to follow. */
export async function containerResources(db: Queryable, rows: ContainerRow[]): Promise<Resource[]> {
  const events = await transportEventsOfContainers(db, rows.map((r) => r.id));
  return rows.map((r) => containerResource(r, events.filter((e) => e.container_id === r.id).map((e) => e.id)));
}

export const shipmentRoutes: AnyRouteSpec[] = [
  {
    method: 'GET',
    url: '/v2/shipments',
    summary: 'List shipments, newest first',
    tag: 'Shipments',
    query: [
      ...pageParams(30),
      includeParam(SHIPMENT_INCLUDES),
      { name: 'q', description: 'Part of a bill of lading, booking, reference or container number' },
      { name: 'number', description: 'The tracked bill of lading or booking number (exact)' },
      { name: 'filter[tracking_stopped]', description: 'true or false', schema: { type: 'boolean' } },
    ],
    async handler({ services, accountId, query, url, include }) {
      const page = parsePage(query);
      const { rows, total } = await listShipments(
        services.db,
        accountId,
        { q: optionalParam(query, 'q'), number: optionalParam(query, 'number'), tracking_stopped: booleanParam(query, 'filter[tracking_stopped]') },
        page.size,
        (page.number - 1) * page.size,
      );
      const data = await shipmentResources(services.db, rows);
      return { body: { data, included: await include('shipment', data), ...paginate(url, page, total, rows.length) } };
    },
  },
  {
    method: 'GET',
    url: '/v2/shipments/:id',
    summary: 'Get a shipment',
    tag: 'Shipments',
    query: [includeParam(SHIPMENT_INCLUDES)],
    async handler({ services, accountId, params, include }) {
      const rows = await findShipments(services.db, accountId, [params.id]);
      if (rows.length === 0) throw notFound();
      const [data] = await shipmentResources(services.db, rows);
      return { body: { data, included: await include('shipment', [data]) } };
    },
  },
  {
    method: 'PATCH',
    url: '/v2/shipments/:id',
    summary: 'Change the reference numbers or tags of a shipment',
    tag: 'Shipments',
    body: shipmentPatch,
    parseBody: validateBody,
    async handler({ services, accountId, params, body }) {
      const row = await updateShipmentLabels(services.db, accountId, params.id, body.data.attributes, services.clock.now());
      if (!row) throw notFound();
      const [data] = await shipmentResources(services.db, [row]);
      return { body: { data } };
    },
  },
  ...(['stop_tracking', 'resume_tracking'] as const).map(
    (action): AnyRouteSpec => ({
      method: 'PATCH',
      url: `/v2/shipments/:id/${action}`,
      summary: action === 'stop_tracking' ? 'Stop tracking a shipment and all its containers' : 'Resume tracking a shipment',
      tag: 'Shipments',
      async handler({ services, accountId, params }) {
        const row = await setTracking(services.db, accountId, params.id, action === 'resume_tracking', trackingClockOf(services).now());
        if (!row) throw notFound();
        const [data] = await shipmentResources(services.db, [row]);
        return { body: { data } };
      },
    }),
  ),
  {
    method: 'GET',
    url: '/v2/containers',
    summary: 'List containers, newest first',
    tag: 'Containers',
    query: [
      ...pageParams(30),
      includeParam(CONTAINER_INCLUDES),
      { name: 'filter[number]', description: 'Container number (spaces and dashes ignored)' },
      { name: 'filter[shipment_id]', description: 'Containers of one shipment' },
    ],
    async handler({ services, accountId, query, url, include }) {
      const page = parsePage(query);
      const { rows, total } = await listContainers(
        services.db,
        accountId,
        { number: optionalParam(query, 'filter[number]'), shipment_id: optionalParam(query, 'filter[shipment_id]') },
        page.size,
        (page.number - 1) * page.size,
      );
      const data = await containerResources(services.db, rows);
      return { body: { data, included: await include('container', data), ...paginate(url, page, total, rows.length) } };
    },
  },
  {
    method: 'GET',
    url: '/v2/containers/:id',
    summary: 'Get a container',
    tag: 'Containers',
    query: [includeParam(CONTAINER_INCLUDES)],
    async handler({ services, accountId, params, include }) {
      const rows = await findContainers(services.db, accountId, [params.id]);
      if (rows.length === 0) throw notFound();
      const [data] = await containerResources(services.db, rows);
      return { body: { data, included: await include('container', [data]) } };
    },
  },
  {
    method: 'PATCH',
    url: '/v2/containers/:id',
    summary: 'Set the reference numbers of a container',
    tag: 'Containers',
    body: containerPatch,
    parseBody: validateBody,
    async handler({ services, accountId, params, body }) {
      const row = await updateContainerRefNumbers(services.db, accountId, params.id, body.data.attributes.ref_numbers, services.clock.now());
      if (!row) throw notFound();
      return { body: { data: containerResource(row) } };
    },
  },
  {
    method: 'PATCH',
    url: '/v2/containers/:id/refresh',
    summary: "Ask the container's carrier again now, rather than at the next scheduled refresh",
    tag: 'Containers',
    bucket: 'containers.refresh',
    plainJson: true,
    async handler({ services, accountId, params }) {
      const [row] = await findContainers(services.db, accountId, [params.id]);
      if (!row) throw notFound();
      // The worker picks it up at once; what changes arrives as events, as with any refresh.
      await services.db.query(
        'UPDATE shipments SET next_refresh_at = LEAST(coalesce(next_refresh_at, $2), $2) WHERE id = $1 AND line_tracking_stopped_at IS NULL',
        [row.shipment_id, trackingClockOf(services).now()],
      );
      return { body: { message: 'Started refresh for Shipping line, Terminal' } };
    },
  },
  {
    method: 'GET',
    url: '/v2/containers/:id/transport_events',
    summary: "A container's milestones, oldest first",
    tag: 'Containers',
    query: [...pageParams(30), includeParam(TRANSPORT_EVENT_INCLUDES)],
    async handler({ services, accountId, params, query, url, include }) {
      const [row] = await findContainers(services.db, accountId, [params.id]);
      if (!row) throw notFound();
      const page = parsePage(query);
      const all = await transportEventsOfContainers(services.db, [row.id]);
      const slice = all.slice((page.number - 1) * page.size, page.number * page.size);
      const data = slice.map(transportEventResource);
      return { body: { data, included: await include('transport_event', data), ...paginate(url, page, all.length, data.length) } };
    },
  },
  {
    method: 'GET',
    url: '/v2/transport_events/:id',
    summary: 'Get a transport event (a milestone of a container)',
    tag: 'Containers',
    query: [includeParam(TRANSPORT_EVENT_INCLUDES)],
    async handler({ services, accountId, params, include }) {
      const [row] = await findTransportEvents(services.db, accountId, [params.id]);
      if (!row) throw notFound();
      const data = transportEventResource(row);
      return { body: { data, included: await include('transport_event', [data]) } };
    },
  },
  {
    method: 'GET',
    url: '/v2/containers/:id/raw_events',
    summary: "The carrier's own events for a container, with their normalised names",
    tag: 'Containers',
    async handler({ services, accountId, params }) {
      const [row] = await findContainers(services.db, accountId, [params.id]);
      if (!row) throw notFound();
      const raw = await rawEventsOfContainer(services.db, row.shipment_id, row.number);
      const { rows: names } = await services.db.query<{ source_event_id: string; event: string }>(
        'SELECT source_event_id, event FROM transport_events WHERE container_id = $1 AND source_event_id IS NOT NULL',
        [row.id],
      );
      const normalised = new Map(names.map((n) => [n.source_event_id, n.event]));
      const data = raw.map((r, index) => ({
        id: r.id,
        type: 'raw_event',
        attributes: {
          event: normalised.get(r.source_event_id)?.replace(/^container\.transport\./, '') ?? null,
          original_event: `${r.event_type} ${r.code}`,
          estimated: r.classifier !== 'ACT',
          timestamp: r.occurred_at.toISOString(),
          location_locode: r.location_locode,
          index,
          data_source: 'shipping_line',
          published_at: r.published_at.toISOString(),
          created_at: r.received_at.toISOString(),
          payload: r.payload,
        },
        relationships: { container: { data: { type: 'container', id: row.id } } },
      }));
      return { body: { data } };
    },
  },
];
