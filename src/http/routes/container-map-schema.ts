// The OpenAPI schemas of a container's route map (GeoJSON, spec "Route map (the service)") and of
// its route (JSON:API: the route, its route locations, their ports and vessels).
import { z } from 'zod';
import { instant, resourceSchema, toManySchema, toOneSchema } from '../openapi-schemas.ts';

const position = z.array(z.number()).min(2).max(2).describe('[longitude, latitude], WGS84');
const point = z.object({ type: z.literal('Point'), coordinates: position });
const lineString = z.object({
  type: z.literal('LineString'),
  coordinates: z.array(position).min(2).describe('Simplified; where a route crosses longitude 180, consecutive longitudes differ by more than 180 degrees'),
});
const nullableString = z.string().nullable();
const sequence = z.int().describe('Sequence of the port the leg leaves from (1 = port of lading)');
const pointCount = z.int().describe('Number of coordinates in the LineString');

const portProperties = z.object({
  feature_type: z.literal('port'),
  ports_sequence: z.int().describe('1 = port of lading, last = port of discharge'),
  ports_total: z.int(),
  location_id: z.string().describe('Id of the port (GET /v2/ports/{id})'),
  location_type: z.literal('Port'),
  name: z.string(),
  state_abbr: nullableString,
  state: nullableString,
  country_code: z.string(),
  country: z.string(),
  time_zone: nullableString,
  label: z.string().describe('POL, TS1, TS2…, POD'),
  inbound_eta_at: instant,
  inbound_ata_at: instant,
  outbound_etd_at: instant,
  outbound_atd_at: instant,
  updated_at: instant,
});

const portSide = (prefix: string, when: 'atd' | 'eta') => ({
  [`${prefix}_id`]: nullableString,
  [`${prefix}_name`]: nullableString,
  [`${prefix}_state_abbr`]: nullableString,
  [`${prefix}_state`]: nullableString,
  [`${prefix}_country_code`]: nullableString,
  [`${prefix}_country`]: nullableString,
  [`${prefix}_label`]: nullableString,
  [`${prefix}_${when}`]: instant,
  [`${prefix}_time_zone`]: nullableString,
});

const currentVesselProperties = z.object({
  feature_type: z.literal('current_vessel'),
  ports_sequence: sequence,
  vessel_id: z.string(),
  vessel_name: z.string(),
  vessel_imo: z.string(),
  voyage_number: nullableString,
  vessel_location_timestamp: z.string(),
  vessel_location_heading: z.number().nullable().describe('Degrees, 0 to 360'),
  vessel_location_speed: z.number().nullable().describe('Knots'),
  ...portSide('departure_port', 'atd'),
  ...portSide('arrival_port', 'eta'),
});

const pastVesselLocationsProperties = z.object({
  feature_type: z.literal('past_vessel_locations'),
  ports_sequence: sequence,
  vessel_id: z.string(),
  start_time: z.string().describe('The departure (ATD)'),
  end_time: z.string().describe('The arrival (ATA), or the last position while at sea'),
  point_count: pointCount,
  outbound_atd_at: instant,
  inbound_ata_at: instant,
  inbound_eta_at: instant,
});

const estimatedFullLegProperties = z.object({
  feature_type: z.literal('estimated_full_legs'),
  ports_sequence: sequence,
  previous_port_id: z.string(),
  next_port_id: z.string(),
  point_count: pointCount,
});

const estimatedPartialLegProperties = z.object({
  feature_type: z.literal('estimated_partial_leg'),
  ports_sequence: sequence,
  current_port_id: z.string().describe('The port the vessel departed from'),
  next_port_id: z.string(),
  point_count: pointCount,
});

export const routeMapSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.object({
      type: z.literal('Feature'),
      geometry: z.union([point, lineString]),
      properties: z.discriminatedUnion('feature_type', [
        portProperties,
        currentVesselProperties,
        pastVesselLocationsProperties,
        estimatedFullLegProperties,
        estimatedPartialLegProperties,
      ]),
    }),
  ),
});

const side = (direction: 'inbound' | 'outbound', estimate: 'eta' | 'etd', actual: 'ata' | 'atd') => ({
  [`${direction}_mode`]: z.enum(['vessel', 'feeder']).nullable().describe(`How the container ${direction === 'inbound' ? 'arrived' : 'left'}; null at the ends of the ocean journey`),
  [`${direction}_carrier_scac`]: nullableString,
  [`${direction}_vessel_name`]: nullableString,
  [`${direction}_vessel_imo`]: nullableString,
  [`${direction}_voyage_number`]: nullableString,
  [`${direction}_${estimate}_at`]: instant,
  [`${direction}_${actual}_at`]: instant,
});

const routeLocationSchema = resourceSchema(
  'route_location',
  z.object({
    ports_sequence: z.int(),
    label: z.string().describe('POL, TS1, TS2…, POD'),
    location_locode: z.string(),
    location_name: nullableString,
    ...side('inbound', 'eta', 'ata'),
    ...side('outbound', 'etd', 'atd'),
  }),
  {
    relationships: {
      location: toOneSchema('port', 'Null when svc does not know the port'),
      inbound_vessel: toOneSchema('vessel'),
      outbound_vessel: toOneSchema('vessel'),
    },
  },
);

const routeSchema = resourceSchema(
  'route',
  z.object({ updated_at: instant.describe('When the shipment behind the route last changed') }),
  {
    relationships: {
      container: toOneSchema('container'),
      shipment: toOneSchema('shipment'),
      route_locations: toManySchema('route_location', 'Port of lading, transshipment ports, port of discharge, in journey order'),
    },
  },
);

const otherIncluded = z.object({ id: z.string(), type: z.enum(['port', 'vessel']), attributes: z.record(z.string(), z.unknown()), links: z.object({ self: z.string() }).optional() });

/** The route document: the route, and with include its route locations, ports and vessels. */
export const routeDocumentSchema = z.object({
  data: routeSchema,
  included: z.array(z.union([routeLocationSchema, otherIncluded])).optional().describe('The records the include parameter asked for'),
});
