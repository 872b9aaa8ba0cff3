// Creating tracking requests: the rules a request must pass before svc accepts it.
import type { Clock } from '../clock.ts';
import { normaliseRequestNumber } from '../domain/carrier-numbers.ts';
import { Conflict, Invalid } from '../domain/errors.ts';
import { domainEvent } from '../domain/events/domain-event.ts';
import { withTransaction, type Db } from '../store/db.ts';
import { recordEvents } from '../store/domain-events.ts';
import { findParties } from '../store/parties.ts';
import { findShippingLine } from '../store/reference.ts';
import { endAwaitingRequest, insertTrackingRequest, type NewTrackingRequest, type TrackingRequestRow } from '../store/tracking-requests.ts';
import { stageInitialFields, type InitialCustomFields } from './initial-custom-fields.ts';
import { autoDetectFailed, detectScac, type DetectedScac } from './scac-auto-detect.ts';

export interface CreateTrackingRequest {
  request_type: TrackingRequestRow['request_type'];
  request_number: string;
  /** Required unless `auto_detect_vocc_scac`; when both are sent, the SCAC given wins. */
  scac?: string | null;
  /** Infer the SCAC from the request number (only an auto_select inference is used). */
  auto_detect_vocc_scac?: boolean;
  ref_numbers?: string[];
  customer_id?: string;
  /** Custom field values for the shipment and containers it becomes (initial-custom-fields.ts). */
  initial_custom_fields?: InitialCustomFields | null;
}

// Where in the request document a client finds the value a refusal is about.
const REQUEST_NUMBER = ['data', 'attributes', 'request_number'];
const SCAC = ['data', 'attributes', 'scac'];

const SUPPORT = {
  bill_of_lading: 'bill_of_lading_tracking_support',
  booking_number: 'booking_number_tracking_support',
  container: 'container_number_tracking_support',
} as const;

export interface CreateOptions {
  /** Whether a carrier connector exists for a line's SCAC; unset, every known line is trackable. */
  isTrackable?: (scac: string) => boolean;
}

export async function createTrackingRequest(
  db: Db,
  clock: Clock,
  accountId: string,
  input: CreateTrackingRequest,
  options: CreateOptions = {},
): Promise<TrackingRequestRow> {
  const number = normaliseRequestNumber(input.request_type, input.request_number);
  if (!number) throw new Invalid(REQUEST_NUMBER, "Request number can't be blank", 'blank');
  let detected: DetectedScac | undefined;
  if (!input.scac) {
    if (!input.auto_detect_vocc_scac) throw new Invalid(SCAC, "Scac can't be blank", 'blank');
    detected = detectScac(input.request_number);
  }
  const scac = detected?.scac ?? input.scac!;
  // A detected line that svc cannot use is an auto-detect failure: the client never named it.
  const refuse = (detail: string, code: string, whyNotDetected: string) =>
    detected
      ? autoDetectFailed(`The request number points to ${detected.name} (${detected.scac}), but ${whyNotDetected}. Send scac to name the line.`)
      : new Invalid(SCAC, detail, code);
  const line = await findShippingLine(db, scac.toUpperCase());
  if (!line) throw refuse(`Scac '${scac}' is not recognized`, 'not_recognized', 'svc does not know that line');
  // A known line without a carrier connector here would only retry for a day and fail.
  if (options.isTrackable && !options.isTrackable(line.scac)) {
    throw refuse(
      `Scac '${line.scac}' (${line.name}) is a known shipping line that svc cannot track yet: no carrier connector is configured for it`,
      'unsupported_scac',
      'svc cannot track that line yet: no carrier connector is configured for it',
    );
  }
  if (!line[SUPPORT[input.request_type]]) {
    throw refuse(
      `Scac '${line.scac}' is not supported for request type ${input.request_type}: ${line.name} cannot be tracked by this kind of number`,
      'not_supported',
      `that line cannot be tracked by ${input.request_type} numbers`,
    );
  }
  if (input.customer_id) {
    const [party] = await findParties(db, accountId, [input.customer_id]);
    if (!party) throw new Invalid(['data', 'relationships', 'customer', 'data', 'id'], 'No such party in this account', 'not_found');
  }
  const initialCustomFields = await stageInitialFields(db, accountId, input.initial_custom_fields);
  // An alternative SCAC (MEDU for MSC…) is accepted and recorded as the line's own; the staged
  // values go in the same statement, so a request is never kept without them.
  const now = clock.now();
  const request: NewTrackingRequest = {
    account_id: accountId,
    request_number: number,
    request_type: input.request_type,
    scac: line.scac,
    ref_numbers: input.ref_numbers ?? [],
    customer_id: input.customer_id ?? null,
    initial_custom_fields: initialCustomFields,
    at: now,
  };
  // Refused while the account's request for the number is pending or created. One awaiting its
  // manifest gives way instead: it ends as failed (duplicate, announced) and the new one is looked
  // up at once. Both in one transaction: should another request win the number meanwhile, the
  // insert fails, the transaction rolls back and the awaiting request is left as it was.
  const row =
    (await insertTrackingRequest(db, request)) ??
    (await withTransaction(db, async (tx) => {
      const ended = await endAwaitingRequest(tx, accountId, number, line.scac, now);
      if (!ended) return undefined;
      await recordEvents(tx, [domainEvent('tracking_request.failed', { account_id: accountId, reference_id: ended.id, shipment_id: ended.shipment_id })], now);
      return insertTrackingRequest(tx, request);
    }));
  if (!row) {
    throw new Conflict('duplicate', `Request number '${number}' with scac '${line.scac}' already exists in a tracking_request with a pending or created status`, REQUEST_NUMBER);
  }
  return row;
}
