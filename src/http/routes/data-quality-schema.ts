// The OpenAPI schema of the data-quality summary a shipment and a container carry.
import { z } from 'zod';
import { REJECTION_KINDS } from '../../domain/tracking/carrier-events.ts';

export const rejectionKind = z
  .enum(REJECTION_KINDS)
  .describe('not_an_object, unknown_event_type (its type member names no DCSA type), missing_member, bad_date_time or bad_value');

export const dataQualitySchema = z
  .object({
    rejected_events: z
      .array(
        z.object({
          data_source: z.enum(['shipping_line', 'terminal', 'ais']),
          reason: rejectionKind,
          count: z.int().describe('How many distinct events'),
        }),
      )
      .describe('Events a source sent that svc could not read, by source and reason; each is listed, with its reason, among the raw events'),
  })
  .describe("What svc could not read of its sources' data about this record (for a container: about it, or about the whole shipment)");

export const containerDataQualitySchema = dataQualitySchema
  .extend({
    number_check_digit_passed: z
      .boolean()
      .describe("Whether the container number's ISO 6346 check digit holds; false when it is wrong, missing or the number is not written as a container number. The number is kept as the carrier sent it either way"),
  })
  .describe("What svc could not read of its sources' data about this container or its whole shipment, and whether its number verifies");
