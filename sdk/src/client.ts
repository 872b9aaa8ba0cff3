// SvcClient: svc's REST API as methods. Each method sends one request through the retrying
// transport, raises a typed error for a failed answer and returns plain records with the
// included records resolved (records.ts). `raw` is the generated, fully typed client of every
// path, for whatever the methods do not cover.
import createClient, { type Client } from 'openapi-fetch';
import { errorFor } from './errors.ts';
import { toRecords, type ResourceObject } from './records.ts';
import type { paths } from './schema.ts';
import { headerOf, inProcessSendOf, retryAfterMs, retryingFetch, retryingSend, sleep, type InProcessSend } from './transport.ts';
import type { Account, AttributesOf, BodyOf, Container, ContainerUpdatedEvent, CustomField, CustomFieldDefinition, CustomFieldOption, Document, DocumentSchema, EmailSubmission, EstimatedEvent, InferResult, MetroArea, Party, Port, QueryOf, RailTerminal, RawEvent, SearchResult, Shipment, ShippingLine, Terminal, TrackingRequest, TransportEvent, Vessel, VesselWithPositions, Webhook, WebhookNotification } from './types.ts';

export interface SvcClientOptions {
  /** svc's address: an origin (`http://localhost:8080`, which gets `/v2`) or the API base ending in `/v2`. */
  baseUrl: string;
  /** API key, sent as `Authorization: Token <key>`. */
  token?: string;
  /** Each attempt's limit in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Retries of a read (GET, HEAD) after 429, 5xx or a network failure (default 2). Writes are never retried. */
  maxRetries?: number;
  /** The longest wait before a retry in milliseconds (default 30 s); a Retry-After beyond it is not waited for. */
  maxRetryDelayMs?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** How to wait between attempts; tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
}

/** One page of a list, with what it takes to fetch the next. */
export interface Page<T> {
  items: T[];
  /** Records in the whole list, or a lower bound when `totalIsLowerBound` (svc counts a large list only so far). */
  total: number;
  totalIsLowerBound: boolean;
  links: { self?: string; next?: string; prev?: string; first?: string; last?: string };
  meta: Record<string, unknown>;
  /** The next page, or undefined on the last one. */
  next(): Promise<Page<T> | undefined>;
}

type Query = Record<string, string | number | boolean | string[] | undefined | null>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Send `body` as plain JSON rather than a JSON:API document. */
  plainJson?: boolean;
  /** The caller's own cancellation: an aborted request is not retried. */
  signal?: AbortSignal;
  /** A body sent as it is with its own content type (a raw e-mail), instead of `body` as JSON. */
  raw?: { contentType: string; body: string | Uint8Array<ArrayBuffer> };
}

/** `http://h:8080` and `http://h:8080/v2/` both become `http://h:8080/v2`. */
export function apiBase(baseUrl: string): string {
  // The MCP server makes a client per request, always of the same base: parse it once.
  if (baseUrl === lastBase.given) return lastBase.base;
  lastBase = { given: baseUrl, base: parseBase(baseUrl) };
  return lastBase.base;
}

let lastBase = { given: '', base: '' };

function parseBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = /\/v2$/.test(path) ? path : `${path}/v2`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

const JSONAPI = 'application/vnd.api+json';

export class SvcClient {
  /** The API base, ending in /v2. */
  readonly baseUrl: string;
  /** The base without /v2: where /healthz and /readyz live. */
  private readonly root: string;
  private readonly send: (request: Request) => Promise<Response>;
  /** The in-process fast path, when the fetch given carries one (transport.ts withInProcessSend). */
  private readonly sendInProcess?: InProcessSend;
  private readonly headers: Record<string, string>;
  private rawClient?: Client<paths>;
  /**
   * The method groups (containers, shipments, …), each made on first use: the MCP server makes a
   * client per request and uses one or two groups, and making all of them cost more than a call.
   */
  private readonly groups: Record<string, unknown> = {};

  constructor(options: SvcClientOptions) {
    this.baseUrl = apiBase(options.baseUrl);
    const transport = {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
      fetch: options.fetch ?? globalThis.fetch,
      sleep: options.sleep ?? sleep,
    };
    this.send = retryingFetch(transport);
    const inProcess = inProcessSendOf(transport.fetch);
    if (inProcess) this.sendInProcess = retryingSend(transport, inProcess);
    this.headers = {
      accept: `${JSONAPI}, application/json`,
      'user-agent': 'svc-sdk/0.1',
      ...options.headers,
      ...(options.token ? { authorization: `Token ${options.token}` } : {}),
    };
    this.root = this.baseUrl.slice(0, -'/v2'.length);
  }

  private namespace<T>(name: string, make: () => T): T {
    return (this.groups[name] ??= make()) as T;
  }

  /** The generated client of every path (paths start with /v2), through the same transport; made on first use. */
  get raw(): Client<paths> {
    return (this.rawClient ??= createClient<paths>({ baseUrl: this.root, headers: this.headers, fetch: this.send }));
  }

  /**
   * One request to a path under the base (`/containers/abc`), the answer's JSON or a typed error.
   * `body` goes as JSON:API unless `plainJson`.
   */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    // Awaited: an async function that returns a promise waits for it two turns of the microtask queue longer.
    return await this.fetchJson<T>(method, withQuery(this.baseUrl + path, options.query), options);
  }

  private async fetchJson<T>(method: string, url: string, { body, plainJson = false, signal, raw }: RequestOptions = {}): Promise<T> {
    const headers = raw ? { ...this.headers, 'content-type': raw.contentType } : body === undefined ? this.headers : { ...this.headers, 'content-type': plainJson ? 'application/json' : JSONAPI };
    const text = raw ? raw.body : body === undefined ? undefined : JSON.stringify(body);
    // The in-process path carries JSON text only: a raw body goes over the network.
    if (this.sendInProcess && typeof text !== 'object') {
      const answer = await this.sendInProcess({ method, url, headers, body: text, signal });
      return answerOf<T>(answer.status, answer.body, (name) => headerOf(answer.headers, name));
    }
    const response = await this.send(new Request(url, { method, headers, signal, body: text }));
    const received = await response.text();
    let parsed: unknown;
    try {
      parsed = received ? JSON.parse(received) : undefined;
    } catch {
      parsed = undefined; // an HTML error page from a proxy: the status still tells the kind
    }
    return answerOf<T>(response.status, parsed, (name) => response.headers.get(name));
  }

  /** A signed link as given, or its token on this client's base. */
  private signedLink(path: string, urlOrToken: string): string {
    return urlOrToken.includes('/') ? urlOrToken : `${this.baseUrl}${path}/${enc(urlOrToken)}`;
  }

  /** The answer's bytes (a document's file), else the typed error of the failed one. */
  private async fetchBytes(url: string): Promise<Uint8Array> {
    const response = await this.send(new Request(url, { headers: this.headers }));
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (response.ok) return bytes;
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      parsed = undefined;
    }
    return answerOf<Uint8Array>(response.status, parsed, (name) => response.headers.get(name));
  }

  private async one<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const doc = await this.request<{ data: ResourceObject; included?: ResourceObject[] }>(method, path, options);
    return toRecords([doc.data], doc.included, includeList(options.query?.include))[0] as T;
  }

  private async prediction(path: string, query: Query): Promise<{ vessel: VesselWithPositions; meta: BodyOf<'getV2VesselsIdFuturePositions'>['meta'] }> {
    const doc = await this.request<BodyOf<'getV2VesselsIdFuturePositions'>>('GET', path, { query });
    return { vessel: toRecords([doc.data as ResourceObject])[0] as VesselWithPositions, meta: doc.meta };
  }

  private async page<T>(path: string, query: Query = {}): Promise<Page<T>> {
    return this.toPage<T>(await this.request(`GET`, path, { query }), includeList(query.include));
  }

  private toPage<T>(doc: { data: ResourceObject[]; included?: ResourceObject[]; links?: Page<T>['links']; meta?: Record<string, unknown> }, include?: string[]): Page<T> {
    const links = doc.links ?? {};
    const meta = doc.meta ?? {};
    return {
      items: toRecords(doc.data, doc.included, include) as T[],
      total: typeof meta.total === 'number' ? meta.total : doc.data.length,
      totalIsLowerBound: meta.total_is_lower_bound === true,
      links,
      meta,
      next: async () => (links.next ? this.toPage<T>(await this.fetchJson('GET', this.followable(links.next)), include) : undefined),
    };
  }

  /** svc's pagination link, against this client's base: svc may name a public origin this client does not use. */
  private followable(link: string): string {
    const url = new URL(link, this.baseUrl);
    const at = url.pathname.lastIndexOf('/v2/');
    return at < 0 ? url.toString() : this.baseUrl + url.pathname.slice(at + 3) + url.search;
  }

  /** Every record of a list, page after page. */
  private async *all<T>(path: string, query: Query = {}): AsyncGenerator<T> {
    for (let page: Page<T> | undefined = await this.page<T>(path, query); page; page = await page.next()) yield* page.items;
  }

  get trackingRequests() {
    return this.namespace('trackingRequests', () => ({
      /** Track a number. `scac` may be left out with `auto_detect_vocc_scac: true`. */
      create: (attributes: AttributesOf<'postV2TrackingRequests'>, customerId?: string) =>
        this.one<TrackingRequest>('POST', '/tracking_requests', {
          body: { data: { type: 'tracking_request', attributes, ...(customerId ? { relationships: { customer: { data: { type: 'party', id: customerId } } } } : {}) } },
        }),
      get: (id: string, query: QueryOf<'getV2TrackingRequestsId'> = {}) => this.one<TrackingRequest>('GET', `/tracking_requests/${enc(id)}`, { query }),
      list: (query: QueryOf<'getV2TrackingRequests'> = {}) => this.page<TrackingRequest>('/tracking_requests', query),
      iterate: (query: QueryOf<'getV2TrackingRequests'> = {}) => this.all<TrackingRequest>('/tracking_requests', query),
      update: (id: string, attributes: AttributesOf<'patchV2TrackingRequestsId'>) =>
        this.one<TrackingRequest>('PATCH', `/tracking_requests/${enc(id)}`, { body: { data: { type: 'tracking_request', id, attributes } } }),
      /** The shipping line and number type svc predicts for a bare number (beta). */
      inferNumber: (number: string) => this.one<InferResult>('POST', '/tracking_requests/infer_number', { body: { number }, plainJson: true }),
    }));
  }

  get shipments() {
    return this.namespace('shipments', () => ({
      get: (id: string, query: QueryOf<'getV2ShipmentsId'> = {}) => this.one<Shipment>('GET', `/shipments/${enc(id)}`, { query }),
      list: (query: QueryOf<'getV2Shipments'> = {}) => this.page<Shipment>('/shipments', query),
      iterate: (query: QueryOf<'getV2Shipments'> = {}) => this.all<Shipment>('/shipments', query),
      update: (id: string, attributes: AttributesOf<'patchV2ShipmentsId'>) =>
        this.one<Shipment>('PATCH', `/shipments/${enc(id)}`, { body: { data: { type: 'shipment', id, attributes } } }),
      stopTracking: (id: string) => this.one<Shipment>('PATCH', `/shipments/${enc(id)}/stop_tracking`),
      resumeTracking: (id: string) => this.one<Shipment>('PATCH', `/shipments/${enc(id)}/resume_tracking`),
    }));
  }

  get containers() {
    return this.namespace('containers', () => ({
      get: (id: string, query: QueryOf<'getV2ContainersId'> = {}) => this.one<Container>('GET', `/containers/${enc(id)}`, { query }),
      list: (query: QueryOf<'getV2Containers'> = {}) => this.page<Container>('/containers', query),
      iterate: (query: QueryOf<'getV2Containers'> = {}) => this.all<Container>('/containers', query),
      update: (id: string, attributes: AttributesOf<'patchV2ContainersId'>) =>
        this.one<Container>('PATCH', `/containers/${enc(id)}`, { body: { data: { type: 'container', id, attributes } } }),
      /** Asks the line (and terminal) for news of the container now; answers what it started, not the container. */
      refresh: (id: string) => this.request<BodyOf<'patchV2ContainersIdRefresh'>>('PATCH', `/containers/${enc(id)}/refresh`),
      transportEvents: (id: string, query: QueryOf<'getV2ContainersIdTransportEvents'> = {}) => this.page<TransportEvent>(`/containers/${enc(id)}/transport_events`, query),
      iterateTransportEvents: (id: string, query: QueryOf<'getV2ContainersIdTransportEvents'> = {}) => this.all<TransportEvent>(`/containers/${enc(id)}/transport_events`, query),
      rawEvents: (id: string) => this.page<RawEvent>(`/containers/${enc(id)}/raw_events`),
      /** The route map: a GeoJSON FeatureCollection (plain JSON, not JSON:API). */
      mapGeojson: (id: string) => this.request<BodyOf<'getV2ContainersIdMapGeojson'>>('GET', `/containers/${enc(id)}/map_geojson`),
      /** The route document as sent (route, and with `include` its route locations, ports and vessels). */
      route: (id: string, query: QueryOf<'getV2ContainersIdRoute'> = {}) => this.request<BodyOf<'getV2ContainersIdRoute'>>('GET', `/containers/${enc(id)}/route`, { query }),
    }));
  }

  get transportEvents() {
    return this.namespace('transportEvents', () => ({
      get: (id: string, query: QueryOf<'getV2TransportEventsId'> = {}) => this.one<TransportEvent>('GET', `/transport_events/${enc(id)}`, { query }),
    }));
  }

  /** A change of a shipment's estimated arrival, where its links.self points. */
  get estimatedEvents() {
    return this.namespace('estimatedEvents', () => ({
      get: (id: string, query: QueryOf<'getV2EstimatedEventsId'> = {}) => this.one<EstimatedEvent>('GET', `/estimated_events/${enc(id)}`, { query }),
    }));
  }

  /** A change of a container's terminal data, where its links.self points. */
  get containerUpdatedEvents() {
    return this.namespace('containerUpdatedEvents', () => ({
      get: (id: string, query: QueryOf<'getV2ContainerUpdatedEventsId'> = {}) => this.one<ContainerUpdatedEvent>('GET', `/container_updated_events/${enc(id)}`, { query }),
    }));
  }

  /** Shipments, containers and tracking requests whose numbers or reference numbers match (at most 25). */
  search = async (query: string): Promise<SearchResult[]> => (await this.page<SearchResult>('/search', { query })).items;

  get shippingLines() {
    return this.namespace('shippingLines', () => ({
      list: async (query: QueryOf<'getV2ShippingLines'> = {}): Promise<ShippingLine[]> => (await this.page<ShippingLine>('/shipping_lines', query)).items,
      get: (id: string) => this.one<ShippingLine>('GET', `/shipping_lines/${enc(id)}`),
    }));
  }
  get ports() {
    return this.namespace('ports', () => ({ get: (idOrLocode: string) => this.one<Port>('GET', `/ports/${enc(idOrLocode)}`) }));
  }
  get metroAreas() {
    return this.namespace('metroAreas', () => ({ get: (idOrLocode: string) => this.one<MetroArea>('GET', `/metro_areas/${enc(idOrLocode)}`) }));
  }
  get terminals() {
    return this.namespace('terminals', () => ({ get: (id: string, query: QueryOf<'getV2TerminalsId'> = {}) => this.one<Terminal>('GET', `/terminals/${enc(id)}`, { query }) }));
  }
  get railTerminals() {
    return this.namespace('railTerminals', () => ({ get: (id: string, query: QueryOf<'getV2RailTerminalsId'> = {}) => this.one<RailTerminal>('GET', `/rail_terminals/${enc(id)}`, { query }) }));
  }
  get vessels() {
    return this.namespace('vessels', () => ({
      /** By id or IMO number; `show_positions` (or either `show_positions[…_timestamp]`) adds the AIS track, which needs the routing feature. */
      get: (idOrImo: string, query: QueryOf<'getV2VesselsId'> = {}) => this.one<Vessel>('GET', `/vessels/${enc(idOrImo)}`, { query }),
      /** The predicted path to `port_id`, a position a minute, from the vessel's latest position; `meta` has the arrival and the speed assumed. */
      futurePositions: (id: string, query: QueryOf<'getV2VesselsIdFuturePositions'>) => this.prediction(`/vessels/${enc(id)}/future_positions`, query),
      /** The same from `latitude`/`longitude` at now. */
      futurePositionsWithCoordinates: (id: string, query: QueryOf<'getV2VesselsIdFuturePositionsWithCoordinates'>) =>
        this.prediction(`/vessels/${enc(id)}/future_positions_with_coordinates`, query),
    }));
  }
  /** The account of this client's API key (a cheap way to check the key). */
  get account() {
    return this.namespace('account', () => ({ get: () => this.one<Account>('GET', '/account') }));
  }

  get parties() {
    return this.namespace('parties', () => ({
      get: (id: string) => this.one<Party>('GET', `/parties/${enc(id)}`),
      list: (query: QueryOf<'getV2Parties'> = {}) => this.page<Party>('/parties', query),
      iterate: (query: QueryOf<'getV2Parties'> = {}) => this.all<Party>('/parties', query),
      create: (attributes: AttributesOf<'postV2Parties'>) => this.one<Party>('POST', '/parties', { body: { data: { type: 'party', attributes } } }),
      update: (id: string, attributes: AttributesOf<'patchV2PartiesId'>) => this.one<Party>('PATCH', `/parties/${enc(id)}`, { body: { data: { type: 'party', id, attributes } } }),
    }));
  }

  get webhooks() {
    return this.namespace('webhooks', () => ({
      get: (id: string) => this.one<Webhook>('GET', `/webhooks/${enc(id)}`),
      list: (query: QueryOf<'getV2Webhooks'> = {}) => this.page<Webhook>('/webhooks', query),
      iterate: (query: QueryOf<'getV2Webhooks'> = {}) => this.all<Webhook>('/webhooks', query),
      create: (attributes: AttributesOf<'postV2Webhooks'>) => this.one<Webhook>('POST', '/webhooks', { body: { data: { type: 'webhook', attributes } } }),
      update: (id: string, attributes: AttributesOf<'patchV2WebhooksId'>) => this.one<Webhook>('PATCH', `/webhooks/${enc(id)}`, { body: { data: { type: 'webhook', id, attributes } } }),
      delete: async (id: string): Promise<void> => void (await this.request('DELETE', `/webhooks/${enc(id)}`)),
      /** The event names a webhook may subscribe to. */
      events: () => this.request<BodyOf<'getV2WebhooksEvents'>>('GET', '/webhooks/events'),
      /** The addresses deliveries leave from, for receivers' allow-lists. */
      ips: () => this.request<BodyOf<'getV2WebhooksIps'>>('GET', '/webhooks/ips'),
      /** Sends an example notification to a URL now and reports how the receiver answered. */
      trigger: (body: unknown) => this.request<BodyOf<'postV2WebhooksTrigger'>>('POST', '/webhooks/trigger', { body }),
    }));
  }

  get webhookNotifications() {
    return this.namespace('webhookNotifications', () => ({
      get: (id: string, query: QueryOf<'getV2WebhookNotificationsId'> = {}) => this.one<WebhookNotification>('GET', `/webhook_notifications/${enc(id)}`, { query }),
      list: (query: QueryOf<'getV2WebhookNotifications'> = {}) => this.page<WebhookNotification>('/webhook_notifications', query),
      iterate: (query: QueryOf<'getV2WebhookNotifications'> = {}) => this.all<WebhookNotification>('/webhook_notifications', query),
      redeliver: (id: string) => this.one<WebhookNotification>('POST', `/webhook_notifications/${enc(id)}/redeliver`),
      /** An example notification document of an event, as deliveries carry it. */
      example: (event: string) => this.request<BodyOf<'getV2WebhookNotificationsExamples'>>('GET', '/webhook_notifications/examples', { query: { event } }),
    }));
  }

  /** Custom field definitions (what a field of shipments, containers or tracking requests holds) and the options of enum fields. */
  get customFieldDefinitions() {
    return this.namespace('customFieldDefinitions', () => {
      const options = (definitionId: string) => `/custom_field_definitions/${enc(definitionId)}/options`;
      return {
        get: (id: string) => this.one<CustomFieldDefinition>('GET', `/custom_field_definitions/${enc(id)}`),
        list: (query: QueryOf<'getV2CustomFieldDefinitions'> = {}) => this.page<CustomFieldDefinition>('/custom_field_definitions', query),
        iterate: (query: QueryOf<'getV2CustomFieldDefinitions'> = {}) => this.all<CustomFieldDefinition>('/custom_field_definitions', query),
        create: (attributes: AttributesOf<'postV2CustomFieldDefinitions'>) =>
          this.one<CustomFieldDefinition>('POST', '/custom_field_definitions', { body: { data: { type: 'custom_field_definition', attributes } } }),
        update: (id: string, attributes: AttributesOf<'patchV2CustomFieldDefinitionsId'>) =>
          this.one<CustomFieldDefinition>('PATCH', `/custom_field_definitions/${enc(id)}`, { body: { data: { type: 'custom_field_definition', id, attributes } } }),
        /** Deletes the definition with its options and every value of it. */
        delete: async (id: string): Promise<void> => void (await this.request('DELETE', `/custom_field_definitions/${enc(id)}`)),
        options: {
          get: (definitionId: string, optionId: string) => this.one<CustomFieldOption>('GET', `${options(definitionId)}/${enc(optionId)}`),
          list: (definitionId: string, query: QueryOf<'getV2CustomFieldDefinitionsIdOptions'> = {}) => this.page<CustomFieldOption>(options(definitionId), query),
          create: (definitionId: string, attributes: AttributesOf<'postV2CustomFieldDefinitionsIdOptions'>) =>
            this.one<CustomFieldOption>('POST', options(definitionId), { body: { data: { type: 'custom_field_option', attributes } } }),
          update: (definitionId: string, optionId: string, attributes: AttributesOf<'patchV2CustomFieldDefinitionsIdOptionsOptionId'>) =>
            this.one<CustomFieldOption>('PATCH', `${options(definitionId)}/${enc(optionId)}`, { body: { data: { type: 'custom_field_option', attributes } } }),
          delete: async (definitionId: string, optionId: string): Promise<void> => void (await this.request('DELETE', `${options(definitionId)}/${enc(optionId)}`)),
        },
      };
    });
  }

  /** Custom field values: by id, and by api_slug under a shipment, container or tracking request. */
  get customFields() {
    return this.namespace('customFields', () => {
      /** The values of one kind of entity, addressed by the entity's id and the field's slug. */
      const of = (entities: string) => {
        const base = (id: string) => `/${entities}/${enc(id)}/custom_fields`;
        return {
          list: (id: string, query: QueryOf<'getV2ShipmentsIdCustomFields'> = {}) => this.page<CustomField>(base(id), query),
          /** Sets the value whether or not the entity has one (`value` left out: the definition's default). */
          set: (id: string, attributes: AttributesOf<'postV2ShipmentsIdCustomFields'>) => this.one<CustomField>('POST', base(id), { body: { data: { type: 'custom_field', attributes } } }),
          update: (id: string, apiSlug: string, value: unknown) =>
            this.one<CustomField>('PATCH', `${base(id)}/${enc(apiSlug)}`, { body: { data: { type: 'custom_field', attributes: { value } } } }),
          delete: async (id: string, apiSlug: string): Promise<void> => void (await this.request('DELETE', `${base(id)}/${enc(apiSlug)}`)),
        };
      };
      return {
        get: (id: string) => this.one<CustomField>('GET', `/custom_fields/${enc(id)}`),
        list: (query: QueryOf<'getV2CustomFields'> = {}) => this.page<CustomField>('/custom_fields', query),
        iterate: (query: QueryOf<'getV2CustomFields'> = {}) => this.all<CustomField>('/custom_fields', query),
        /** A value of an entity that has none of this field yet. */
        create: (attributes: AttributesOf<'postV2CustomFields'>, entity?: { type: 'shipment' | 'container' | 'tracking_request'; id: string }) =>
          this.one<CustomField>('POST', '/custom_fields', { body: { data: { type: 'custom_field', attributes, relationships: { entity: { data: entity } } } } }),
        update: (id: string, value: unknown) => this.one<CustomField>('PATCH', `/custom_fields/${enc(id)}`, { body: { data: { type: 'custom_field', id, attributes: { value } } } }),
        delete: async (id: string): Promise<void> => void (await this.request('DELETE', `/custom_fields/${enc(id)}`)),
        shipments: of('shipments'),
        containers: of('containers'),
        trackingRequests: of('tracking_requests'),
      };
    });
  }

  get documents() {
    return this.namespace('documents', () => ({
      get: (id: string, query: QueryOf<'getV2DocumentsId'> = {}) => this.one<Document>('GET', `/documents/${enc(id)}`, { query }),
      list: (query: QueryOf<'getV2Documents'> = {}) => this.page<Document>('/documents', query),
      iterate: (query: QueryOf<'getV2Documents'> = {}) => this.all<Document>('/documents', query),
      /** A document from a direct upload whose bytes were PUT: `attached_document` is the blob's signed_id. */
      create: (attributes: AttributesOf<'postV2Documents'>) => this.one<Document>('POST', '/documents', { body: { data: { type: 'document', attributes } } }),
      /** Step one of a direct upload (`checksum`: base64 MD5 of the bytes); PUT the bytes to `direct_upload.url`, then `create`. */
      createDirectUpload: (blob: { filename: string; content_type?: string | null; byte_size: number; checksum: string }) =>
        this.request<BodyOf<'postV2DirectUploads'>>('POST', '/direct_uploads', { body: { blob }, plainJson: true }),
      /** The same as createDirectUpload, at the reference's Rails path (/rails/active_storage/direct_uploads). */
      createDirectUploadRails: (blob: { filename: string; content_type?: string | null; byte_size: number; checksum: string }) =>
        this.fetchJson<BodyOf<'postRailsActiveStorageDirectUploads'>>('POST', `${this.root}/rails/active_storage/direct_uploads`, { body: { blob }, plainJson: true }),
      /** PUTs a direct upload's bytes: to its direct_upload.url (or the token at its end), with the Content-MD5 the blob was declared with. */
      putDirectUpload: async (urlOrToken: string, bytes?: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): Promise<void> =>
        void (await this.fetchJson('PUT', this.signedLink('/direct_uploads', urlOrToken), { raw: { contentType: headers['Content-Type'] ?? 'application/octet-stream', body: bytes ?? new Uint8Array() } })),
      /** A document's bytes, through its download_url (or the token at its end). */
      downloadFile: (urlOrToken: string): Promise<Uint8Array> => this.fetchBytes(this.signedLink('/document_files', urlOrToken)),
      update: (id: string, attributes: AttributesOf<'patchV2DocumentsId'>) => this.one<Document>('PATCH', `/documents/${enc(id)}`, { body: { data: { type: 'document', id, attributes } } }),
      delete: async (id: string): Promise<void> => void (await this.request('DELETE', `/documents/${enc(id)}`)),
      /** A signed link to the file that needs no key and expires (SVC_DOCUMENT_LINK_TTL_S). */
      downloadUrl: async (id: string): Promise<string> => (await this.request<BodyOf<'getV2DocumentsIdDownloadUrl'>>('GET', `/documents/${enc(id)}/download_url`)).download_url,
      reextract: (id: string) => this.request<BodyOf<'postV2DocumentsIdReextract', 202>>('POST', `/documents/${enc(id)}/reextract`),
      reclassify: (id: string) => this.request<BodyOf<'postV2DocumentsIdReclassify', 202>>('POST', `/documents/${enc(id)}/reclassify`),
      relink: (id: string) => this.request<BodyOf<'postV2DocumentsIdRelink', 202>>('POST', `/documents/${enc(id)}/relink`),
      rotate: (id: string, degrees: 90 | 180 | 270 = 90) => this.request<BodyOf<'postV2DocumentsIdRotate', 202>>('POST', `/documents/${enc(id)}/rotate`, { body: { degrees }, plainJson: true }),
      /** The document types svc classifies into. */
      types: () => this.request<BodyOf<'getV2DocumentsTypes'>>('GET', '/documents/types'),
      /** The JSON Schema of a type's extracted fields, by `<type>@<version>`. */
      schema: (id: string) => this.one<DocumentSchema>('GET', `/document_schemas/${enc(id)}`),
    }));
  }

  /** E-mails received (SMTP, or posted raw) and the documents they became. */
  get emailSubmissions() {
    return this.namespace('emailSubmissions', () => ({
      get: (id: string, query: QueryOf<'getV2EmailSubmissionsId'> = {}) => this.one<EmailSubmission>('GET', `/email_submissions/${enc(id)}`, { query }),
      list: (query: QueryOf<'getV2EmailSubmissions'> = {}) => this.page<EmailSubmission>('/email_submissions', query),
      iterate: (query: QueryOf<'getV2EmailSubmissions'> = {}) => this.all<EmailSubmission>('/email_submissions', query),
      /** Submits a raw RFC 822 message: its attachments and its text become documents. */
      /** The account's inbound e-mail address. */
      inboundAddress: async (): Promise<string> => (await this.request<BodyOf<'getV2EmailSubmissionsInboundAddress'>>('GET', '/email_submissions/inbound_address')).inbound_address,
      submit: (message: string | Uint8Array<ArrayBuffer>) => this.one<EmailSubmission>('POST', '/email_submissions', { raw: { contentType: 'message/rfc822', body: message } }),
    }));
  }

  /** svc's OpenAPI document, the one the SDK's types are generated from. */
  openApi = () => this.request<BodyOf<'getV2OpenapiJson'>>('GET', '/openapi.json');
  /** Liveness: svc's process answers (outside /v2, no key needed). */
  health = () => this.fetchJson<BodyOf<'getHealthz'>>('GET', `${this.root}/healthz`);
  /** Readiness: svc can reach its database; a ServerError (503) when it cannot. */
  ready = () => this.fetchJson<BodyOf<'getReadyz'>>('GET', `${this.root}/readyz`);
}

const enc = encodeURIComponent;

/** The parsed body of a successful answer, else the typed error of the failed one. */
function answerOf<T>(status: number, parsed: unknown, header: (name: string) => string | null): T {
  if (status >= 200 && status < 300) return parsed as T;
  const wait = retryAfterMs(header('retry-after'));
  throw errorFor(status, parsed, header('x-request-id') ?? undefined, wait === undefined ? undefined : Math.ceil(wait / 1000));
}

/** What application/x-www-form-urlencoded (URLSearchParams) leaves unescaped. */
const AS_IS = /^[\w*.-]*$/;

/** `url` with the query's parameters; a list goes comma-separated, as svc reads `include`. */
function withQuery(url: string, query: Query = {}): string {
  // The common case, a URL of the client's own without a query: the parameters are appended as
  // URLSearchParams writes them, which is what a URL's searchParams would have added, without
  // parsing the URL (whoever sends it parses it anyway).
  if (!url.includes('?') && !url.includes('#')) {
    // Names and values of characters URLSearchParams writes as they are (most: `include=shipment`,
    // `page[number]` aside) are joined here, without making one.
    let search = '';
    let params: URLSearchParams | undefined;
    for (const name of Object.keys(query)) {
      const value = query[name];
      if (value === undefined || value === null) continue;
      const text = Array.isArray(value) ? value.join(',') : String(value);
      if (params) params.append(name, text);
      else if (AS_IS.test(name) && AS_IS.test(text)) search += `${search ? '&' : ''}${name}=${text}`;
      else {
        params = new URLSearchParams(search);
        params.append(name, text);
      }
    }
    if (params) search = params.toString();
    return search ? `${url}?${search}` : url;
  }
  const result = new URL(url);
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    result.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return result.toString();
}

function includeList(include: unknown): string[] | undefined {
  if (Array.isArray(include)) return include.map(String);
  if (typeof include === 'string' && include.trim() !== '') return include.split(',');
  return undefined;
}
