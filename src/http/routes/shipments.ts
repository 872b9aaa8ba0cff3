// Shipments: what tracking requests became, read, labelled and stopped or resumed by the user.
import { z } from 'zod';
import { booleanParam, optionalParam } from '../../jsonapi/query.ts';
import { shipmentResources } from '../../read-model/tracking.ts';
import { setTracking } from '../../services/tracking/stop.ts';
import { updateShipmentLabels, type ShipmentRow } from '../../store/shipments.ts';
import { listShipments } from '../../store/tracking-lists.ts';
import { listRoute, showRecordRoute } from '../read-routes.ts';
import { trackingClockOf, type AnyRouteSpec, type Ctx } from '../route.ts';
import { journeyFilterParams, journeyFilterValues } from './journey-filters.ts';
import { shipmentSchema } from './shipment-schema.ts';
import { writeRecordRoute } from '../write-routes.ts';

const labels = z.array(z.string().trim().min(1).max(200)).max(100);
// data.type may be left out (the reference's clients do); data.id, when sent, must be the URL's.
const shipmentPatch = z.object({ data: z.object({ type: z.literal('shipment').optional(), id: z.string().optional(), attributes: z.object({ ref_numbers: labels.optional(), tags: labels.optional() }) }) });

const SHIPMENT_INCLUDES = ['containers', 'port_of_lading', 'port_of_discharge', 'pod_terminal', 'destination', 'destination_terminal', 'customer', 'line_tracking_stopped_by_user'];

const shipmentResource = async (row: ShipmentRow, { services }: Ctx<unknown>) => (await shipmentResources(services.db, [row], trackingClockOf(services).now()))[0];

export const shipmentRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/shipments',
    summary: 'List shipments, newest first',
    tag: 'Shipments',
    type: 'shipment',
    schema: shipmentSchema,
    description: 'A page of shipments',
    pageSize: 30,
    includes: SHIPMENT_INCLUDES,
    filters: [
      { name: 'q', description: 'Part of a bill of lading, booking, reference or container number' },
      { name: 'number', description: 'The tracked bill of lading or booking number (exact)' },
      { name: 'filter[tracking_stopped]', description: 'true or false', schema: { type: 'boolean' } },
      ...journeyFilterParams('shipment'),
    ],
    list: ({ services, accountId, query }, limit, offset) =>
      listShipments(
        services.db,
        accountId,
        {
          q: optionalParam(query, 'q'),
          number: optionalParam(query, 'number'),
          tracking_stopped: booleanParam(query, 'filter[tracking_stopped]'),
          ...journeyFilterValues(query),
        },
        limit,
        offset,
      ),
    serialize: (rows, { services }) => shipmentResources(services.db, rows, trackingClockOf(services).now()),
  }),
  showRecordRoute({
    url: '/v2/shipments/:id',
    summary: 'Get a shipment',
    tag: 'Shipments',
    type: 'shipment',
    schema: shipmentSchema,
    description: 'The shipment',
    includes: SHIPMENT_INCLUDES,
  }),
  writeRecordRoute({
    method: 'PATCH',
    url: '/v2/shipments/:id',
    summary: 'Change the reference numbers or tags of a shipment',
    tag: 'Shipments',
    body: shipmentPatch,
    schema: shipmentSchema,
    description: 'The updated shipment',
    write: ({ services, accountId, params, body }) => updateShipmentLabels(services.db, accountId, params.id, body.data.attributes, services.clock.now()),
    serialize: shipmentResource,
  }),
  ...(['stop_tracking', 'resume_tracking'] as const).map((action) =>
    writeRecordRoute({
      method: 'PATCH',
      url: `/v2/shipments/:id/${action}`,
      summary: action === 'stop_tracking' ? 'Stop tracking a shipment and all its containers' : 'Resume tracking a shipment',
      tag: 'Shipments',
      schema: shipmentSchema,
      description: 'The shipment',
      write: ({ services, accountId, params }) => setTracking(services.db, accountId, params.id, action === 'resume_tracking', trackingClockOf(services).now()),
      serialize: shipmentResource,
    }),
  ),
];
