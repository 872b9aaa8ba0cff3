// HTTP client for a carrier's DCSA Track & Trace API: paged event queries (2.2 or 3.0) and
// push subscriptions, each in the carrier's own version. Every request goes through the carrier's
// request gate (its limits) and carries its authentication (auth.ts).
import { z } from 'zod';
import type { CarrierEvent, RejectedCarrierEvent } from '../../domain/tracking/carrier-events.ts';
import type { RequestOutcomes } from '../types.ts';
import { carrierAuth, type CarrierAuth } from './auth.ts';
import { UnrecognizedResponseError } from './errors.ts';
import { exchange, jsonBody, type HttpAnswer, type HttpSettings } from './http.ts';
import { RequestGate } from './request-gate.ts';
import { requestOutcome } from './request-outcome.ts';
import { nextPageUrl } from './next-page.ts';
import { nothingUsable, readEventPage, type DcsaVersion, type EventPage } from './normalize.ts';

export interface DcsaClientOptions {
  /** The carrier's API root; `/v2/events` (2.2) or `/v3/events` (3.0) is appended to its path. */
  baseUrl?: string;
  /**
   * The events resource itself, for carriers whose path does not end in /v2/events or /v3/events
   * (its subscriptions: the same path ending in /event-subscriptions). One of baseUrl, eventsUrl.
   */
  eventsUrl?: string;
  /** How requests authenticate; without it, apiKey in apiKeyHeader, else nothing. */
  auth?: CarrierAuth;
  apiKey?: string;
  /** Header that carries apiKey. Default `API-Key`; some carriers want e.g. `Consumer-Key`. */
  apiKeyHeader?: string;
  /** The carrier's limits, shared by every request to it; default: no cap, Retry-After honoured up to a minute. */
  gate?: RequestGate;
  version: DcsaVersion;
  /** Per HTTP exchange (one page), headers and body included. */
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Pages one query may span before it is abandoned as a runaway cursor. Default 50. */
  maxPages?: number;
  /** Hears what each request came to (svc carriers list shows it). */
  outcomes?: RequestOutcomes;
}

export interface DcsaEventFilters {
  carrierBookingReference?: string;
  transportDocumentReference?: string;
  equipmentReference?: string;
  /** Only events created (2.2) or updated (3.0) at or after this instant: incremental refresh. */
  since?: Date;
  /** Page size to ask for. Sent only when set: a 3.0 server without paging may answer `limit` with a 400. */
  limit?: number;
}

export type DcsaEventType = 'SHIPMENT' | 'TRANSPORT' | 'EQUIPMENT';

export interface DcsaSubscriptionRequest {
  /** Where the carrier will POST arrays of events. */
  callbackUrl: string;
  /** Key of the HMAC in `Notification-Signature`; sent once, base64-encoded. */
  secret: Buffer;
  /** AND across members; a list matches any of its values. */
  filters: {
    eventType?: DcsaEventType[];
    carrierBookingReference?: string;
    transportDocumentReference?: string;
    equipmentReference?: string;
  };
}

type Request = { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };

const createdSubscription = z.object({ subscriptionID: z.string().trim().min(1) });

/** Answers a request gets again: a refused token (once, after renewing it), a 429 (after its Retry-After). */
const MAX_ATTEMPTS = 4;
/** Longest a request waits for the carrier's Retry-After before the lookup gives up as temporary. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;

export class DcsaClient {
  readonly version: DcsaVersion;
  /** The events endpoint without a query, as text: each query's URL is this and its query, parsed once. */
  readonly #eventsEndpoint: string;
  readonly #subscriptionsEndpoint: URL;
  readonly #http: HttpSettings;
  readonly #headers: Record<string, string>;
  readonly #auth: CarrierAuth;
  readonly #gate: RequestGate;
  readonly #maxPages: number;
  readonly #outcomes: RequestOutcomes | undefined;

  constructor(options: DcsaClientOptions) {
    this.version = options.version;
    const major = options.version === '2.2' ? '/v2' : '/v3';
    if (options.eventsUrl !== undefined) {
      const events = withoutQuery(new URL(options.eventsUrl));
      this.#eventsEndpoint = events.href;
      events.pathname = events.pathname.replace(/\/*$/, '').replace(/\/events$/, '') + '/event-subscriptions';
      this.#subscriptionsEndpoint = events;
    } else if (options.baseUrl !== undefined) {
      this.#eventsEndpoint = under(options.baseUrl, `${major}/events`).href;
      this.#subscriptionsEndpoint = under(options.baseUrl, `${major}/event-subscriptions`);
    } else {
      throw new Error('a DCSA client needs baseUrl or eventsUrl');
    }
    this.#http = { fetch: options.fetch, timeoutMs: options.timeoutMs };
    this.#maxPages = options.maxPages ?? 50;
    this.#outcomes = options.outcomes;
    this.#headers = {
      accept: 'application/json',
      // 2.2 wants the major version only; 3.0 the full one.
      'API-Version': options.version === '2.2' ? '2' : '3.0.0',
    };
    const key = options.apiKey !== undefined ? { kind: 'api_key' as const, header: options.apiKeyHeader ?? 'API-Key', key: options.apiKey } : { kind: 'none' as const };
    this.#auth = options.auth ?? carrierAuth(key, { http: this.#http });
    this.#gate = options.gate ?? new RequestGate({ maxWaitMs: DEFAULT_MAX_RETRY_WAIT_MS });
  }

  /**
   * Every event matching the filters, following the carrier's cursor to the last page. `received`
   * hears each page as it came (status and body), before it is read; `rejected` the events that
   * could not be read, which cost only themselves unless no event at all could be.
   */
  async getEvents(filters: DcsaEventFilters, received?: (answer: HttpAnswer) => void, rejected?: (events: RejectedCarrierEvent[]) => void): Promise<CarrierEvent[]> {
    const first = this.#eventsUrl(filters);
    const events: CarrierEvent[] = [];
    const unread: RejectedCarrierEvent[] = [];
    let url: URL | null = first;
    for (let page = 1; url !== null; page++) {
      if (page > this.#maxPages) throw new UnrecognizedResponseError(`still more pages after ${this.#maxPages}; giving up`);
      const { headers, read } = await this.#page(url, received);
      const { events: found, rejected: bad, received: count } = read;
      events.push(...found);
      unread.push(...bad);
      const next = nextPageUrl(this.version, headers, url, first);
      // Some servers keep sending a next link on (or after) the last page: an empty page, or a
      // link to the page just read, ends the walk too.
      url = count === 0 || next?.href === url.href ? null : next;
    }
    if (events.length === 0 && unread.length > 0) throw nothingUsable(unread);
    if (unread.length > 0) rejected?.(unread);
    return events;
  }

  /** One page of events, read. */
  #page(url: URL, received?: (answer: HttpAnswer) => void): Promise<{ headers: HttpAnswer['headers']; read: EventPage }> {
    return this.#send(url, { method: 'GET' }, (answer) => {
      received?.(answer);
      return { headers: answer.headers, read: readEventPage(jsonBody(answer), this.version) };
    });
  }

  /**
   * Registers a push subscription in the carrier's own version and returns its id: 2.2's
   * `POST /v2/event-subscriptions`, or 3.0's `POST /v3/event-subscriptions` (optional in 3.0:
   * a carrier without it answers 404 or 501, and polling goes on).
   */
  async subscribe({ callbackUrl, secret, filters }: DcsaSubscriptionRequest): Promise<string> {
    const body = JSON.stringify({ callbackUrl, secret: secret.toString('base64'), ...(this.version === '2.2' ? filters : filtersV3(filters)) });
    return this.#send(this.#subscriptionsEndpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body }, (answer) => {
      const created = createdSubscription.safeParse(jsonBody(answer));
      if (!created.success) throw new UnrecognizedResponseError('subscription created but the answer has no subscriptionID');
      return created.data.subscriptionID;
    });
  }

  /** One events query as the carrier answered it, whatever its status: what `svc carriers check` reads. */
  async probe(filters: DcsaEventFilters): Promise<HttpAnswer> {
    let answered: HttpAnswer | undefined;
    try {
      return await this.#send(this.#eventsUrl(filters), { method: 'GET' }, (answer) => {
        answered = answer;
        // Read as a lookup would, so the outcome recorded says whether svc could use the answer.
        if (answer.status >= 200 && answer.status <= 299) readEventPage(jsonBody(answer), this.version);
        return answer;
      });
    } catch (error) {
      // An answer that could not be read is still the check's to describe.
      if (answered) return answered;
      throw error;
    }
  }

  /**
   * One request and the reading of its answer: the one place every request to the carrier goes
   * through, so its outcome is told here (once per request, whatever its retries).
   */
  async #send<T>(url: URL, init: Request, read: (answer: HttpAnswer) => T): Promise<T> {
    let status: number | undefined;
    try {
      const value = read(await this.#attempts(url, init, (answer) => (status = answer.status)));
      this.#outcomes?.(requestOutcome(new Date(), status, undefined, this.#gate.heldUntil));
      return value;
    } catch (error) {
      this.#outcomes?.(requestOutcome(new Date(), status, error, this.#gate.heldUntil));
      throw error;
    }
  }

  /**
   * A request through the gate, with the carrier's authentication. A refused bearer token is
   * renewed and the request sent once more; a 429 holds the gate for Retry-After and the request
   * waits its turn again (the gate gives up when that is too long). `heard` hears each answer.
   */
  async #attempts(url: URL, init: Request, heard: (answer: HttpAnswer) => void): Promise<HttpAnswer> {
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      await this.#gate.turn();
      const headers = { ...this.#headers, ...init.headers, ...(await this.#auth.headers()) };
      const answer = await exchange(this.#http, url, { method: init.method, headers, body: init.body });
      heard(answer);
      if (attempt >= MAX_ATTEMPTS) return answer;
      if (answer.status === 401 && !renewed && this.#auth.renew()) {
        renewed = true;
        continue;
      }
      if (answer.status !== 429) return answer;
      // Without Retry-After the carrier said nothing of when: a short pause for everyone, and this
      // lookup fails as temporary (retried on its schedule) rather than guessing.
      const retryAfter = answer.headers.get('retry-after');
      this.#gate.holdFor(retryAfter);
      if (retryAfter === null) return answer;
    }
  }

  #eventsUrl(filters: DcsaEventFilters): URL {
    const pairs: [string, string][] = [];
    for (const name of ['carrierBookingReference', 'transportDocumentReference', 'equipmentReference'] as const) {
      const value = filters[name];
      if (value !== undefined) pairs.push([name, value]);
    }
    // Without a reference the carrier would return every event we may see.
    if (pairs.length === 0) throw new Error('getEvents needs a booking, transport document or equipment reference');
    if (filters.since) pairs.push([this.version === '2.2' ? 'eventCreatedDateTime:gte' : 'eventUpdatedDateTimeMin', filters.since.toISOString()]);
    if (filters.limit !== undefined) pairs.push(['limit', String(filters.limit)]);
    // Built by hand so the 2.2 operator suffix keeps its literal colon; as one text, parsed once
    // (setting a URL's parts one after another re-serialises it each time: a lookup's dearest step
    // before its request, when the carrier has nothing new).
    return new URL(`${this.#eventsEndpoint}?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`);
  }

}

function withoutQuery(url: URL): URL {
  url.search = '';
  url.hash = '';
  return url;
}

/** The API root with a path appended to its own. */
function under(baseUrl: string, path: string): URL {
  const url = withoutQuery(new URL(baseUrl));
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url;
}

/**
 * 3.0.0-Beta-1's subscription filters: `eventTypes` for `eventType`, and the booking and transport
 * document references as the one `documentReference`.
 */
function filtersV3(filters: DcsaSubscriptionRequest['filters']): Record<string, unknown> {
  const { eventType, carrierBookingReference, transportDocumentReference, equipmentReference } = filters;
  const documentReference = carrierBookingReference ?? transportDocumentReference;
  return {
    ...(eventType ? { eventTypes: eventType } : {}),
    ...(documentReference !== undefined ? { documentReference } : {}),
    ...(equipmentReference !== undefined ? { equipmentReference } : {}),
  };
}
