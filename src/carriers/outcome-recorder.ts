// Writes what requests to carriers came to (carrier_request_outcomes) without keeping a request
// waiting: outcomes are merged per carrier and written by at most one upsert in flight per
// carrier, so a busy carrier costs at most one write per request, and fewer when they crowd.
// A write that fails is told to `onError` and the request is none the worse.
import { recordCarrierOutcome, type CarrierOutcomeBatch } from '../store/carrier-request-outcomes.ts';
import type { Queryable } from '../store/db.ts';
import type { RequestOutcome, RequestOutcomes } from './types.ts';

export class CarrierOutcomeRecorder {
  readonly #db: Queryable;
  readonly #onError: (error: unknown) => void;
  /** Outcomes heard and not yet written, merged, by SCAC. */
  readonly #pending = new Map<string, CarrierOutcomeBatch>();
  /** The write under way, by SCAC. */
  readonly #writing = new Map<string, Promise<void>>();

  constructor(db: Queryable, onError: (error: unknown) => void = () => {}) {
    this.#db = db;
    this.#onError = onError;
  }

  /** The outcomes of one carrier's requests, for its connector. */
  for(scac: string): RequestOutcomes {
    const key = scac.toUpperCase();
    return (outcome) => {
      this.#pending.set(key, merge(this.#pending.get(key), outcome));
      if (!this.#writing.has(key)) this.#writing.set(key, this.#write(key));
    };
  }

  /** Resolves once every outcome heard so far is written (or failed to be): before a command exits. */
  async settled(): Promise<void> {
    while (this.#writing.size > 0) await Promise.all(this.#writing.values());
  }

  async #write(scac: string): Promise<void> {
    // Deferred a turn so outcomes heard together go in one write.
    await Promise.resolve();
    for (let batch = this.#pending.get(scac); batch; batch = this.#pending.get(scac)) {
      this.#pending.delete(scac);
      await recordCarrierOutcome(this.#db, scac, batch).catch(this.#onError);
    }
    this.#writing.delete(scac);
  }
}

/** Later outcomes on top of a batch: a success ends the failing streak, a failure starts one if none runs. */
function merge(batch: CarrierOutcomeBatch | undefined, outcome: RequestOutcome): CarrierOutcomeBatch {
  const b = batch ?? { lastSuccessAt: null, lastFailureAt: null, lastFailureReason: null, failingSince: null, heldUntil: null };
  if (outcome.ok) return { ...b, lastSuccessAt: outcome.at, failingSince: null };
  const heldUntil = outcome.heldUntil && (!b.heldUntil || outcome.heldUntil > b.heldUntil) ? outcome.heldUntil : b.heldUntil;
  return { ...b, lastFailureAt: outcome.at, lastFailureReason: outcome.reason, failingSince: b.failingSince ?? outcome.at, heldUntil };
}
