// Shipments: what tracking requests became, read, labelled and stopped or resumed by the user.
import { z } from 'zod';
import { badParameter } from '../../jsonapi/errors.ts';
import { booleanParam, optionalParam, timeRangeParam, type Query } from '../../jsonapi/query.ts';
import { shipmentResources } from '../../read-model/tracking.ts';
import { setTracking } from '../../services/tracking/stop.ts';
import { updateShipmentLabels, type ShipmentRow } from '../../store/shipments.ts';
import { listShipments, SHIPMENT_ORDER_FIELDS, type ShipmentOrder, type ShipmentOrderField } from '../../store/tracking-lists.ts';
import { timeRangeParams } from '../openapi-schemas.ts';
import { listRoute, showRecordRoute } from '../read-routes.ts';
import { trackingClockOf, type AnyRouteSpec, type Ctx } from '../route.ts';
import { customFieldFilterKeys, customFieldFilterParam } from './custom-field-filters.ts';
import { journeyFilterParams, journeyFilterValues } from './journey-filters.ts';
import { shipmentSchema } from './shipment-schema.ts';
import { writeRecordRoute } from '../write-routes.ts';
import { labels } from './labels.ts';

// data.type may be left out (the reference's clients do); data.id, when sent, must be the URL's.
const shipmentPatch = z.object({ data: z.object({ type: z.literal('shipment').optional(), id: z.string().optional(), attributes: z.object({ ref_numbers: labels.optional(), tags: labels.optional() }) }) });

const SHIPMENT_INCLUDES = ['containers', 'port_of_lading', 'port_of_discharge', 'pod_terminal', 'destination', 'destination_terminal', 'customer', 'line_tracking_stopped_by_user', 'custom_fields'];

/** `sort`: one field, `-` before it for descending (JSON:API's form); newest first without one. */
function sortParam(query: Query): ShipmentOrder | undefined {
  const raw = optionalParam(query, 'sort');
  if (raw === undefined) return undefined;
  const field = raw.replace(/^-/, '');
  if (!SHIPMENT_ORDER_FIELDS.includes(field as ShipmentOrderField)) {
    throw badParameter('sort', `sort must be one of ${SHIPMENT_ORDER_FIELDS.join(', ')}, with - before it for descending order; '${raw}' is not.`);
  }
  return { field: field as ShipmentOrderField, descending: raw.startsWith('-') };
}

const shipmentResource = async (row: ShipmentRow, { services }: Ctx<unknown>) => (await shipmentResources(services.db, [row], trackingClockOf(services).now()))[0];

export const shipmentRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/shipments',
    summary: 'List shipments, newest first unless sorted',
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
      { name: 'filter[on_hold]', description: 'true: at least one container has a hold at the terminal of the port of discharge; false: none has', schema: { type: 'boolean' } },
      ...timeRangeParams('filter[pod_eta_at]', "The carrier's estimated arrival at the port of discharge"),
      ...journeyFilterParams('shipment'),
      customFieldFilterParam('Shipment'),
      {
        name: 'sort',
        description: `The order: ${SHIPMENT_ORDER_FIELDS.join(', ')}; - before it for descending (default -created_at). pod_arrival_at is pod_ata_at once known, else pod_eta_at. Records without a value come last`,
        schema: { type: 'string', enum: SHIPMENT_ORDER_FIELDS.flatMap((f) => [f, `-${f}`]) },
      },
    ],
    list: async ({ services, accountId, query }, limit, offset) =>
      listShipments(
        services.db,
        accountId,
        {
          q: optionalParam(query, 'q'),
          number: optionalParam(query, 'number'),
          tracking_stopped: booleanParam(query, 'filter[tracking_stopped]'),
          on_hold: booleanParam(query, 'filter[on_hold]'),
          pod_eta: timeRangeParam(query, 'filter[pod_eta_at]'),
          ...journeyFilterValues(query),
          custom_fields: await customFieldFilterKeys(services.db, accountId, 'Shipment', query),
        },
        limit,
        offset,
        sortParam(query),
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
