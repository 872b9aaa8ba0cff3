// Tracking requests: a number and a SCAC that svc turns into a tracked shipment.
import { z } from 'zod';
import { requestNumberCharacterProblem } from '../../domain/tracking/request-number.ts';
import { validateBody } from '../../jsonapi/body.ts';
import { enumParam, optionalParam, timeRangeParam } from '../../jsonapi/query.ts';
import { trackingRequestResource } from '../../jsonapi/serializers/tracking-request.ts';
import { createTrackingRequest } from '../../services/tracking-requests.ts';
import { listTrackingRequests, updateTrackingRequestLabels } from '../../store/tracking-requests.ts';
import { recordDocument, resourceSchema, timeRangeParams, toOneSchema } from '../openapi-schemas.ts';
import { listRoute, showRecordRoute } from '../read-routes.ts';
import type { AnyRouteSpec } from '../route.ts';
import { createdReply, writeRecordRoute } from '../write-routes.ts';
import { labels } from './labels.ts';

const REQUEST_TYPES = ['bill_of_lading', 'booking_number', 'container'] as const;
const STATUSES = ['pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped'] as const;

const MAX_INITIAL_FIELDS = 200;
const initialCustomField = z.object({
  api_slug: z.string().min(1).max(100),
  // Any JSON value: the definition's data type decides (left out: its default_value).
  value: z.unknown().describe('string, number, boolean, array of option values, {type, id} for references, or null'),
});

// data.type may be left out, as the reference's request schemas allow; data.id is read for the PATCH check.
const createBody = z.object({
  data: z.object({
    type: z.literal('tracking_request').optional(),
    attributes: z
      .object({
        request_type: z.enum(REQUEST_TYPES),
        request_number: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .superRefine((number, ctx) => {
            const problem = requestNumberCharacterProblem(number);
            if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'invalid_characters' } });
          }),
        scac: z.string().trim().length(4).nullish().describe('The SCAC of the shipping line; required unless auto_detect_vocc_scac is true'),
        auto_detect_vocc_scac: z
          .boolean()
          .optional()
          .describe(
            'Infer the SCAC from request_number when scac is not sent. Only a confident inference (auto_select) is used; otherwise 422 scac_auto_detect_failed with the candidates in meta',
          ),
        ref_numbers: labels.nullish(),
        initial_custom_fields: z
          .object({
            shipment: z.array(initialCustomField).max(MAX_INITIAL_FIELDS).nullish().describe('Values for the shipment the request becomes: api_slug of a Shipment field'),
            containers: z
              .array(initialCustomField.extend({ number: z.string().max(20).nullish().describe('The container to set it on; left out or "" for every container of the shipment') }))
              .max(MAX_INITIAL_FIELDS)
              .nullish()
              .describe('Values for its containers: api_slug of a Container field; an entry with a number wins over one without for that container'),
          })
          .nullish()
          .describe(
            'Custom field values, checked now by the rules of their definitions (a 422 points at the entry), set on the shipment and containers when the request resolves, where they have no value of that field yet',
          ),
      })
      .superRefine((attributes, ctx) => {
        if (!attributes.scac && attributes.auto_detect_vocc_scac !== true) {
          ctx.addIssue({ code: 'custom', path: ['scac'], message: "scac can't be blank (or set auto_detect_vocc_scac: true to infer it from request_number)", params: { code: 'blank' } });
        }
      }),
    relationships: z
      .object({ customer: z.object({ data: z.object({ type: z.literal('party'), id: z.string() }).nullable() }) })
      .partial()
      .optional(),
  }),
});

const patchBody = z.object({
  data: z.object({
    type: z.literal('tracking_request').optional(),
    id: z.string().optional(),
    attributes: z
      .object({
        ref_numbers: labels.nullish(),
        // The reference's one reference number (null: none): its clients send this member.
        ref_number: z.string().trim().min(1).max(200).nullish().describe('One reference number in place of ref_numbers (null: none), as the reference takes it'),
        tags: labels.optional(),
      })
      .refine((a) => a.ref_number === undefined || a.ref_numbers === undefined, {
        path: ['ref_number'],
        message: 'Give ref_number or ref_numbers, not both.',
        params: { code: 'conflict' },
      }),
  }),
});

const trackingRequest = resourceSchema(
  'tracking_request',
  z.object({
    request_number: z.string().describe('The number as sent (trimmed)'),
    request_type: z.enum(REQUEST_TYPES),
    scac: z.string().describe('The SCAC of the shipping line asked (sent, or inferred with auto_detect_vocc_scac)'),
    status: z
      .enum(STATUSES)
      .describe('pending: not yet answered; awaiting_manifest: the line knows the number but has no shipment yet; created: tracked_object is set; failed: see failed_reason; tracking_stopped: stopped before it succeeded'),
    failed_reason: z.string().nullable().describe('Why the request failed (e.g. not_found); null unless status is failed'),
    ref_numbers: z.array(z.string()),
    tags: z.array(z.string()),
    is_retrying: z.boolean().describe('svc will ask the carrier again (after a failure that may be temporary)'),
    retry_count: z.int().nullable().describe('How many times the carrier was asked again'),
    created_at: z.string(),
    updated_at: z.string(),
  }),
  {
    relationships: {
      tracked_object: toOneSchema('shipment', 'The shipment the request became; null until status is created'),
      customer: toOneSchema('party'),
    },
    selfLink: true,
  },
);

const INCLUDES = ['tracked_object', 'shipment (same as tracked_object)', 'customer'];

export const trackingRequestRoutes: AnyRouteSpec[] = [
  {
    method: 'POST',
    url: '/v2/tracking_requests',
    summary: 'Track a bill of lading, booking or container number',
    tag: 'Tracking requests',
    body: createBody,
    parseBody: validateBody,
    bucket: 'tracking_requests.create',
    response: { status: 201, description: 'The request, pending until the carrier answers', schema: recordDocument(trackingRequest) },
    async handler({ services, accountId, body, url }) {
      const { attributes, relationships } = body.data;
      const row = await createTrackingRequest(
        services.db,
        services.clock,
        accountId,
        { ...attributes, ref_numbers: attributes.ref_numbers ?? [], customer_id: relationships?.customer?.data?.id },
        { isTrackable: services.isTrackable },
      );
      return createdReply(trackingRequestResource(row), url);
    },
  },
  listRoute({
    url: '/v2/tracking_requests',
    summary: 'List tracking requests, newest first',
    tag: 'Tracking requests',
    type: 'tracking_request',
    schema: trackingRequest,
    description: 'A page of tracking requests',
    pageSize: 30,
    includes: INCLUDES,
    filters: [
      { name: 'q', description: 'Part of the request number or of a reference number' },
      { name: 'filter[request_number]', description: 'Exact request number' },
      { name: 'filter[status]', description: STATUSES.join(', ') },
      { name: 'filter[scac]', description: 'SCAC' },
      { name: 'filter[request_type]', description: REQUEST_TYPES.join(', ') },
      ...timeRangeParams('filter[created_at]', 'Created'),
      ...timeRangeParams('filter[updated_at]', 'Updated'),
    ],
    list: ({ services, accountId, query }, limit, offset) =>
      listTrackingRequests(
        services.db,
        accountId,
        {
          q: optionalParam(query, 'q'),
          request_number: optionalParam(query, 'filter[request_number]'),
          status: enumParam(query, 'filter[status]', STATUSES),
          scac: optionalParam(query, 'filter[scac]'),
          request_type: enumParam(query, 'filter[request_type]', REQUEST_TYPES),
          created: timeRangeParam(query, 'filter[created_at]'),
          updated: timeRangeParam(query, 'filter[updated_at]'),
        },
        limit,
        offset,
      ),
    serialize: (rows) => rows.map(trackingRequestResource),
  }),
  showRecordRoute({
    url: '/v2/tracking_requests/:id',
    summary: 'Get a tracking request (poll it for its status)',
    tag: 'Tracking requests',
    type: 'tracking_request',
    schema: trackingRequest,
    description: 'The tracking request',
    includes: INCLUDES,
  }),
  writeRecordRoute({
    method: 'PATCH',
    url: '/v2/tracking_requests/:id',
    summary: 'Change the reference numbers or tags of a tracking request',
    tag: 'Tracking requests',
    body: patchBody,
    schema: trackingRequest,
    description: 'The updated tracking request',
    write: ({ services, accountId, params, body }) => {
      const { ref_numbers, ref_number, tags } = body.data.attributes;
      const refs = ref_number === undefined ? (ref_numbers ?? undefined) : ref_number === null ? [] : [ref_number];
      return updateTrackingRequestLabels(services.db, accountId, params.id, { ref_numbers: refs, tags }, services.clock.now());
    },
    serialize: (row) => trackingRequestResource(row),
  }),
];
