// The carriers known to publish a DCSA Track & Trace API: where it answers, which DCSA version it
// speaks and how a client authenticates, each fact with where it was read. An SVC_CARRIERS entry
// naming one of these SCACs takes its endpoint, version and authentication from here, so a user
// gives only credentials. Pure data: the configuration module validates entries against it.
//
// A fact is `documented` when the carrier's own developer documentation says it, `corroborated`
// when only integrations written against the live API (public code) agree on it, and
// `unconfirmed` when neither was found: an unconfirmed fact is a null value, never a guess, and
// the user must configure it (baseUrl or eventsUrl, apiKeyHeader, tokenUrl).

export type DcsaVersionCode = '2.2' | '3.0';

/** How a carrier's API wants a client to authenticate. */
export type AuthScheme =
  /** One key in one request header. */
  | { kind: 'api_key'; header: string }
  /** A client id and a client secret, each in a header of every request (IBM API Connect style). */
  | { kind: 'client_headers'; idHeader: string; secretHeader: string }
  /**
   * OAuth2 client credentials (RFC 6749 §4.4): a bearer token from tokenUrl. `clientIdHeader`:
   * some gateways also want the client id itself in a header of every API request.
   */
  | { kind: 'oauth2'; tokenUrl: string; scope?: string; clientIdHeader?: string };

export interface Source {
  url: string;
  /** What the source says, in our words. */
  says: string;
}

export interface Fact<T> {
  value: T | null;
  status: 'documented' | 'corroborated' | 'unconfirmed';
  sources: Source[];
  /** For an unconfirmed fact: what was looked for, and where. */
  searched?: string;
}

export interface CatalogueCarrier {
  scac: string;
  name: string;
  /** Full URL of the events resource (GET …/events), which need not end in /v2/events. */
  eventsUrl: Fact<string>;
  version: Fact<DcsaVersionCode>;
  auth: Fact<AuthScheme>;
  /** Anything a user setting the carrier up should know. */
  note?: string;
}

const unconfirmed = <T>(searched: string, sources: Source[] = []): Fact<T> => ({ value: null, status: 'unconfirmed', sources, searched });
/** A carrier whose DCSA API, if it has one, is described nowhere we could find: listed so nobody searches again blind. */
function nothingFound(scac: string, name: string, searched: string, sources: Source[] = []): CatalogueCarrier {
  return { scac, name, eventsUrl: unconfirmed(searched, sources), version: unconfirmed('none found'), auth: unconfirmed('none found', sources) };
}
const IQAX: Source = { url: 'https://content.iqax.com/tnt/api/shp_tracking.html', says: 'IQAX (CargoSmart) Shipment Tracking API: its own shapes, an Ocp-Apim-Subscription-Key header; not DCSA Track & Trace' };
/** Integrations written against the live APIs, found by code search; each names the endpoint and its headers. */
const codeSearch = (query: string, says: string): Source => ({ url: `https://github.com/search?type=code&q=${encodeURIComponent(query)}`, says });

export const CARRIER_CATALOGUE: readonly CatalogueCarrier[] = [
  {
    scac: 'MAEU',
    name: 'Maersk',
    eventsUrl: {
      value: 'https://api.maersk.com/track-and-trace-private/events',
      status: 'corroborated',
      sources: [
        { url: 'https://raw.githubusercontent.com/api-evangelist/maersk-line/refs/heads/main/openapi/maersk-track-and-trace-api-openapi.yml', says: 'server https://api.maersk.com, GET /track-and-trace-private/events with equipmentReference, transportDocumentReference, carrierBookingReference; 401, 404, 429 answers' },
      ],
    },
    version: {
      value: '2.2',
      status: 'corroborated',
      sources: [codeSearch('"track-and-trace-private/events"', 'integrations parse its answer as DCSA Track & Trace 2.2 events (one notes Maersk, CMA CGM and Hapag-Lloyd all answer DCSA T&T 2.2)')],
    },
    auth: {
      value: { kind: 'oauth2', tokenUrl: 'https://api.maersk.com/customer-identity/oauth/v2/access_token', clientIdHeader: 'Consumer-Key' },
      status: 'corroborated',
      sources: [
        { url: 'https://mcp.waymark.network/r/12cc256c-df76-4a83-85fa-8f583edb4d9e', says: 'an application on developer.maersk.com gets a Consumer Key and a Consumer Secret; the OAuth token endpoint gives a bearer token for Authorization: Bearer' },
        codeSearch('"customer-identity/oauth/v2/access_token"', 'integrations post client_credentials to https://api.maersk.com/customer-identity/oauth/v2/access_token and send Consumer-Key beside the bearer token'),
        { url: 'https://raw.githubusercontent.com/api-evangelist/maersk-line/refs/heads/main/rate-limits/maersk-line-rate-limits.yml', says: 'citing developer.maersk.com/support: limits are per consumer key, 429 with Retry-After when throttled (Track and Trace: 120 requests a minute, 5,000 an hour)' },
      ],
    },
    note: 'Track & Trace Private answers only shipments of the customer code registered with the application (404 otherwise); integrations read its events from an object, { "events": [...] }, not a bare 2.2 array.',
  },
  {
    scac: 'HLCU',
    name: 'Hapag-Lloyd',
    eventsUrl: {
      value: 'https://api.hlag.com/hlag/external/v2/events',
      status: 'corroborated',
      sources: [
        { url: 'https://doc.api-portal.hlag.com/01.basic-knowledge/getting-started.html', says: 'APIs are reached with the credentials of an application created on the Hapag-Lloyd API Developer Portal' },
        codeSearch('"api.hlag.com/hlag/external/v2/events"', 'independent integrations call GET https://api.hlag.com/hlag/external/v2/events/ with equipmentReference, transportDocumentReference or carrierBookingReference; a mock at https://mock.api-portal.hlag.com/v2/events'),
      ],
    },
    version: {
      value: '2.2',
      status: 'corroborated',
      sources: [codeSearch('"api.hlag.com/hlag/external/v2/events"', 'integrations describe it as the DCSA Track & Trace 2.2 production gateway (a flat array of DCSA 2.2 events)')],
    },
    auth: {
      value: { kind: 'client_headers', idHeader: 'X-IBM-Client-Id', secretHeader: 'X-IBM-Client-Secret' },
      status: 'corroborated',
      sources: [
        { url: 'https://doc.api-portal.hlag.com/01.basic-knowledge/getting-started.html', says: 'creating an application gives individual API credentials: a ClientID and a Client Secret' },
        codeSearch('"api.hlag.com" "x-ibm-client-secret"', 'integrations send them as the X-IBM-Client-Id and X-IBM-Client-Secret headers'),
      ],
    },
  },
  {
    scac: 'CMDU',
    name: 'CMA CGM',
    eventsUrl: {
      value: 'https://apis.cma-cgm.net/operation/trackandtrace/v1/events',
      status: 'corroborated',
      sources: [
        codeSearch('"apis.cma-cgm.net/operation/trackandtrace/v1"', 'a client generated from the API portal (api-portal.cma-cgm.com): all URIs relative to https://apis.cma-cgm.net/operation/trackandtrace/v1, GET /events'),
      ],
    },
    version: {
      value: '2.2',
      status: 'corroborated',
      sources: [codeSearch('"apis.cma-cgm.net/operation/trackandtrace/v1"', 'integrations describe it as DCSA Track & Trace 2.2.0 (CMA API 1.2.9), with Next-Page paging')],
    },
    auth: {
      value: { kind: 'api_key', header: 'KeyId' },
      status: 'corroborated',
      sources: [codeSearch('"apis.cma-cgm.net" keyId', 'the public tier takes the API key of a portal subscription in the keyId header; a private tier uses OAuth2 client credentials')],
    },
  },
  {
    scac: 'MSCU',
    name: 'MSC',
    eventsUrl: {
      value: 'https://api.tech.msc.com/msc/trackandtrace/v2.2/events',
      status: 'corroborated',
      sources: [codeSearch('"api.tech.msc.com/msc/trackandtrace/v2.2"', 'integrations call GET https://api.tech.msc.com/msc/trackandtrace/v2.2/events (uat.api.tech.msc.com for testing)')],
    },
    version: {
      value: '2.2',
      status: 'corroborated',
      sources: [codeSearch('"api.tech.msc.com/msc/trackandtrace/v2.2"', 'the path names DCSA T&T 2.2; answers are a flat array of DCSA events')],
    },
    auth: unconfirmed('the token URL, client and scope: issued per integrator', [
      codeSearch('"api.tech.msc.com" acquireTokenByClientCredential', 'integrations get a bearer token from Microsoft Entra ID (login.microsoftonline.com/<MSC tenant>/oauth2/v2.0/token) with a certificate client assertion'),
    ]),
    note: 'MSC issues an Entra ID tenant, client id and scope per integrator and signs in with a certificate: configure tokenUrl and scope; svc sends a client secret, not a certificate assertion.',
  },
  {
    scac: 'ZIMU',
    name: 'ZIM',
    eventsUrl: {
      value: 'https://apigw.zim.com/trackAndTrace/v2',
      status: 'corroborated',
      sources: [codeSearch('"apigw.zim.com/trackAndTrace"', 'the ZIM API portal product "Tracing > DCSA Track And Trace - v2" answers GET https://apigw.zim.com/trackAndTrace/v2/ with one of carrierBookingReference, transportDocumentReference, equipmentReference; limit and sort are not supported')],
    },
    version: {
      value: '2.2',
      status: 'corroborated',
      sources: [codeSearch('"apigw.zim.com/trackAndTrace"', 'described as following DCSA T&T 2.2; the answer is a flat array of DCSA events')],
    },
    auth: {
      value: { kind: 'api_key', header: 'Ocp-Apim-Subscription-Key' },
      status: 'corroborated',
      sources: [codeSearch('"apigw.zim.com" Ocp-Apim-Subscription-Key', 'the key of an Azure API Management subscription in Ocp-Apim-Subscription-Key; some ZIM products also want an OAuth2 token from https://apigw.zim.com/authorize/v1 (scope "tracing")')],
    },
  },
  {
    scac: 'HDMU',
    name: 'HMM',
    eventsUrl: {
      value: 'https://apigw.hmm21.com/gateway/dcsaCargoTracking/v1/cargo-tracking-dcsa',
      status: 'corroborated',
      sources: [codeSearch('"apigw.hmm21.com/gateway/dcsaCargoTracking"', "read from HMM's published OpenAPI (dcsaCargoTracking v1): GET https://apigw.hmm21.com/gateway/dcsaCargoTracking/v1/cargo-tracking-dcsa with carrierBookingReference and equipmentReference")],
    },
    version: unconfirmed('which DCSA version the answer follows (described only as DCSA events)'),
    auth: {
      value: { kind: 'api_key', header: 'x-Gateway-APIKey' },
      status: 'corroborated',
      sources: [codeSearch('"apigw.hmm21.com" x-Gateway-APIKey', 'the API key goes in the x-Gateway-APIKey header')],
    },
  },
  nothingFound('ONEY', 'Ocean Network Express (ONE)', 'a public description of a DCSA Track & Trace endpoint (ONE is a DCSA member): none found'),
  nothingFound('EGLV', 'Evergreen Line', 'a public description of a DCSA Track & Trace endpoint (Evergreen is a DCSA member): none found'),
  nothingFound('YMLU', 'Yang Ming', 'a public description of a DCSA Track & Trace endpoint (Yang Ming is a DCSA member): none found'),
  nothingFound('COSU', 'COSCO Shipping Lines', 'a DCSA Track & Trace endpoint: none found; tracking is offered through IQAX (CargoSmart)', [IQAX]),
  nothingFound('OOLU', 'OOCL', 'a DCSA Track & Trace endpoint: none found; tracking is offered through IQAX (CargoSmart)', [IQAX]),
];

export function catalogueCarrier(scac: string): CatalogueCarrier | undefined {
  const wanted = scac.toUpperCase();
  return CARRIER_CATALOGUE.find((c) => c.scac === wanted);
}
