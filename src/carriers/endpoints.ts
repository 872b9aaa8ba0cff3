// A carrier as svc will reach it: an SVC_CARRIERS entry (or a sandbox carrier) completed with what
// the carrier catalogue knows about its SCAC. What `svc carriers list` shows and connectors are built from.
import type { z } from 'zod';
import { carrierEndpointSchema } from '../config/index.ts';
import { catalogueCarrier, type AuthScheme, type DcsaVersionCode } from './catalogue.ts';

/** A carrier's endpoint as configured: an entry of SVC_CARRIERS (validated with the configuration) or a sandbox carrier. */
export type CarrierEndpoint = z.input<typeof carrierEndpointSchema>;
type ParsedEndpoint = z.output<typeof carrierEndpointSchema>;

/** Credentials put to the carrier's scheme; secrets stay in here and never reach a log line. */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'api_key'; header: string; key: string }
  | { kind: 'client_headers'; idHeader: string; secretHeader: string; clientId: string; clientSecret: string }
  | { kind: 'oauth2'; tokenUrl: string; scope?: string; clientIdHeader?: string; clientId: string; clientSecret: string };

export interface ResolvedCarrier {
  scac: string;
  name?: string;
  protocol: string;
  /** The API root (/v2/events or /v3/events is appended), when the events resource is not given whole. */
  baseUrl?: string;
  eventsUrl?: string;
  version: DcsaVersionCode;
  /** The scheme the carrier wants (configuration, else catalogue); null when neither says. */
  scheme: AuthScheme | null;
  credentials: Credentials;
  /** What the scheme needs that the configuration does not give, e.g. ['clientId', 'clientSecret']. */
  missing: string[];
  terminalBaseUrl?: string;
  timeoutMs: number;
  requestsPerSecond?: number;
}

const DEFAULT_API_KEY_HEADER = 'API-Key';

export function resolveCarrier(raw: CarrierEndpoint): ResolvedCarrier {
  const e = carrierEndpointSchema.parse(raw);
  const known = catalogueCarrier(e.scac);
  // A configured endpoint is the carrier's whole address: the catalogue's events URL applies only without one.
  const eventsUrl = e.eventsUrl ?? (e.baseUrl ? undefined : (known?.eventsUrl.value ?? undefined));
  const scheme = schemeOf(e, known?.auth.value ?? null);
  const { credentials, missing } = credentialsFor(e, scheme);
  return {
    scac: e.scac,
    name: known?.name,
    protocol: e.protocol,
    baseUrl: e.baseUrl,
    eventsUrl,
    version: e.version ?? known?.version.value ?? '2.2',
    scheme,
    credentials,
    missing,
    terminalBaseUrl: e.terminalBaseUrl,
    timeoutMs: e.timeoutMs,
    requestsPerSecond: e.requestsPerSecond,
  };
}

/** What the configuration says about authentication wins over the catalogue. */
function schemeOf(e: ParsedEndpoint, catalogued: AuthScheme | null): AuthScheme | null {
  if (e.tokenUrl) return { kind: 'oauth2', tokenUrl: e.tokenUrl, scope: e.scope, clientIdHeader: catalogued?.kind === 'oauth2' ? catalogued.clientIdHeader : undefined };
  if (e.apiKeyHeader) return { kind: 'api_key', header: e.apiKeyHeader };
  if (catalogued?.kind === 'oauth2' && e.scope) return { ...catalogued, scope: e.scope };
  if (catalogued) return catalogued;
  if (e.apiKey !== undefined) return { kind: 'api_key', header: DEFAULT_API_KEY_HEADER };
  return null;
}

function credentialsFor(e: ParsedEndpoint, scheme: AuthScheme | null): { credentials: Credentials; missing: string[] } {
  const client = e.clientId !== undefined && e.clientSecret !== undefined ? { clientId: e.clientId, clientSecret: e.clientSecret } : undefined;
  switch (scheme?.kind) {
    case undefined:
      return { credentials: { kind: 'none' }, missing: [] };
    case 'api_key':
      // An API key given to a carrier the catalogue knows under another scheme still goes in the default header.
      return e.apiKey !== undefined ? { credentials: { kind: 'api_key', header: scheme.header, key: e.apiKey }, missing: [] } : { credentials: { kind: 'none' }, missing: ['apiKey'] };
    case 'client_headers':
      if (client) return { credentials: { ...scheme, ...client }, missing: [] };
      return e.apiKey !== undefined ? apiKeyInstead(e.apiKey) : { credentials: { kind: 'none' }, missing: ['clientId', 'clientSecret'] };
    case 'oauth2':
      if (client) return { credentials: { ...scheme, ...client }, missing: [] };
      return e.apiKey !== undefined ? apiKeyInstead(e.apiKey) : { credentials: { kind: 'none' }, missing: ['clientId', 'clientSecret'] };
  }
}

/** A user who gives an apiKey where the catalogue expects client credentials means a key: sent in the default header. */
function apiKeyInstead(key: string): { credentials: Credentials; missing: string[] } {
  return { credentials: { kind: 'api_key', header: DEFAULT_API_KEY_HEADER, key }, missing: [] };
}

/** The scheme in a few words, for `svc carriers list`. */
export function describeScheme(scheme: AuthScheme | null): string {
  switch (scheme?.kind) {
    case undefined:
      return 'none';
    case 'api_key':
      return `API key (${scheme.header})`;
    case 'client_headers':
      return `client id and secret (${scheme.idHeader}, ${scheme.secretHeader})`;
    case 'oauth2':
      return `OAuth2 client credentials (${scheme.tokenUrl}${scheme.scope ? `, scope ${scheme.scope}` : ''})`;
  }
}

/** The sandbox carrier network's carriers, served at `url` (its DCSA 2.2 endpoints need no credentials). */
export function sandboxEndpoints(url: string, scacs: readonly string[]): CarrierEndpoint[] {
  return scacs.map((scac) => ({ scac, baseUrl: `${url}/carriers/${scac}`, version: '2.2' as const, terminalBaseUrl: `${url}/terminal` }));
}

/** The events resource a carrier is asked at. */
export function endpointOf(carrier: Pick<ResolvedCarrier, 'eventsUrl' | 'baseUrl' | 'version'>): string {
  return carrier.eventsUrl ?? `${carrier.baseUrl?.replace(/\/+$/, '')}/${carrier.version === '2.2' ? 'v2' : 'v3'}/events`;
}
