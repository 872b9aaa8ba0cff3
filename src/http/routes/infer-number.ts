// POST /v2/tracking_requests/infer_number: the likely shipping line and number type of a bare
// number. Plain JSON in and out, as the reference service has it; its own rate-limit bucket.
import { z } from 'zod';
import { inferNumber, isUnusable } from '../../domain/inference/infer.ts';
import { validateBody } from '../../jsonapi/body.ts';
import { unprocessable } from '../../jsonapi/errors.ts';
import { inferNumberResultResource } from '../../jsonapi/serializers/infer-number-result.ts';
import { inferenceCatalogue } from '../../refdata/inference.ts';
import type { AnyRouteSpec } from '../route.ts';

const body = z.object({
  number: z.string().trim().min(1).max(200).describe('A container, bill of lading or booking number, as pasted (case, blanks, dashes and a leading label are ignored)'),
});

const candidate = z.object({ scac: z.string(), name: z.string(), confidence: z.number().min(0).max(1) });

const inferResult = z.object({
  data: z.object({
    id: z.string().describe('req_ and a UUID: this inference, not a stored record'),
    type: z.literal('infer_number_results'),
    attributes: z.object({
      number_type: z.enum(['container', 'bill_of_lading', 'booking']),
      validation: z.object({
        is_valid: z.boolean().nullable().describe('true valid, false invalid (see reason), null: a form svc does not know'),
        type: z.enum(['container', 'shipment']),
        check_digit_passed: z.boolean().nullable().describe('ISO 6346 check digit result; null for bills of lading and bookings'),
        parsed_number: z.string().nullable().describe('The number normalised'),
        reason: z.string().nullable(),
      }),
      shipping_line: z.object({
        decision: z.enum(['auto_select', 'needs_confirmation', 'no_prediction']).describe('auto_select: confidence ≥ 0.95; needs_confirmation: 0.70 to 0.95; no_prediction: below 0.70 or unknown'),
        selected: candidate.nullable(),
        candidates: z.array(candidate).describe('Most likely first; may be listed under no_prediction'),
      }),
    }),
  }),
});

export const inferNumberRoutes: AnyRouteSpec[] = [
  {
    method: 'POST',
    url: '/v2/tracking_requests/infer_number',
    summary: 'Infer the shipping line (SCAC) and number type of a container, bill of lading or booking number (beta)',
    tag: 'Tracking requests',
    body,
    parseBody: validateBody,
    bucket: 'tracking_requests.infer_number',
    response: { status: 200, description: 'The number type, its validation and the likely shipping lines', schema: inferResult },
    async handler({ body }) {
      const result = inferNumber(inferenceCatalogue(), body.number);
      if (isUnusable(result)) throw unprocessable('/number', `This reference number is not valid: ${result.reason}.`, 'invalid');
      return { body: { data: inferNumberResultResource(result) } };
    },
  },
];
