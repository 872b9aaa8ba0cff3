// The connector contract: how the tracking engine asks a carrier about a number, and the
// carrier-neutral snapshot every connector answers with. DCSA Track & Trace is the model; other
// protocols map onto the same shapes, which the domain defines (src/domain/tracking/carrier-events.ts).

import type { CarrierSnapshot } from '../domain/tracking/carrier-events.ts';

export type NumberType = 'bill_of_lading' | 'booking_number' | 'container';

/** Why a tracking request could not be completed (the reference service's failed_reason values). */
export type FailedReason =
  | 'booking_cancelled'
  | 'duplicate'
  | 'expired'
  | 'internal_processing_error'
  | 'invalid_number'
  | 'not_found'
  | 'retries_exhausted'
  | 'shipping_line_unreachable'
  | 'unrecognized_response'
  | 'data_unavailable';

export interface LookupRequest {
  scac: string;
  numberType: NumberType;
  number: string;
  /** Only events published after this instant are needed (incremental refresh); the snapshot may still contain older ones. */
  since?: Date;
  /**
   * Containers svc already tracks on this shipment. An incremental refresh names only the
   * containers with new events, yet terminal data (holds released, availability) changes while a
   * box sits at the terminal with no carrier event; the connector reports terminal status for
   * these too.
   */
  knownContainers?: string[];
}

export type LookupOutcome =
  /**
   * `digest`: of the answer as received (its response bodies, in order), when the connector can
   * tell; equal digests mean the carrier said exactly the same again.
   */
  | { kind: 'found'; snapshot: CarrierSnapshot; digest?: string }
  /**
   * `temporary`: worth retrying (unreachable, unparsable answer, our own error); otherwise final.
   * For not_found, temporary means "no data yet" (a bill of lading not manifested yet), final means
   * the carrier says the number does not exist.
   */
  | { kind: 'failed'; reason: FailedReason; temporary: boolean; detail: string };

export interface SubscribeRequest extends Omit<LookupRequest, 'since' | 'knownContainers'> {
  /** Where the carrier should POST new events. */
  callbackUrl: string;
  /** Key of the HMAC-SHA256 that signs each callback. */
  secret: Buffer;
}

export interface CarrierConnector {
  lookup(request: LookupRequest): Promise<LookupOutcome>;
  /** Asks the carrier to push new events for the number; resolves to its subscription id. Optional: polling always works. */
  subscribe?(request: SubscribeRequest): Promise<string>;
}

/**
 * What one request to a carrier came to, as `svc carriers list` reports it: an answer read, or
 * a failure in a few words a user understands (never a body, a header or a secret), with the
 * carrier's Retry-After when it holds requests back. Times are real time, not the tracking clock.
 */
export type RequestOutcome = { at: Date; ok: true } | { at: Date; ok: false; reason: string; heldUntil?: Date };

/** Hears the outcome of each request to one carrier; must not throw nor keep the request waiting. */
export type RequestOutcomes = (outcome: RequestOutcome) => void;
