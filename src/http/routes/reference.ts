// Read-only reference data: shipping lines, ports, metro areas, terminals, rail terminals, vessels.
import { z } from 'zod';
import { optionalParam } from '../../jsonapi/query.ts';
import {
  metroAreaResource,
  portResource,
  railTerminalResource,
  shippingLineResource,
  terminalResource,
} from '../../jsonapi/serializers/reference.ts';
import type { Resource } from '../../jsonapi/document.ts';
import {
  findMetroArea,
  findPort,
  findRailTerminal,
  findShippingLine,
  findTerminal,
  listShippingLines,
} from '../../store/reference.ts';
import { listDocument, resourceSchema } from '../openapi-schemas.ts';
import { showRoute } from '../read-routes.ts';
import type { ShippingLineRow } from '../../refdata/types.ts';
import type { AnyRouteSpec, Services } from '../route.ts';
import { vesselRoutes } from './vessel-positions.ts';

const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();

const shippingLine = resourceSchema(
  'shipping_line',
  z.object({
    scac: z.string().length(4),
    name: z.string(),
    short_name: z.string(),
    alternative_scacs: z.array(z.string()),
    bill_of_lading_tracking_support: z.boolean(),
    booking_number_tracking_support: z.boolean(),
    container_number_tracking_support: z.boolean(),
  }),
);
const locationAttributes = {
  id: z.uuid().describe('The record id again, as the reference service repeats it'),
  name: z.string(),
  code: z.string().describe('UN/LOCODE'),
  state_abbr: nullableString,
  country_code: z.string(),
  time_zone: nullableString.describe('IANA time zone'),
  latitude: nullableNumber,
  longitude: nullableNumber,
};
const port = resourceSchema('port', z.object({ ...locationAttributes, city: nullableString }));
const metroArea = resourceSchema('metro_area', z.object(locationAttributes));
const terminal = resourceSchema(
  'terminal',
  z.object({
    id: z.uuid().describe('The record id again, as the spec lists it'),
    name: z.string(),
    nickname: nullableString,
    firms_code: nullableString,
    smdg_code: nullableString,
    bic_facility_code: nullableString,
    street: nullableString,
    city: nullableString,
    state: nullableString,
    state_abbr: nullableString,
    zip: nullableString,
    country: nullableString,
  }),
);
const railTerminal = resourceSchema('rail_terminal', z.object({ name: z.string(), nickname: nullableString, firms_code: nullableString }));
/**
 * A shipping line as svc can track it here: a line without a carrier connector supports no kind
 * of number, whatever the coverage list says (when the app knows its connectors).
 */
function shippingLineHere(row: ShippingLineRow, services: Services): Resource {
  if (!services.isTrackable || services.isTrackable(row.scac)) return shippingLineResource(row);
  return shippingLineResource({
    ...row,
    bill_of_lading_tracking_support: false,
    booking_number_tracking_support: false,
    container_number_tracking_support: false,
  });
}

export const referenceRoutes: AnyRouteSpec[] = [
  {
    method: 'GET',
    url: '/v2/shipping_lines',
    summary: 'List shipping lines (all in one response)',
    tag: 'Reference data',
    query: [{ name: 'search', description: 'Part of a name, or a SCAC (alternative SCACs match too)' }],
    response: { status: 200, description: 'Every matching shipping line, by name', schema: listDocument(shippingLine, { paginated: false }) },
    async handler({ services, query, url, include }) {
      const data = (await listShippingLines(services.db, optionalParam(query, 'search'))).map((row) => shippingLineHere(row, services));
      return { body: { data, included: await include('shipping_line', data), links: { self: url.href } } };
    },
  },
  showRoute({
    tag: 'Reference data',
    url: '/v2/shipping_lines/:id',
    summary: 'Get a shipping line by id or SCAC',
    type: 'shipping_line',
    schema: shippingLine,
    find: ({ services, params }) => findShippingLine(services.db, params.id),
    serialize: (row, { services }) => shippingLineHere(row, services),
  }),
  showRoute({
    tag: 'Reference data',
    url: '/v2/ports/:id',
    summary: 'Get a port by id or UN/LOCODE',
    type: 'port',
    schema: port,
    find: ({ services, params }) => findPort(services.db, params.id),
    serialize: portResource,
  }),
  showRoute({
    tag: 'Reference data',
    url: '/v2/metro_areas/:id',
    summary: 'Get a metro area (inland rail or depot location) by id or UN/LOCODE',
    type: 'metro_area',
    schema: metroArea,
    find: ({ services, params }) => findMetroArea(services.db, params.id),
    serialize: metroAreaResource,
  }),
  showRoute({
    tag: 'Reference data',
    url: '/v2/terminals/:id',
    summary: 'Get a terminal by id, FIRMS code or SMDG code',
    type: 'terminal',
    schema: terminal,
    includes: ['port'],
    find: ({ services, params }) => findTerminal(services.db, params.id),
    serialize: terminalResource,
  }),
  showRoute({
    tag: 'Reference data',
    url: '/v2/rail_terminals/:id',
    summary: 'Get a rail terminal',
    type: 'rail_terminal',
    schema: railTerminal,
    includes: ['port', 'metro_area'],
    find: ({ services, params }) => findRailTerminal(services.db, params.id),
    serialize: railTerminalResource,
  }),
  // By id or IMO, with AIS positions (routing data): src/http/routes/vessel-positions.ts.
  ...vesselRoutes,
];
