// The carriers svc knows, one row each, for `svc carriers list`: those configured in SVC_CARRIERS,
// the sandbox's, and the rest of the catalogue. Never a secret: credentials are "set" or missing.
// With the recorded outcomes of requests, each row also says how they have been going.
import type { CarrierOutcomeBatch } from '../store/carrier-request-outcomes.ts';
import { CARRIER_CATALOGUE, catalogueCarrier, type CatalogueCarrier } from './catalogue.ts';
import { describeScheme, endpointOf, resolveCarrier, type CarrierEndpoint, type ResolvedCarrier } from './endpoints.ts';
import { protocolOf } from './protocols.ts';

export interface CarrierRow {
  scac: string;
  name: string;
  endpoint: string;
  version: string;
  auth: string;
  credentials: string;
  state: string;
  /** How sure the catalogue is of its facts about the carrier. */
  catalogue: string;
}

/** A row with how requests to the carrier have been going (null: never, as far as the database knows). */
export type CarrierRowWithOutcomes = CarrierRow & CarrierOutcomeBatch;

const NO_OUTCOME: CarrierOutcomeBatch = { lastSuccessAt: null, lastFailureAt: null, lastFailureReason: null, failingSince: null, heldUntil: null };

/** The rows with their outcomes; the state says when the carrier holds requests back, or since when they fail. */
export function withOutcomes(rows: CarrierRow[], outcomes: ReadonlyMap<string, CarrierOutcomeBatch>, now: Date): CarrierRowWithOutcomes[] {
  return rows.map((row) => {
    const { lastSuccessAt, lastFailureAt, lastFailureReason, failingSince, heldUntil } = outcomes.get(row.scac) ?? NO_OUTCOME;
    const state =
      heldUntil && heldUntil > now ? `${row.state} · rate limited until ${heldUntil.toISOString()}` : failingSince ? `${row.state} · failing since ${failingSince.toISOString()}` : row.state;
    return { ...row, state, lastSuccessAt, lastFailureAt, lastFailureReason, failingSince, heldUntil };
  });
}

/** A row as `svc carriers list` prints it, with the outcome columns when they could be read. */
export function carrierTableRow(row: CarrierRow | CarrierRowWithOutcomes): Record<string, string> {
  const { scac, name, endpoint, version, auth, credentials, state, catalogue } = row;
  const shown = { scac, name, endpoint, version, auth, credentials, state, catalogue };
  if (!('lastSuccessAt' in row)) return shown;
  const lastFailure = row.lastFailureAt ? `${row.lastFailureAt.toISOString()} ${row.lastFailureReason ?? ''}`.trim() : 'never';
  return { ...shown, 'last success': row.lastSuccessAt?.toISOString() ?? 'never', 'last failure': lastFailure };
}

/** Where a carrier is reached from: SVC_CARRIERS first, then the sandbox; what `svc carriers check` uses. */
export function findCarrier(scac: string, configured: CarrierEndpoint[], sandbox: CarrierEndpoint[]): { carrier: ResolvedCarrier; from: 'configured' | 'sandbox' } | undefined {
  const wanted = scac.toUpperCase();
  const mine = configured.find((e) => e.scac.toUpperCase() === wanted);
  if (mine) return { carrier: resolveCarrier(mine), from: 'configured' };
  const sandboxed = sandbox.find((e) => e.scac.toUpperCase() === wanted);
  return sandboxed ? { carrier: sandboxCarrier(sandboxed), from: 'sandbox' } : undefined;
}

export function carrierOverview(configured: CarrierEndpoint[], sandbox: CarrierEndpoint[]): CarrierRow[] {
  const scacs = new Set([...configured, ...sandbox].map((e) => e.scac.toUpperCase()).concat(CARRIER_CATALOGUE.map((c) => c.scac)));
  return [...scacs].sort().map((scac) => {
    const known = catalogueCarrier(scac);
    const found = findCarrier(scac, configured, sandbox);
    if (!found) return catalogueRow(known!);
    const { carrier, from } = found;
    protocolOf(carrier); // an unknown protocol is reported as svc serve would report it
    const credentialState =
      carrier.missing.length > 0 ? `missing ${carrier.missing.join(', ')}` : carrier.credentials.kind === 'none' ? 'none needed' : 'set';
    return {
      scac,
      name: carrier.name ?? '-',
      endpoint: endpointOf(carrier),
      version: carrier.version,
      auth: from === 'sandbox' ? 'none (sandbox)' : describeScheme(carrier.scheme),
      credentials: credentialState,
      state: from === 'sandbox' ? 'sandbox' : carrier.missing.length > 0 ? 'missing credentials' : 'configured',
      catalogue: certainty(known),
    };
  });
}

/** The sandbox's endpoints take nothing from the catalogue but the name: they need no credentials. */
function sandboxCarrier(endpoint: CarrierEndpoint): ResolvedCarrier {
  return { ...resolveCarrier(endpoint), scheme: null, credentials: { kind: 'none' }, missing: [] };
}

function catalogueRow(known: CatalogueCarrier): CarrierRow {
  return {
    scac: known.scac,
    name: known.name,
    endpoint: known.eventsUrl.value ?? 'unconfirmed',
    version: known.version.value ?? 'unconfirmed',
    auth: known.auth.value ? describeScheme(known.auth.value) : 'unconfirmed',
    credentials: 'not set',
    state: known.eventsUrl.value ? 'not configured' : 'not configured (endpoint unconfirmed)',
    catalogue: certainty(known),
  };
}

function certainty(known: CatalogueCarrier | undefined): string {
  if (!known) return 'not listed';
  const statuses = new Set([known.eventsUrl.status, known.version.status, known.auth.status]);
  return statuses.size === 1 ? [...statuses][0] : `partly unconfirmed`;
}
