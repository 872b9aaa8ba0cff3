// Shipments: what tracking requests became, read, labelled and stopped or resumed by the user.
import { z } from 'zod';
import { validateBody } from '../../jsonapi/body.ts';
import { notFound } from '../../jsonapi/errors.ts';
import { booleanParam, optionalParam } from '../../jsonapi/query.ts';
import { shipmentResources } from '../../read-model/tracking.ts';
import { setTracking } from '../../services/tracking/stop.ts';
import { listShipments, updateShipmentLabels, type ShipmentRow } from '../../store/shipments.ts';
import type { Queryable } from '../../store/db.ts';
import { recordDocument } from '../openapi-schemas.ts';
import { listRoute, showRecordRoute } from '../read-routes.ts';
import { trackingClockOf, type AnyRouteSpec, type Reply } from '../route.ts';
import { shipmentSchema } from './shipment-schema.ts';

const labels = z.array(z.string().trim().min(1).max(200)).max(100);
// data.type may be left out (the reference's clients do); data.id, when sent, must be the URL's.
const shipmentPatch = z.object({ data: z.object({ type: z.literal('shipment').optional(), id: z.string().optional(), attributes: z.object({ ref_numbers: labels.optional(), tags: labels.optional() }) }) });

const SHIPMENT_INCLUDES = ['containers', 'port_of_lading', 'port_of_discharge', 'pod_terminal', 'destination', 'destination_terminal', 'customer', 'line_tracking_stopped_by_user'];

/** The shipment a write returned, or a 404 when there was none to write. */
async function shipmentReply(db: Queryable, row: ShipmentRow | undefined): Promise<Reply> {
  if (!row) throw notFound();
  const [data] = await shipmentResources(db, [row]);
  return { body: { data } };
}

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
    ],
    list: ({ services, accountId, query }, limit, offset) =>
      listShipments(
        services.db,
        accountId,
        { q: optionalParam(query, 'q'), number: optionalParam(query, 'number'), tracking_stopped: booleanParam(query, 'filter[tracking_stopped]') },
        limit,
        offset,
      ),
    serialize: (rows, { services }) => shipmentResources(services.db, rows),
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
  {
    method: 'PATCH',
    url: '/v2/shipments/:id',
    summary: 'Change the reference numbers or tags of a shipment',
    tag: 'Shipments',
    body: shipmentPatch,
    parseBody: validateBody,
    response: { status: 200, description: 'The updated shipment', schema: recordDocument(shipmentSchema) },
    async handler({ services, accountId, params, body }) {
      return shipmentReply(services.db, await updateShipmentLabels(services.db, accountId, params.id, body.data.attributes, services.clock.now()));
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
        return shipmentReply(services.db, await setTracking(services.db, accountId, params.id, action === 'resume_tracking', trackingClockOf(services).now()));
      },
    }),
  ),
];
