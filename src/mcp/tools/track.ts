// track_container: start tracking a number, or find that the account already tracks it. The
// carrier (SCAC) and number type come from the caller, else from svc's inference; an inference
// that is not confident enough is put to the user rather than guessed.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ValidationError, type SvcClient } from '../../../sdk/src/index.ts';
import { toolError } from '../tool-result.ts';
import { containerHitSchema, toContainerHit } from '../views/container.ts';
import { bool, num, rec, recs, str, type Rec } from '../views/read.ts';
import { toTrackingRequest, trackingRequestSchema } from '../views/tracking-request.ts';
import { defineTool } from './define.ts';

const NUMBER_TYPES = ['container', 'bill_of_lading', 'booking_number'] as const;
type NumberType = (typeof NUMBER_TYPES)[number];

const candidateSchema = z.object({ scac: z.string(), name: z.string().nullable(), confidence: z.number().nullable() });
const inferResultSchema = z.object({
  numberType: z.enum(NUMBER_TYPES).nullable(),
  isValid: z.boolean().nullable(),
  reason: z.string().nullable().describe('Why the number looks invalid'),
  decision: z.string().nullable().describe('auto_select, needs_confirmation or no_prediction'),
  selected: candidateSchema.nullable(),
  candidates: z.array(candidateSchema),
});
type InferView = z.input<typeof inferResultSchema>;

const outputShape = {
  number: z.string(),
  numberType: z.enum(NUMBER_TYPES).nullable(),
  scac: z.string().nullable(),
  outcome: z
    .enum(['already_tracked', 'request_pending', 'tracking_request_created', 'needs_carrier'])
    .describe('already_tracked: containers/shipment below; request_pending: an earlier request still waits for the carrier; tracking_request_created: new request; needs_carrier: ask the user for the SCAC'),
  trackingRequestCreated: z.boolean(),
  message: z.string().describe('What happened and what to do next'),
  id: z.string().optional().describe('The container id, when the number names one tracked container'),
  containerNumber: z.string().optional(),
  status: z.string().nullable().optional().describe("That container's status"),
  containers: z.array(containerHitSchema).optional(),
  shipment: z.object({ id: z.string(), billOfLading: z.string().nullable(), shippingLineScac: z.string().nullable() }).optional(),
  trackingRequest: trackingRequestSchema.optional(),
  inferResult: inferResultSchema.optional(),
  candidates: z.array(candidateSchema).optional().describe('With needs_carrier: the shipping lines to choose from, most likely first'),
};
type Output = z.input<z.ZodObject<typeof outputShape>>;

const candidate = (c: Rec) => ({ scac: String(c.scac), name: str(c.name), confidence: num(c.confidence) });

function toInferView(r: Rec): InferView {
  const line = rec(r.shipping_line);
  const validation = rec(r.validation);
  const selected = rec(line?.selected);
  return {
    numberType: toNumberType(str(r.number_type)),
    isValid: bool(validation?.is_valid),
    reason: str(validation?.reason),
    decision: str(line?.decision),
    selected: selected ? candidate(selected) : null,
    candidates: recs(line?.candidates).map(candidate),
  };
}

/** svc's inference says "booking"; a tracking request says "booking_number". */
function toNumberType(type: string | null): NumberType | null {
  if (type === 'booking') return 'booking_number';
  return NUMBER_TYPES.find((t) => t === type) ?? null;
}

/** Only a confident choice, or the only line there is: anything else is the user's to decide. */
function chosenScac(infer: InferView | null): string | null {
  if (!infer) return null;
  if (infer.decision === 'auto_select' && infer.selected) return infer.selected.scac;
  if (infer.candidates.length === 1) return infer.candidates[0].scac;
  return null;
}

const WAITING = new Set(['pending', 'awaiting_manifest']);

type Found = Pick<Output, 'id' | 'containerNumber' | 'status' | 'containers' | 'shipment' | 'trackingRequest'> & { outcome: 'already_tracked' | 'request_pending'; message: string };

/** What the account already has under this number: containers, a shipment, or a request still waiting. */
async function findExisting(client: SvcClient, number: string, type: NumberType | null): Promise<Found | null> {
  if (type === null || type === 'container') {
    const boxes = (await client.containers.list({ 'filter[number]': number, include: 'shipment,pod_terminal' })).items as Rec[];
    if (boxes.length > 0) {
      const hit = toContainerHit(boxes[0]);
      return {
        outcome: 'already_tracked',
        id: hit.id,
        containerNumber: hit.containerNumber ?? number,
        status: hit.status,
        containers: boxes.map(toContainerHit),
        ...(hit.shipmentId ? { shipment: { id: hit.shipmentId, billOfLading: hit.billOfLading ?? null, shippingLineScac: hit.shippingLine ?? null } } : {}),
        message: `Container ${hit.containerNumber} is already tracked in this account (status ${hit.status ?? 'unknown'}); no new tracking request was made. Call get_container with id ${hit.id} for details.`,
      };
    }
  }
  if (type !== 'container') {
    const [shipment] = (await client.shipments.list({ number, include: 'containers' })).items as Rec[];
    if (shipment) {
      const containers = recs(shipment.containers).map((c) => toContainerHit({ ...c, shipment }));
      const one = containers.length === 1 ? containers[0] : undefined;
      return {
        outcome: 'already_tracked',
        ...(one ? { id: one.id, containerNumber: one.containerNumber ?? undefined, status: one.status } : {}),
        containers,
        shipment: { id: String(shipment.id), billOfLading: str(shipment.bill_of_lading_number), shippingLineScac: str(shipment.shipping_line_scac) },
        message: `${number} is already tracked in this account as shipment ${shipment.id} with ${containers.length} container(s) (${containers.map((c) => `${c.containerNumber} ${c.status}`).join(', ') || 'none yet'}); no new tracking request was made. Call get_shipment_details or get_container for details.`,
      };
    }
  }
  const requests = (await client.trackingRequests.list({ 'filter[request_number]': number })).items as Rec[];
  const waiting = requests.find((r) => WAITING.has(String(r.status)));
  if (waiting) {
    const request = toTrackingRequest(waiting);
    return {
      outcome: 'request_pending',
      trackingRequest: request,
      message: `${number} was already requested (tracking request ${request.id}, ${request.status}, since ${request.createdAt}); svc is still waiting for the carrier, so no new request was made. Try search_container again in a few minutes.`,
    };
  }
  return null;
}

export function registerTrackTool(server: McpServer, client: SvcClient): void {
  defineTool(server, 'track_container', {
    title: 'Track a container, bill of lading or booking',
    description:
      'Start tracking a container number, bill of lading or booking number, or find it if this account already tracks it (then nothing new is created). ' +
      'Without numberType or scac, svc infers them from the number; when it cannot tell the shipping line with confidence, the answer lists candidates: ask the user and call again with scac. ' +
      'A new tracking request takes a few minutes to reach the carrier; then search_container finds the containers.',
    readOnly: false,
    input: {
      number: z.string().trim().min(1).max(100).describe('Container number (e.g. MSCU1234565), bill of lading or booking number'),
      numberType: z.enum(NUMBER_TYPES).optional().describe('What the number is; overrides the inference'),
      scac: z.string().trim().length(4).toUpperCase().optional().describe('The shipping line, as a SCAC (get_supported_shipping_lines); overrides the inference'),
      refNumbers: z.array(z.string().trim().min(1).max(200)).max(100).optional().describe('Your reference numbers for the shipment'),
    },
    output: outputShape,
    async run({ number: asked, numberType, scac, refNumbers }) {
      let infer: InferView | null = null;
      let refused: ValidationError | null = null;
      if (!numberType || !scac) {
        try {
          infer = toInferView((await client.trackingRequests.inferNumber(asked)) as Rec);
        } catch (err) {
          if (!(err instanceof ValidationError)) throw err;
          refused = err; // the number may still be tracked, or the caller may know its type
        }
      }
      const type = numberType ?? infer?.numberType ?? null;
      const number = type === 'container' ? asked.toUpperCase().replace(/[\s-]/g, '') : asked;
      const inferPart = infer ? { inferResult: infer } : {};

      const existing = await findExisting(client, number, type);
      if (existing) {
        const { message, outcome, ...rest } = existing;
        return { summary: message, data: { number, numberType: type, scac: scac ?? rest.shipment?.shippingLineScac ?? rest.trackingRequest?.scac ?? null, outcome, trackingRequestCreated: false, message, ...rest, ...inferPart } };
      }
      if (!type) {
        const why = refused?.errors.map((e) => e.detail).filter(Boolean).join('; ') || 'svc could not tell what kind of number it is';
        return toolError(`svc cannot infer what "${asked}" is: ${why}. It is not tracked in this account. If it is right, call track_container again with numberType (container, bill_of_lading or booking_number) and scac.`);
      }
      const chosen = scac ?? chosenScac(infer);
      if (!chosen) {
        const candidates = infer?.candidates ?? [];
        const listed = candidates.map((c) => `${c.scac} (${c.name ?? '?'}, ${Math.round((c.confidence ?? 0) * 100)}%)`).join(', ');
        const message = candidates.length
          ? `svc cannot tell the shipping line of ${number} with confidence. Candidates: ${listed}. Ask the user which line it is, then call track_container again with scac.`
          : `svc cannot infer the shipping line of ${number}. Ask the user for the carrier (get_supported_shipping_lines lists SCACs), then call track_container again with scac.`;
        return { summary: message, data: { number, numberType: type, scac: null, outcome: 'needs_carrier' as const, trackingRequestCreated: false, message, candidates, ...inferPart } };
      }
      const created = toTrackingRequest((await client.trackingRequests.create({ request_type: type, request_number: number, scac: chosen, ...(refNumbers ? { ref_numbers: refNumbers } : {}) })) as Rec);
      const message = `Tracking request ${created.id} created for ${type.replace(/_/g, ' ')} ${number} with ${chosen}${scac ? '' : ' (inferred)'}; status ${created.status}. svc is asking the carrier now: containers appear within minutes. Then call search_container with "${number}".`;
      return { summary: message, data: { number, numberType: type, scac: chosen, outcome: 'tracking_request_created' as const, trackingRequestCreated: true, message, trackingRequest: created, ...inferPart } };
    },
  });
}
