// Which connector speaks to a carrier: one per protocol, chosen by the `protocol` of its
// SVC_CARRIERS entry (default `dcsa`). A carrier API that is not DCSA Track & Trace gets a
// connector of its own (a CarrierConnector, types.ts), optionally a check for `svc carriers check`,
// and one entry in PROTOCOLS; the DCSA one is untouched.
import type { Clock } from '../clock.ts';
import type { CheckReport } from './check-report.ts';
import { carrierAuth } from './dcsa/auth.ts';
import { checkDcsaCarrier } from './dcsa/check.ts';
import { DEFAULT_MAX_RETRY_WAIT_MS } from './dcsa/client.ts';
import { DcsaConnector } from './dcsa/index.ts';
import { RequestGate } from './dcsa/request-gate.ts';
import type { ResolvedCarrier } from './endpoints.ts';
import type { CarrierConnector, RequestOutcomes } from './types.ts';

export interface ConnectorDeps {
  clock: Clock;
  /** A test's or a proxy's fetch; default undici's request. */
  fetch?: typeof fetch;
  /** Hears what each request to the carrier came to (svc carriers list shows it). */
  outcomes?: RequestOutcomes;
}

export type ConnectorFactory = (carrier: ResolvedCarrier, deps: ConnectorDeps) => CarrierConnector;

export interface Protocol {
  connector: ConnectorFactory;
  /** One authenticated request, step by step (svc carriers check); without it the command says it cannot check. */
  check?: (carrier: ResolvedCarrier, options: { fetch?: typeof fetch; outcomes?: RequestOutcomes }) => Promise<CheckReport>;
}

export const dcsaConnector: ConnectorFactory = (carrier, { clock, fetch, outcomes }) => {
  const http = { fetch, timeoutMs: carrier.timeoutMs };
  return new DcsaConnector(
    {
      baseUrl: carrier.baseUrl,
      eventsUrl: carrier.eventsUrl,
      version: carrier.version,
      timeoutMs: carrier.timeoutMs,
      fetch,
      auth: carrierAuth(carrier.credentials, { http }),
      gate: new RequestGate({ requestsPerSecond: carrier.requestsPerSecond, maxWaitMs: DEFAULT_MAX_RETRY_WAIT_MS }),
      outcomes,
    },
    { terminalBaseUrl: carrier.terminalBaseUrl, clock },
  );
};

export const PROTOCOLS: Readonly<Record<string, Protocol>> = { dcsa: { connector: dcsaConnector, check: checkDcsaCarrier } };

export function protocolOf(carrier: ResolvedCarrier, protocols: Readonly<Record<string, Protocol>> = PROTOCOLS): Protocol {
  const protocol = Object.hasOwn(protocols, carrier.protocol) ? protocols[carrier.protocol] : undefined;
  if (!protocol) throw new Error(`SVC_CARRIERS: ${carrier.scac}: unknown protocol "${carrier.protocol}" (known: ${Object.keys(protocols).join(', ')})`);
  return protocol;
}
