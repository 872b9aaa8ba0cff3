// The CarrierConnector for carriers that speak DCSA Track & Trace (2.2 or 3.0), with optional
// terminal data from the svc terminal-status contract (terminal.ts).
import { systemClock, type Clock } from '../../clock.ts';
import type { CarrierEvent, RejectedCarrierEvent, TerminalStatus } from '../../domain/tracking/carrier-events.ts';
import type { CarrierConnector, LookupOutcome, LookupRequest, NumberType, SubscribeRequest } from '../types.ts';
import { DcsaClient, type DcsaClientOptions, type DcsaEventFilters } from './client.ts';
import { DcsaHttpError } from './errors.ts';
import type { HttpAnswer, HttpSettings } from './http.ts';
import { answerDigest, type HeardAnswer } from '../answer-digest.ts';
import { failed, failureFor } from './outcomes.ts';
import { bookingCancellation, buildSnapshot } from './snapshot.ts';
import { fetchTerminalAnswer, readTerminalStatus } from './terminal.ts';

export interface DcsaConnectorOptions {
  /** Root of the terminal-status service; without it snapshots carry no terminal data. */
  terminalBaseUrl?: string;
  clock?: Clock;
  /** Hears about terminal lookups that failed; they do not fail the carrier lookup. */
  onTerminalError?: (containerNumber: string, error: unknown) => void;
}

/** What the digest takes for a container the terminal gave no answer about (answerDigest leaves it out). */
const NO_ANSWER: HeardAnswer = { status: 0, body: 'no answer' };

const FILTER: Record<NumberType, keyof DcsaEventFilters> = {
  bill_of_lading: 'transportDocumentReference',
  booking_number: 'carrierBookingReference',
  container: 'equipmentReference',
};

export class DcsaConnector implements CarrierConnector {
  readonly #client: DcsaClient;
  readonly #terminalHttp: HttpSettings;
  readonly #options: DcsaConnectorOptions;
  readonly #clock: Clock;

  constructor(client: DcsaClientOptions, options: DcsaConnectorOptions = {}) {
    this.#client = new DcsaClient(client);
    this.#terminalHttp = { fetch: client.fetch, timeoutMs: client.timeoutMs };
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** Event subscription for the number, in the carrier's DCSA version; throws when the carrier refuses. */
  subscribe(request: SubscribeRequest): Promise<string> {
    return this.#client.subscribe({ callbackUrl: request.callbackUrl, secret: request.secret, filters: { [FILTER[request.numberType]]: request.number } });
  }

  /**
   * Never throws: every failure is an outcome (table in outcomes.ts). A found outcome carries the
   * digest of every answer it was made of (event pages, then terminal answers by container), so
   * the worker can tell an answer it has applied already without diffing it again.
   */
  async lookup(request: LookupRequest): Promise<LookupOutcome> {
    try {
      const fetchedAt = this.#clock.now();
      const pages: HeardAnswer[] = [];
      const rejected: RejectedCarrierEvent[] = [];
      const events = await this.#events(request, (answer) => pages.push(answer), (bad) => rejected.push(...bad));
      if (events.length === 0 && !request.since) {
        return failed('not_found', true, `the carrier has no events for ${request.numberType} ${request.number} (yet)`);
      }
      const snapshot = { ...buildSnapshot(request, events, fetchedAt), rejected };
      const cancelled = bookingCancellation(events, snapshot.bookingNumber);
      if (cancelled) return failed('booking_cancelled', false, `booking cancelled (event ${cancelled.id})`);
      const containers = [...new Set([...snapshot.containers.map((c) => c.number), ...(request.knownContainers ?? [])])].sort();
      const answers = await this.#terminalAnswers(containers);
      const heard = containers.map((number, i): [string, HeardAnswer] => [number, answers[i] ?? NO_ANSWER]);
      // Read when first asked for: an answer the worker finds it has applied already (its digest
      // says so) is never read again, so its terminal bodies cost neither JSON parsing nor validation.
      let terminal: TerminalStatus[] | undefined;
      Object.defineProperty(snapshot, 'terminal', { enumerable: true, get: () => (terminal ??= this.#terminalStatuses(containers, answers)) });
      return { kind: 'found', snapshot, digest: answerDigest(pages, heard, request.since !== undefined && events.length === 0) };
    } catch (error) {
      return failureFor(error);
    }
  }

  async #events(request: LookupRequest, received: (answer: HeardAnswer) => void, rejected: (events: RejectedCarrierEvent[]) => void): Promise<CarrierEvent[]> {
    try {
      return await this.#client.getEvents({ [FILTER[request.numberType]]: request.number, since: request.since }, received, rejected);
    } catch (error) {
      // With `since`, a 404 is how some servers say "nothing new" rather than "no such shipment".
      if (request.since && error instanceof DcsaHttpError && error.status === 404) return [];
      throw error;
    }
  }

  /**
   * Terminal data is a supplement: when the terminal service is down or answers nonsense, the
   * carrier's events still count, and the container is simply left out of `terminal` (which
   * therefore means "no news", never "no holds"). The answers by container, null where none came.
   */
  async #terminalAnswers(containers: string[]): Promise<(HttpAnswer | null)[]> {
    const { terminalBaseUrl, onTerminalError } = this.#options;
    if (terminalBaseUrl === undefined) return [];
    return Promise.all(
      containers.map((number) =>
        fetchTerminalAnswer(this.#terminalHttp, terminalBaseUrl, number).catch((error: unknown) => {
          onTerminalError?.(number, error);
          return null;
        }),
      ),
    );
  }

  /** The statuses in the terminal's answers; an answer that is not the contract's is reported and left out. */
  #terminalStatuses(containers: string[], answers: (HttpAnswer | null)[]): TerminalStatus[] {
    return answers.flatMap((answer, i) => {
      if (!answer) return [];
      try {
        return readTerminalStatus(answer, containers[i]) ?? [];
      } catch (error) {
        this.#options.onTerminalError?.(containers[i], error);
        return [];
      }
    });
  }
}
