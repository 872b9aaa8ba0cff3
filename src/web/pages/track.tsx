// The track form: a number, its shipping line and kind (both may be left for svc to detect), and
// reference numbers. track.js suggests the line and kind while the number is typed (GET
// /track/infer); without JavaScript the API's own auto-detection fills them in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorObject } from '../../../sdk/src/errors.ts';
import { SvcError, ValidationError } from '../../../sdk/src/errors.ts';
import type { InferResult, ShippingLine } from '../../../sdk/src/types.ts';
import { assetUrl } from '../assets.ts';
import type { WebOptions } from '../context.ts';
import { formField } from '../csrf.ts';
import { percentText } from '../format.ts';
import { Alert, CsrfField, Layout } from '../layout.tsx';
import { sendPage } from '../render.tsx';
import { REQUEST_TYPE_WORDS, type RequestType } from './tracking-requests.tsx';

type Field = 'number' | 'scac' | 'type' | 'refs';
type FieldErrors = Partial<Record<Field | 'form', string[]>>;

interface TrackValues {
  number: string;
  scac: string;
  type: RequestType | '';
  refs: string;
}

const REQUEST_TYPES = Object.keys(REQUEST_TYPE_WORDS) as RequestType[];

/** Which form field a JSON:API error's source names (the API's members, and infer_number's `/number`). */
const FIELD_OF_POINTER: [RegExp, Field][] = [
  [/^\/data\/attributes\/request_number(\/|$)/, 'number'],
  [/^\/number(\/|$)/, 'number'],
  [/^\/data\/attributes\/(scac|auto_detect_vocc_scac)(\/|$)/, 'scac'],
  [/^\/data\/attributes\/request_type(\/|$)/, 'type'],
  [/^\/data\/attributes\/ref_numbers(\/|$)/, 'refs'],
];

export function fieldErrorsOf(errors: ApiErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const pointer = e.source?.pointer ?? '';
    const field = FIELD_OF_POINTER.find(([pattern]) => pattern.test(pointer))?.[1] ?? 'form';
    (out[field] ??= []).push(e.detail || e.title || 'This value was refused.');
  }
  return out;
}

/** infer_number's kinds of number, as the tracking request names them. */
const REQUEST_TYPE_OF_INFERRED: Record<InferResult['number_type'], RequestType> = {
  bill_of_lading: 'bill_of_lading',
  booking: 'booking_number',
  container: 'container',
};

type Candidate = InferResult['shipping_line']['candidates'][number];

/** `MAEU – Maersk, bill of lading, 92 %`: one suggestion as the form shows it. */
export const suggestionText = (c: Candidate, type: RequestType) => `${c.scac} – ${c.name}, ${REQUEST_TYPE_WORDS[type]}, ${percentText(c.confidence)}`;

/** Reference numbers as typed: one per line or separated by commas. */
const refNumbersOf = (text: string) =>
  text
    .split(/[,\n\r]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Lines svc can track here by at least one kind of number (the API says so per line). */
async function trackableLines(req: FastifyRequest): Promise<ShippingLine[]> {
  const lines = await req.svc.shippingLines.list();
  return lines.filter((l) => l.bill_of_lading_tracking_support || l.booking_number_tracking_support || l.container_number_tracking_support);
}

function FieldError({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <p id={id} class="field-error">
      {messages.join(' ')}
    </p>
  );
}

/** aria attributes of an input whose value may have been refused. */
const invalidProps = (errors: FieldErrors, field: Field, hint?: string) => ({
  'aria-invalid': errors[field] ? ('true' as const) : undefined,
  'aria-describedby': [hint, errors[field] ? `${field}-error` : undefined].filter(Boolean).join(' ') || undefined,
});

function TrackPage({ req, lines, values, errors = {} }: { req: FastifyRequest; lines: ShippingLine[]; values: TrackValues; errors?: FieldErrors }) {
  return (
    <Layout req={req} title="Track" section="track" scripts={[assetUrl('track.js')]} styles={[assetUrl('track.css')]}>
      <section class="track">
        <h1>Track a number</h1>
        <Alert message={errors.form?.join(' ')} />
        <form method="post" action="/track" class="stack track-form" data-infer-url="/track/infer">
          <CsrfField req={req} />
          <div class="field">
            <label for="track-number">Bill of lading, booking or container number</label>
            <input id="track-number" name="number" value={values.number} required autocomplete="off" spellcheck={false} autofocus {...invalidProps(errors, 'number', 'number-hint')} />
            <p id="number-hint" class="muted">
              Leave the shipping line and the kind of number empty and svc detects them from the number.
            </p>
            <FieldError id="number-error" messages={errors.number} />
            <div id="track-suggestion" class="suggestion" aria-live="polite" hidden />
          </div>
          <div class="field-row">
            <div class="field">
              <label for="track-scac">Shipping line</label>
              <select id="track-scac" name="scac" {...invalidProps(errors, 'scac')}>
                <option value="">Detect from the number</option>
                {lines.map((l) => (
                  <option value={l.scac} selected={values.scac === l.scac}>
                    {l.scac} – {l.name}
                  </option>
                ))}
              </select>
              <FieldError id="scac-error" messages={errors.scac} />
            </div>
            <div class="field">
              <label for="track-type">Kind of number</label>
              <select id="track-type" name="type" {...invalidProps(errors, 'type')}>
                <option value="">Detect from the number</option>
                {REQUEST_TYPES.map((t) => (
                  <option value={t} selected={values.type === t}>
                    {REQUEST_TYPE_WORDS[t]}
                  </option>
                ))}
              </select>
              <FieldError id="type-error" messages={errors.type} />
            </div>
          </div>
          <div class="field">
            <label for="track-refs">Your reference numbers (optional)</label>
            <textarea id="track-refs" name="ref_numbers" rows={2} value={values.refs} {...invalidProps(errors, 'refs', 'refs-hint')} />
            <p id="refs-hint" class="muted">
              One per line or separated by commas, e.g. your PO numbers.
            </p>
            <FieldError id="refs-error" messages={errors.refs} />
          </div>
          <div>
            <button type="submit">Track</button>
          </div>
        </form>
      </section>
    </Layout>
  );
}

function valuesOf(req: FastifyRequest): TrackValues {
  const type = formField(req, 'type') ?? '';
  return {
    number: (formField(req, 'number') ?? '').trim(),
    scac: (formField(req, 'scac') ?? '').trim().toUpperCase(),
    type: REQUEST_TYPES.find((t) => t === type) ?? '',
    refs: formField(req, 'ref_numbers') ?? '',
  };
}

/** The API's refusal of a form: shown next to the fields it names, or undefined when `err` is not one. */
function refusalOf(err: unknown): FieldErrors | undefined {
  if (err instanceof ValidationError) return fieldErrorsOf(err.errors);
  return undefined;
}

/**
 * A request for a number that is tracked already: the shipment it became, when it became one.
 * The API refuses the duplicate at request_number; the list finds the request it clashed with.
 */
async function existingShipmentOf(req: FastifyRequest, values: TrackValues): Promise<string | undefined> {
  const page = await req.svc.trackingRequests.list({ 'filter[request_number]': values.number, ...(values.scac ? { 'filter[scac]': values.scac } : {}), 'filter[status]': 'created' });
  for (const { tracked_object: shipment } of page.items) if (shipment && !Array.isArray(shipment)) return shipment.id;
  return undefined;
}

async function submitTrack(req: FastifyRequest, reply: FastifyReply) {
  const values = valuesOf(req);
  const refuse = async (errors: FieldErrors) => sendPage(reply, <TrackPage req={req} lines={await trackableLines(req)} values={values} errors={errors} />, 422);
  try {
    // The API needs the kind of number; left empty, it is the one inference predicts.
    const type = values.type || REQUEST_TYPE_OF_INFERRED[(await req.svc.trackingRequests.inferNumber(values.number)).number_type];
    const created = await req.svc.trackingRequests.create({
      request_type: type,
      request_number: values.number,
      ...(values.scac ? { scac: values.scac } : { auto_detect_vocc_scac: true }),
      ref_numbers: refNumbersOf(values.refs),
    });
    return reply.redirect(`/tracking-requests?new=${encodeURIComponent(created.id)}`, 303);
  } catch (err) {
    const errors = refusalOf(err);
    if (!errors) throw err;
    if ((err as SvcError).errors.some((e) => e.code === 'duplicate')) {
      const shipmentId = await existingShipmentOf(req, values);
      if (shipmentId) return reply.redirect(`/shipments/${encodeURIComponent(shipmentId)}`, 303);
    }
    return refuse(errors);
  }
}

/** What track.js shows under the number: the likely lines and kind, most likely first. */
export interface InferAnswer {
  number_type: RequestType;
  decision: InferResult['shipping_line']['decision'];
  suggestions: { scac: string; name: string; confidence: number; text: string }[];
  /** Why the number looks wrong (a failed check digit…), when it does. */
  warning?: string;
  error?: string;
}

const MAX_SUGGESTIONS = 3;

async function inferAnswer(req: FastifyRequest, reply: FastifyReply) {
  const number = String((req.query as Record<string, unknown>).number ?? '').trim();
  reply.header('cache-control', 'no-store');
  if (!number) return reply.code(400).send({ error: 'Type a number.' });
  try {
    const result = await req.svc.trackingRequests.inferNumber(number);
    const type = REQUEST_TYPE_OF_INFERRED[result.number_type];
    const { decision, candidates } = result.shipping_line;
    const answer: InferAnswer = {
      number_type: type,
      decision,
      suggestions: candidates.slice(0, MAX_SUGGESTIONS).map((c) => ({ scac: c.scac, name: c.name, confidence: c.confidence, text: suggestionText(c, type) })),
      ...(result.validation.is_valid === false && result.validation.reason ? { warning: result.validation.reason } : {}),
    };
    return reply.send(answer);
  } catch (err) {
    // A number inference cannot read is an answer, not a failure: the form says so under the number.
    if (err instanceof ValidationError) return reply.send({ error: err.errors.map((e) => e.detail).filter(Boolean).join(' ') || err.message });
    throw err;
  }
}

export function trackRoutes(web: FastifyInstance, _options: WebOptions): void {
  web.get('/track', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const values: TrackValues = { number: q.number?.trim() ?? '', scac: '', type: '', refs: '' };
    return sendPage(reply, <TrackPage req={req} lines={await trackableLines(req)} values={values} />);
  });
  web.post('/track', submitTrack);
  web.get('/track/infer', inferAnswer);
}
