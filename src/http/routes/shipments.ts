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
import { includeParam, listDocument, pageParams, recordDocument, resourceSchema, toManySchema, toOneSchema } from '../openapi-schemas.ts';
import { trackingClockOf, type AnyRouteSpec } from '../route.ts';

const labels = z.array(z.string().trim().min(1).max(200)).max(100);
// data.type may be left out (the reference's clients do); data.id, when sent, must be the URL's.
const shipmentPatch = z.object({ data: z.object({ type: z.literal('shipment').optional(), id: z.string().optional(), attributes: z.object({ ref_numbers: labels.optional(), tags: labels.optional() }) }) });
const containerPatch = z.object({ data: z.object({ type: z.literal('container').optional(), id: z.string().optional(), attributes: z.object({ ref_numbers: labels }) }) });

const SHIPMENT_INCLUDES = ['containers', 'port_of_lading', 'port_of_discharge', 'pod_terminal', 'destination', 'destination_terminal', 'customer', 'line_tracking_stopped_by_user'];
const CONTAINER_INCLUDES = ['shipment', 'pod_terminal', 'transport_events', 'pickup_facility', 'raw_events'];
const TRANSPORT_EVENT_INCLUDES = ['shipment', 'container', 'location', 'vessel', 'terminal'];

const instant = z.string().nullable();
const timezone = z.string().nullable().describe('IANA time zone of the place, e.g. America/Los_Angeles');

export const shipmentSchema = resourceSchema(
  'shipment',
  z.object({
    created_at: z.string(),
    updated_at: z.string(),
    bill_of_lading_number: z.string().describe('The bill of lading number, else the number tracked'),
    booking_number: z.string().nullable(),
    normalized_number: z.string().describe('The number tracked, as the tracking request sent it'),
    ref_numbers: z.array(z.string()),
    tags: z.array(z.string()),
    shipping_line_scac: z.string(),
    shipping_line_name: z.string().nullable(),
    shipping_line_short_name: z.string().nullable(),
    customer_name: z.string().nullable().describe("The company name of the customer party, if one is set"),
    port_of_lading_locode: z.string().nullable().describe('UN/LOCODE of the port of lading (POL)'),
    port_of_lading_name: z.string().nullable(),
    port_of_discharge_locode: z.string().nullable().describe('UN/LOCODE of the port of discharge (POD)'),
    port_of_discharge_name: z.string().nullable(),
    destination_locode: z.string().nullable().describe('UN/LOCODE of the inland destination; null when the journey ends at the port of discharge'),
    destination_name: z.string().nullable(),
    pod_vessel_name: z.string().nullable().describe('The vessel that brings the cargo to the port of discharge'),
    pod_vessel_imo: z.string().nullable(),
    pod_voyage_number: z.string().nullable(),
    pol_etd_at: instant.describe('Estimated departure from the port of lading'),
    pol_atd_at: instant.describe('Actual departure from the port of lading'),
    pol_original_etd_at: instant.describe('The first departure estimate seen'),
    pod_eta_at: instant.describe('Estimated arrival at the port of discharge'),
    pod_original_eta_at: instant.describe('The first arrival estimate seen; never overwritten'),
    pod_ata_at: instant.describe('Actual arrival at the port of discharge'),
    destination_eta_at: instant.describe('Estimated arrival at the inland destination'),
    destination_ata_at: instant.describe('Actual arrival at the inland destination'),
    pol_timezone: timezone,
    pod_timezone: timezone,
    destination_timezone: timezone,
    line_tracking_last_attempted_at: instant.describe('When svc last asked the shipping line'),
    line_tracking_last_succeeded_at: instant.describe('When the shipping line last answered'),
    line_tracking_stopped_at: instant.describe('When tracking stopped; null while it goes on'),
    line_tracking_stopped_reason: z.string().nullable().describe('Why tracking stopped: cancelled_by_user, all_containers_terminated, past_arrival_window or no_updates_at_line'),
  }),
  {
    relationships: {
      port_of_lading: toOneSchema('port'),
      port_of_discharge: toOneSchema('port'),
      destination: toOneSchema('metro_area', 'The inland destination'),
      pod_terminal: toOneSchema('terminal', 'The discharge terminal'),
      destination_terminal: toOneSchema('terminal'),
      containers: toManySchema('container'),
      customer: toOneSchema('party'),
      line_tracking_stopped_by_user: toOneSchema('user', 'Who stopped tracking; always null (svc has API keys, not users)'),
    },
    selfLink: true,
  },
);

const hold = z.object({
  name: z.string().describe('freight, customs, USDA, VACIS, TMF or other'),
  status: z.enum(['hold', 'pending']),
  description: z.string().nullable(),
});
const fee = z.object({
  type: z.string().describe('demurrage, exam, extended_dwell_time, other or total'),
  amount: z.number(),
  currency_code: z.string(),
});
const unreported = (description: string) => z.null().describe(`${description}; not reported by svc's feeds yet, always null`);

export const containerSchema = resourceSchema(
  'container',
  z.object({
    number: z.string(),
    ref_numbers: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    seal_number: z.string().nullable(),
    equipment_type: z.enum(['dry', 'reefer', 'open top', 'flat rack', 'bulk', 'tank']).nullable(),
    equipment_length: z.number().nullable().describe('In feet (20, 40, 45)'),
    equipment_height: z.enum(['standard', 'high_cube']).nullable(),
    weight_in_lbs: z.number().nullable(),
    pickup_lfd: instant.describe("The terminal's last free day, as the instant it begins there (local midnight)"),
    pickup_appointment_at: instant,
    availability_known: z.boolean().describe('Whether a terminal reports this container, so available_for_pickup means something'),
    available_for_pickup: z.boolean().nullable(),
    empty_out_at: instant.describe('Empty container picked up for stuffing'),
    pol_full_in_at: instant.describe('Full container in at the port of lading'),
    pol_vessel_loaded_at: instant,
    pol_vessel_departed_at: instant,
    pod_arrived_at: instant,
    pod_discharged_at: instant,
    pod_full_out_at: instant.describe('Picked up full at the port of discharge; null for inland moves'),
    pod_rail_loaded_at: instant,
    pod_rail_departed_at: instant,
    ind_eta_at: instant.describe('Estimated arrival of the rail move at the inland destination'),
    ind_ata_at: instant.describe('Actual arrival at the inland destination'),
    ind_rail_unloaded_at: instant,
    final_destination_full_out_at: instant.describe('Picked up full at the inland destination'),
    empty_terminated_at: instant.describe('Empty container returned'),
    terminal_checked_at: instant.describe('When terminal data about this container was last observed'),
    pod_timezone: timezone,
    final_destination_timezone: timezone,
    empty_terminated_timezone: timezone,
    current_status: z
      .enum(['new', 'on_ship', 'grounded', 'available', 'not_available', 'awaiting_inland_transfer', 'on_rail', 'off_dock', 'picked_up', 'delivered', 'dropped', 'loaded', 'empty_returned'])
      .describe('Where the container is in its journey'),
    holds_at_pod_terminal: z.array(hold).describe('Active or expected holds at the discharge terminal; a cleared hold is absent'),
    fees_at_pod_terminal: z.array(fee).describe('Fees due at the discharge terminal'),
    import_deadlines: z
      .object({
        pickup_lfd_terminal: instant.describe('Same as pickup_lfd'),
        pickup_lfd_rail: z.null().describe('Not reported yet, always null'),
        pickup_lfd_line: z.null().describe('Not reported yet, always null'),
      })
      .describe('Last free days by who sets them'),
    pod_last_tracking_request_at: instant.describe('Same as terminal_checked_at'),
    location_at_pod_terminal: unreported('Where the container sits in the terminal'),
    pod_full_out_chassis_number: unreported('The chassis it left on'),
    pod_rail_carrier_scac: z.string().nullable().describe('SCAC of the railroad that took the container from the port of discharge'),
    ind_rail_carrier_scac: z.string().nullable().describe('SCAC of the railroad that brought it to the inland destination'),
    ind_facility_lfd_on: unreported('The last free day at the inland facility'),
    shipment_last_tracking_request_at: unreported('When the shipment was last asked of the line'),
  }),
  {
    relationships: {
      shipment: toOneSchema('shipment'),
      pod_terminal: toOneSchema('terminal', 'The discharge terminal'),
      transport_events: toManySchema('transport_event', 'Its milestones, oldest first; absent after PATCH').optional(),
      pickup_facility: toOneSchema('terminal', 'The inland facility it is picked up at; always null (not reported yet)'),
      raw_events: toManySchema('raw_event', "The carrier's raw events; always empty (svc keeps normalised transport events)"),
    },
    selfLink: true,
  },
);

export const transportEventSchema = resourceSchema(
  'transport_event',
  z.object({
    event: z.string().describe('container.transport.<milestone>, e.g. container.transport.vessel_departed'),
    voyage_number: z.string().nullable(),
    timestamp: instant.describe('When it happened'),
    timezone: timezone,
    location_locode: z.string().nullable(),
    data_source: z.enum(['shipping_line', 'terminal']),
    published_at: instant.describe('When the source published it'),
    created_at: z.string().describe('When svc recorded it'),
  }),
  {
    relationships: {
      shipment: toOneSchema('shipment'),
      container: toOneSchema('container'),
      location: toOneSchema('port'),
      vessel: toOneSchema('vessel'),
      terminal: toOneSchema('terminal'),
    },
    selfLink: true,
  },
);

const rawEventSchema = z.object({
  id: z.uuid(),
  type: z.literal('raw_event'),
  attributes: z.object({
    event: z.string().nullable().describe('The normalised milestone it became (without container.transport.), null if none'),
    original_event: z.string().describe("The carrier's event type and code, e.g. EQUIPMENT LOAD"),
    estimated: z.boolean().describe('Not an actual event (estimated or planned)'),
    timestamp: z.string(),
    location_locode: z.string().nullable(),
    index: z.int().describe('Position in the list, from 0'),
    data_source: z.literal('shipping_line'),
    published_at: z.string().describe('When the carrier published it'),
    created_at: z.string().describe('When svc received it'),
    payload: z.unknown().describe('The event exactly as the carrier sent it'),
  }),
  relationships: z.object({ container: toOneSchema('container') }),
});

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
    response: { status: 200, description: 'A page of shipments', schema: listDocument(shipmentSchema, { paginated: true }) },
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
    response: { status: 200, description: 'The shipment', schema: recordDocument(shipmentSchema) },
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
    response: { status: 200, description: 'The updated shipment', schema: recordDocument(shipmentSchema) },
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
      response: { status: 200, description: 'The shipment', schema: recordDocument(shipmentSchema) },
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
    response: { status: 200, description: 'A page of containers', schema: listDocument(containerSchema, { paginated: true }) },
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
    response: { status: 200, description: 'The container', schema: recordDocument(containerSchema) },
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
    response: { status: 200, description: 'The updated container', schema: recordDocument(containerSchema) },
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
    response: {
      status: 200,
      description: 'The refresh is queued',
      schema: z.object({ message: z.string().describe('A fixed acknowledgement; changes arrive as events') }),
    },
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
    response: { status: 200, description: 'A page of transport events', schema: listDocument(transportEventSchema, { paginated: true }) },
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
    response: { status: 200, description: 'The transport event', schema: recordDocument(transportEventSchema) },
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
    response: { status: 200, description: 'The raw events, oldest first', schema: z.object({ data: z.array(rawEventSchema) }) },
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
