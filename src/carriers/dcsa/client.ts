// HTTP client for a carrier's DCSA Track & Trace API: paged event queries (2.2 or 3.0) and
// 2.2 push subscriptions.
import { z } from 'zod';
import type { CarrierEvent, RejectedCarrierEvent } from '../../domain/tracking/carrier-events.ts';
import { UnrecognizedResponseError } from './errors.ts';
import { exchange, jsonBody, type HttpAnswer, type HttpSettings } from './http.ts';
import { nextPageUrl } from './next-page.ts';
import { nothingUsable, readEventPage, type DcsaVersion } from './normalize.ts';

export interface DcsaClientOptions {
  /** The carrier's API root; `/v2/events` (2.2) or `/v3/events` (3.0) is appended to its path. */
  baseUrl: string;
  apiKey?: string;
  /** Header that carries apiKey. Default `API-Key`; some carriers want e.g. `Consumer-Key`. */
  apiKeyHeader?: string;
  version: DcsaVersion;
  /** Per HTTP exchange (one page), headers and body included. */
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Pages one query may span before it is abandoned as a runaway cursor. Default 50. */
  maxPages?: number;
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

const createdSubscription = z.object({ subscriptionID: z.string().trim().min(1) });

export class DcsaClient {
  readonly version: DcsaVersion;
  readonly #base: URL;
  /** The events endpoint without a query, as text: each query's URL is this and its query, parsed once. */
  readonly #eventsEndpoint: string;
  readonly #http: HttpSettings;
  readonly #headers: Record<string, string>;
  readonly #maxPages: number;

  constructor(options: DcsaClientOptions) {
    this.version = options.version;
    this.#base = new URL(options.baseUrl);
    this.#eventsEndpoint = this.#url(options.version === '2.2' ? '/v2/events' : '/v3/events').href;
    this.#http = { fetch: options.fetch, timeoutMs: options.timeoutMs };
    this.#maxPages = options.maxPages ?? 50;
    this.#headers = {
      accept: 'application/json',
      // 2.2 wants the major version only; 3.0 the full one.
      'API-Version': options.version === '2.2' ? '2' : '3.0.0',
      ...(options.apiKey !== undefined ? { [options.apiKeyHeader ?? 'API-Key']: options.apiKey } : {}),
    };
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
      const answer = await exchange(this.#http, url, { method: 'GET', headers: this.#headers });
      received?.(answer);
      const { events: found, rejected: bad, received: count } = readEventPage(jsonBody(answer), this.version);
      events.push(...found);
      unread.push(...bad);
      const next = nextPageUrl(this.version, answer.headers, url, first);
      // Some servers keep sending a next link on (or after) the last page: an empty page, or a
      // link to the page just read, ends the walk too.
      url = count === 0 || next?.href === url.href ? null : next;
    }
    if (events.length === 0 && unread.length > 0) throw nothingUsable(unread);
    if (unread.length > 0) rejected?.(unread);
    return events;
  }

  /** Registers a 2.2 push subscription and returns its id. (3.0 leaves subscriptions out of scope.) */
  async subscribe({ callbackUrl, secret, filters }: DcsaSubscriptionRequest): Promise<string> {
    const answer = await exchange(this.#http, this.#url('/v2/event-subscriptions'), {
      method: 'POST',
      headers: { ...this.#headers, 'API-Version': '2', 'content-type': 'application/json' },
      body: JSON.stringify({ callbackUrl, secret: secret.toString('base64'), ...filters }),
    });
    const created = createdSubscription.safeParse(jsonBody(answer));
    if (!created.success) throw new UnrecognizedResponseError('subscription created but the answer has no subscriptionID');
    return created.data.subscriptionID;
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

  #url(path: string): URL {
    const url = new URL(this.#base);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
    url.search = '';
    url.hash = '';
    return url;
  }
}
