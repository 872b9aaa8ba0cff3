// The OpenAPI schemas of a container resource and of the raw events its carrier sent.
import { containerDataQualitySchema, rejectionKind } from './data-quality-schema.ts';
import { situationSchema } from '../../domain/tracking/situation-schema.ts';
import { z } from 'zod';
import { CONTAINER_STATUSES } from '../../domain/tracking/types.ts';
import { customFieldsRelationship, dataFreshnessSchema, instant, resourceSchema, timezone, toManySchema, toOneSchema } from '../openapi-schemas.ts';

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
    pickup_lfd: instant.describe('The last free day where the container is picked up (the inland ramp for a rail move), as the instant it begins there (local midnight)'),
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
      .enum(CONTAINER_STATUSES)
      .describe('Where the container is in its journey'),
    holds_at_pod_terminal: z.array(hold).describe('Active or expected holds at the discharge terminal; a cleared hold is absent'),
    fees_at_pod_terminal: z.array(fee).describe('Fees due at the discharge terminal'),
    import_deadlines: z
      .object({
        pickup_lfd_terminal: instant.describe("The port terminal's last free day, as the instant it begins there (pod_timezone)"),
        pickup_lfd_rail: instant.describe("The inland ramp's last free day, as the instant it begins there (final_destination_timezone)"),
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
    situation: situationSchema,
    data_freshness: dataFreshnessSchema('container'),
    data_quality: containerDataQualitySchema,
  }),
  {
    relationships: {
      shipment: toOneSchema('shipment'),
      pod_terminal: toOneSchema('terminal', 'The discharge terminal'),
      transport_events: toManySchema('transport_event', 'Its milestones, oldest first; absent after PATCH').optional(),
      pickup_facility: toOneSchema('terminal', 'The inland facility it is picked up at; always null (not reported yet)'),
      raw_events: toManySchema('raw_event', "The carrier's raw events; always empty (svc keeps normalised transport events)"),
      custom_fields: customFieldsRelationship,
    },
    selfLink: true,
  },
);

export const rawEventSchema = z.object({
  id: z.uuid(),
  type: z.literal('raw_event'),
  attributes: z.object({
    event: z.string().nullable().describe('The normalised milestone it became (without container.transport.), null if none'),
    original_event: z.string().describe("The carrier's event type and code, e.g. EQUIPMENT LOAD, as far as they could be read"),
    estimated: z.boolean().describe('Not an actual event (estimated or planned)'),
    timestamp: z.string().nullable().describe('When it happened; null for a rejected event whose time could not be read'),
    location_locode: z.string().nullable(),
    index: z.int().describe('Position in the list, from 0'),
    data_source: z.literal('shipping_line'),
    published_at: z.string().nullable().describe('When the carrier published it; null for a rejected event whose time could not be read'),
    created_at: z.string().describe('When svc received it'),
    payload: z.unknown().describe('The event exactly as the carrier sent it'),
    rejected: z.boolean().describe('svc could not read it: it became no milestone, and `rejection` says why'),
    rejection: z
      .object({
        reason: rejectionKind,
        field: z.string().nullable().describe('The member at fault (dotted path), null when the event as a whole is'),
        detail: z.string().describe('What was wrong, naming the member'),
      })
      .nullable(),
  }),
  relationships: z.object({ container: toOneSchema('container') }),
});
