// svc track <number>: one tracking request. Without --scac the shipping line comes from svc's
// carrier inference, and only when svc is confident (auto_select); otherwise the candidates are
// listed and nothing is created, since a wrong line means a request that fails days later.
import { ValidationError, type InferResult, type SvcClient } from '../../sdk/src/index.ts';
import type { Io } from './io.ts';
import { ClientCommandError, ClientUsageError } from './options.ts';
import { percent } from './words.ts';

export const REQUEST_TYPES = ['container', 'bill_of_lading', 'booking_number'] as const;
type RequestType = (typeof REQUEST_TYPES)[number];

/** The inference's number_type as a request_type (the inference says `booking`). */
const REQUEST_TYPE_OF: Record<string, RequestType> = { container: 'container', bill_of_lading: 'bill_of_lading', booking: 'booking_number', booking_number: 'booking_number' };

export interface TrackOptions {
  number: string;
  scac?: string;
  type?: string;
  refs: string[];
  json: boolean;
}

export async function track(client: SvcClient, io: Io, options: TrackOptions): Promise<void> {
  if (options.type !== undefined && !REQUEST_TYPES.includes(options.type as RequestType)) {
    throw new ClientUsageError(`--type must be one of ${REQUEST_TYPES.join(', ')}, not ${options.type}`);
  }
  if (options.scac !== undefined && !/^[A-Za-z]{4}$/.test(options.scac)) throw new ClientUsageError(`--scac must be four letters, not ${options.scac}`);
  const inferred = options.scac && options.type ? undefined : await infer(client, options);
  const scac = options.scac?.toUpperCase() ?? chosenLine(options.number, inferred!, io);
  const requestType = (options.type as RequestType | undefined) ?? REQUEST_TYPE_OF[inferred!.number_type];
  if (!requestType) throw new ClientCommandError(`cannot tell what kind of number ${options.number} is: pass --type ${REQUEST_TYPES.join('|')}`);

  const request = await client.trackingRequests.create({ request_type: requestType, request_number: options.number, scac, ...(options.refs.length ? { ref_numbers: options.refs } : {}) });
  if (options.json) return io.out(`${JSON.stringify(request, null, 2)}\n`);
  io.out(`tracking request ${request.id}: ${request.status} (${request.scac} ${request.request_type} ${request.request_number})\n`);
  io.out(`follow it with: svc watch ${request.id}\n`);
}

/** svc's inference of the number; a number it cannot read at all leaves the type to --type. */
async function infer(client: SvcClient, options: TrackOptions): Promise<InferResult> {
  try {
    return await client.trackingRequests.inferNumber(options.number);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const why = err.errors[0]?.detail ?? err.message;
    const missing = [options.scac ? '' : '--scac XXXX', options.type ? '' : `--type ${REQUEST_TYPES.join('|')}`].filter(Boolean).join(' and ');
    throw new ClientCommandError(`svc cannot infer anything from ${options.number} (${why}): pass ${missing}`);
  }
}

/** The line inference selected with confidence (said on stderr), or a refusal that lists the candidates. */
function chosenLine(number: string, inferred: InferResult, io: Io): string {
  const { decision, selected, candidates } = inferred.shipping_line;
  if (decision === 'auto_select' && selected) {
    io.note(`${number}: shipping line ${selected.scac} (${selected.name}) inferred with confidence ${percent(selected.confidence)}`);
    return selected.scac;
  }
  const listed = candidates.map((c) => `${c.scac} (${c.name}, ${percent(c.confidence)})`).join(', ');
  const why = decision === 'needs_confirmation' ? 'is not sure enough of the shipping line' : 'cannot tell the shipping line';
  throw new ClientCommandError(`svc ${why} of ${number}: ${listed ? `candidates ${listed}` : 'no candidates'}; pass --scac XXXX`);
}

