// The OpenAPI schema of a transport event resource (a milestone of a container).
import { z } from 'zod';
import { instant, resourceSchema, timezone, toOneSchema } from '../openapi-schemas.ts';

/** The relationships a transport event's include paths may start with. */
export const TRANSPORT_EVENT_INCLUDES = ['shipment', 'container', 'location', 'vessel', 'terminal'];

export const transportEventSchema = resourceSchema(
  'transport_event',
  z.object({
    event: z.string().describe('container.transport.<milestone>, e.g. container.transport.vessel_departed'),
    voyage_number: z.string().nullable(),
    timestamp: instant.describe('When it happened'),
    timezone: timezone,
    location_locode: z.string().nullable(),
    data_source: z.enum(['shipping_line', 'terminal', 'ais']).describe('ais: an arrival seen in the vessel\'s AIS positions before the carrier reported it; the carrier\'s event later replaces its time and source'),
    published_at: instant.describe('When the source published it'),
    created_at: z.string().describe('When svc recorded it'),
  }),
  {
    relationships: {
      shipment: toOneSchema('shipment'),
      container: toOneSchema('container'),
      location: toOneSchema(['port', 'metro_area'], 'A metro area for an inland place (and an inland arrival), else a port'),
      vessel: toOneSchema('vessel'),
      terminal: toOneSchema('terminal'),
    },
    selfLink: true,
  },
);
