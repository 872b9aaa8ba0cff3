// The CarrierConnector for carriers that speak DCSA Track & Trace (2.2 or 3.0), with optional
// terminal data from the svc terminal-status contract (terminal.ts).
import { systemClock, type Clock } from '../../clock.ts';
import type { CarrierEvent, TerminalStatus } from '../../domain/tracking/carrier-events.ts';
import type { CarrierConnector, LookupOutcome, LookupRequest, NumberType, SubscribeRequest } from '../types.ts';
import { DcsaClient, type DcsaClientOptions, type DcsaEventFilters } from './client.ts';
import { DcsaHttpError } from './errors.ts';
import type { HttpSettings } from './http.ts';
import { failed, failureFor } from './outcomes.ts';
import { bookingCancellation, buildSnapshot } from './snapshot.ts';
import { fetchTerminalStatus } from './terminal.ts';

export interface DcsaConnectorOptions {
  /** Root of the terminal-status service; without it snapshots carry no terminal data. */
  terminalBaseUrl?: string;
  clock?: Clock;
  /** Hears about terminal lookups that failed; they do not fail the carrier lookup. */
  onTerminalError?: (containerNumber: string, error: unknown) => void;
}

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

  /** DCSA 2.2 event subscription for the number; throws when the carrier refuses. */
  subscribe(request: SubscribeRequest): Promise<string> {
    return this.#client.subscribe({ callbackUrl: request.callbackUrl, secret: request.secret, filters: { [FILTER[request.numberType]]: request.number } });
  }

  /** Never throws: every failure is an outcome (table in outcomes.ts). */
  async lookup(request: LookupRequest): Promise<LookupOutcome> {
    try {
      const fetchedAt = this.#clock.now();
      const events = await this.#events(request);
      if (events.length === 0 && !request.since) {
        return failed('not_found', true, `the carrier has no events for ${request.numberType} ${request.number} (yet)`);
      }
      const snapshot = buildSnapshot(request, events, fetchedAt);
      const cancelled = bookingCancellation(events, snapshot.bookingNumber);
      if (cancelled) return failed('booking_cancelled', false, `booking cancelled (event ${cancelled.id})`);
      const containers = new Set([...snapshot.containers.map((c) => c.number), ...(request.knownContainers ?? [])]);
      snapshot.terminal = await this.#terminalStatuses([...containers]);
      return { kind: 'found', snapshot };
    } catch (error) {
      return failureFor(error);
    }
  }

  async #events(request: LookupRequest): Promise<CarrierEvent[]> {
    try {
      return await this.#client.getEvents({ [FILTER[request.numberType]]: request.number, since: request.since });
    } catch (error) {
      // With `since`, a 404 is how some servers say "nothing new" rather than "no such shipment".
      if (request.since && error instanceof DcsaHttpError && error.status === 404) return [];
      throw error;
    }
  }

  /**
   * Terminal data is a supplement: when the terminal service is down or answers nonsense, the
   * carrier's events still count, and the container is simply left out of `terminal` (which
   * therefore means "no news", never "no holds").
   */
  async #terminalStatuses(containers: string[]): Promise<TerminalStatus[]> {
    const { terminalBaseUrl, onTerminalError } = this.#options;
    if (terminalBaseUrl === undefined) return [];
    const statuses = await Promise.all(
      containers.map(async (number) => {
        try {
          return await fetchTerminalStatus(this.#terminalHttp, terminalBaseUrl, number);
        } catch (error) {
          onTerminalError?.(number, error);
          return null;
        }
      }),
    );
    return statuses.filter((s): s is TerminalStatus => s !== null);
  }
}
