// The OpenAPI schema of a shipment resource.
import { dataQualitySchema } from './data-quality-schema.ts';
import { z } from 'zod';
import { customFieldsRelationship, dataFreshnessSchema, instant, resourceSchema, timezone, toManySchema, toOneSchema } from '../openapi-schemas.ts';

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
    pod_ais_eta_at: instant.describe(
      "svc extension, not in the reference API: svc's own estimate of the arrival at the port of discharge, from the pod vessel's AIS positions " +
        '(distance to go along the sea route over its recent average speed). pod_eta_at stays the carrier\'s estimate. ' +
        'Null unless the vessel has left the port of lading and not yet arrived, and when the estimate is more than 12 hours old',
    ),
    pod_ais_eta_updated_at: instant.describe('svc extension: when svc computed pod_ais_eta_at (from the newest AIS position then); null with it'),
    destination_eta_at: instant.describe('Estimated arrival at the inland destination'),
    destination_ata_at: instant.describe('Actual arrival at the inland destination'),
    pol_timezone: timezone,
    pod_timezone: timezone,
    destination_timezone: timezone,
    line_tracking_last_attempted_at: instant.describe('When svc last asked the shipping line'),
    line_tracking_last_succeeded_at: instant.describe('When the shipping line last answered'),
    line_tracking_stopped_at: instant.describe('When tracking stopped; null while it goes on'),
    line_tracking_stopped_reason: z.string().nullable().describe('Why tracking stopped: cancelled_by_user, all_containers_terminated, past_arrival_window or no_updates_at_line'),
    data_freshness: dataFreshnessSchema('shipment'),
    data_quality: dataQualitySchema,
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
      custom_fields: customFieldsRelationship,
    },
    selfLink: true,
  },
);
